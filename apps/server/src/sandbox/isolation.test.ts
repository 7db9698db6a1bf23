import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { signSessionJwt } from '@x/service-kernel';
import type { BrowserSession } from '@x/types';
import { chromium } from 'playwright-core';
import puppeteer from 'puppeteer-core';
import { afterAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { attachToPage, type CdpSocket, connectCdp } from '../test-support/cdp-socket.js';
import {
  allowDownloads,
  download,
  downloadEnd,
  evaluate,
  listeningInodes,
  navigate,
  socketInodes,
  x11Handshake,
  x11HandshakeIn,
} from '../test-support/isolation-probes.js';
import { type HostProcess, processesOfUser } from '../test-support/processes.js';
import {
  jsonCaller,
  shellRunner,
  TEST_TOKEN,
  useSite,
  useTestServer,
} from '../test-support/servers.js';

const READ_ONLY_TOKEN = 'isolation-read-only-token';
const test = useTestServer({ XB_READ_ONLY_TOKENS: READ_ONLY_TOKEN, XB_MAX_BROWSERS: '6' });
const site = useSite();
const otherSite = useSite();

/** Host folders an attack aims at; removed after the tests. */
const targets: string[] = [];
afterAll(() => {
  for (const target of targets) rmSync(target, { recursive: true, force: true });
});

/** A folder on the host that anyone could write to: what an escaping download would land in. */
function hostTarget(): string {
  const folder = mkdtempSync(join(tmpdir(), 'xb-attack-'));
  chmodSync(folder, 0o777);
  targets.push(folder);
  return folder;
}

const call = jsonCaller(() => test.server.url);
const exec = shellRunner(() => test.server.url);

async function createBrowser(body: Record<string, unknown> = {}): Promise<BrowserSession> {
  const { status, json } = await call<BrowserSession>('POST', '/browsers', body);
  expect(status).toBe(201);
  return json;
}

/**
 * Runs `work` on a new browser, connected over raw DevTools (as an attacker holding its URL
 * would be) with its first page on the loopback site; the browser is deleted after.
 */
async function onBrowser(
  work: (session: BrowserSession, cdp: CdpSocket, page: string) => Promise<void>,
): Promise<void> {
  const session = await createBrowser();
  const cdp = await connectCdp(session.cdp_ws_url);
  try {
    const page = await attachToPage(cdp);
    await navigate(cdp, page, site.url);
    await work(session, cdp, page);
  } finally {
    cdp.close();
    await call('DELETE', `/browsers/${session.session_id}`);
  }
}

/** The processes of a session's sandbox user (its Chromium, display and processes). */
function sessionProcesses(id: string): HostProcess[] {
  const user = test.server.instance(id).user;
  if (!user) throw new Error('These tests run the server as root, so each browser has a user.');
  return processesOfUser(user.uid);
}

describe('a session, sealed off from the host and from every other session', () => {
  it('runs Chromium as an unprivileged user of its own, with nothing of the server environment', async () => {
    const [one, two] = [await createBrowser(), await createBrowser()];
    try {
      const [userOne, userTwo] = [one, two].map(
        (session) => test.server.instance(session.session_id).user?.uid,
      );
      expect(userOne).toBeGreaterThan(0);
      expect(userTwo).toBeGreaterThan(0);
      expect(userOne).not.toBe(userTwo);
      // A page that loaded: the browser has started its renderers.
      const cdp = await connectCdp(one.cdp_ws_url);
      await navigate(cdp, await attachToPage(cdp), site.url);
      cdp.close();
      const browsers = sessionProcesses(one.session_id).filter((p) => p.name.startsWith('chrom'));
      expect(browsers.length).toBeGreaterThan(0);
      // Chromium's helpers write their title over their environment: the browser keeps it.
      const environments = browsers.map((process) =>
        readFileSync(`/proc/${process.pid}/environ`, 'utf8'),
      );
      for (const environment of environments) {
        expect(environment).not.toContain(TEST_TOKEN);
        expect(environment).not.toContain('XB_');
      }
      expect(environments.some((environment) => environment.includes('HOME=/home/browser'))).toBe(
        true,
      );
      // Chromium's own sandbox is on inside ours: its renderers run in a user namespace of
      // their own, apart from the browser process.
      const namespaceOf = (pid: number) => readlinkSync(`/proc/${pid}/ns/user`);
      // Helpers set their title: their command line is one string, spaces and all.
      const main = browsers.find((process) => !process.commandLine.includes('--type='));
      const renderers = browsers.filter((process) =>
        process.commandLine.includes('--type=renderer'),
      );
      expect(main?.commandLine.split('\0')).not.toContain('--no-sandbox');
      expect(renderers.length).toBeGreaterThan(0);
      for (const renderer of renderers)
        expect(namespaceOf(renderer.pid)).not.toBe(namespaceOf(main?.pid ?? 0));
    } finally {
      await call('DELETE', `/browsers/${one.session_id}`);
      await call('DELETE', `/browsers/${two.session_id}`);
    }
  });

  it("tells a process nothing of the host's paths: not in /proc/1/cmdline, nor in a descriptor", async () => {
    const session = await createBrowser();
    try {
      const seen = await exec(
        session.session_id,
        'tr "\\0" " " < /proc/1/cmdline; echo; for f in /proc/$$/fd/*; do readlink "$f"; done',
      );
      // The sandbox's options (its instance folder in the data directory among them) reached
      // bubblewrap through a pipe; its command line names that pipe only.
      expect(seen.stdout).toMatch(/--args \d+/);
      expect(seen.stdout).not.toContain(test.dataDir);
      expect(seen.stdout).not.toContain('instances/');
    } finally {
      await call('DELETE', `/browsers/${session.session_id}`);
    }
  });

  it('loads an unpacked extension over CDP only from what the session itself holds', async () => {
    const session = await createBrowser();
    const cdp = await connectCdp(session.cdp_ws_url);
    try {
      // The extensions the server keeps, and the data directory: not in the browser's sandbox.
      const outside = await cdp
        .send('Extensions.loadUnpacked', { path: join(test.dataDir, 'extensions') })
        .then(
          () => 'loaded',
          (error: Error) => error.message,
        );
      expect(outside).toMatch(/cannot be resolved/);
      // Control: one the session wrote in its own home loads: the CDP client already drives the
      // browser, and the extension runs in its sandbox, behind its egress policy.
      await exec(
        session.session_id,
        `mkdir -p ext && printf '%s' '{"manifest_version":3,"name":"own","version":"1"}' > ext/manifest.json`,
      );
      const own = await cdp.send('Extensions.loadUnpacked', { path: '/home/browser/ext' }).then(
        (result) => (result as { id?: string }).id,
        (error: Error) => error.message,
      );
      expect(own).toMatch(/^[a-p]{32}$/);
    } finally {
      cdp.close();
      await call('DELETE', `/browsers/${session.session_id}`);
    }
  });

  it('shows file:// nothing of the data dir, another instance or /etc/shadow', async () => {
    const [mine, other] = [await createBrowser(), await createBrowser()];
    const browser = await chromium.connectOverCDP(mine.cdp_ws_url);
    try {
      const page = browser.contexts()[0]?.pages()[0];
      if (!page) throw new Error('no page');
      // The same way in does reach the session's own files: the refusals below are real.
      await exec(mine.session_id, 'echo mine > /home/browser/note.txt');
      await page.goto('file:///home/browser/note.txt');
      expect(await page.textContent('body')).toContain('mine');
      const forbidden = [
        `file://${test.dataDir}/`,
        `file://${test.dataDir}/token`,
        `file://${test.dataDir}/store.sqlite-wal`,
        `file://${test.dataDir}/instances/${other.session_id}/`,
        'file:///etc/shadow',
      ];
      for (const url of forbidden) {
        await expect(page.goto(url), url).rejects.toThrow(/ERR_FILE_NOT_FOUND|ERR_ACCESS_DENIED/);
      }
    } finally {
      await browser.close();
      await call('DELETE', `/browsers/${mine.session_id}`);
      await call('DELETE', `/browsers/${other.session_id}`);
    }
  });

  it('lets a file input read nothing of the store, which holds the jwt secret', async () => {
    const session = await createBrowser();
    const cdp = await connectCdp(session.cdp_ws_url);
    try {
      const page = await attachToPage(cdp);
      await exec(session.session_id, 'echo readable > /home/browser/own.txt');
      const read = async (path: string) => {
        await evaluate(
          cdp,
          page,
          `(() => { document.body.innerHTML = '<input type=file id=f>'; return true; })()`,
        );
        const { root } = await cdp.send<{ root: { nodeId: number } }>('DOM.getDocument', {}, page);
        const { nodeId } = await cdp.send<{ nodeId: number }>(
          'DOM.querySelector',
          { nodeId: root.nodeId, selector: '#f' },
          page,
        );
        await cdp.send('DOM.setFileInputFiles', { files: [path], nodeId }, page);
        return evaluate<string>(
          cdp,
          page,
          `new Promise((resolve) => {
            const file = document.getElementById('f').files[0];
            if (!file) return resolve('no file');
            const reader = new FileReader();
            reader.onload = () => resolve('read: ' + reader.result);
            reader.onerror = () => resolve('error: ' + reader.error.name);
            reader.readAsText(file);
          })`,
        );
      };
      expect(await read('/home/browser/own.txt')).toBe('read: readable\n');
      for (const path of [
        join(test.dataDir, 'store.sqlite-wal'),
        join(test.dataDir, 'store.sqlite'),
        join(test.dataDir, 'token'),
      ]) {
        expect(await read(path), path).not.toMatch(/^read: /);
      }
    } finally {
      cdp.close();
      await call('DELETE', `/browsers/${session.session_id}`);
    }
  });

  it('writes nothing outside the instance for a download sent to a host path', async () => {
    const target = hostTarget();
    await onBrowser(async (_session, cdp, page) => {
      for (const path of [target, test.dataDir]) {
        await allowDownloads(cdp, path);
        await download(cdp, page, 'escaped.txt');
        await downloadEnd(cdp);
      }
      expect(readdirSync(target)).toEqual([]);
      expect(readdirSync(test.dataDir)).not.toContain('escaped.txt');
    });
  });

  it('writes nothing outside the instance through a symlinked ~/Downloads', async () => {
    const target = hostTarget();
    await onBrowser(async (session, cdp, page) => {
      // Without the link, a download completes and lands in the instance: the way works.
      await allowDownloads(cdp, '/home/browser/Downloads');
      await download(cdp, page, 'before.txt');
      expect(await downloadEnd(cdp)).toBe('completed');
      const { home } = test.server.instance(session.session_id);
      expect(readdirSync(join(home, 'Downloads'))).toContain('before.txt');
      const planted = await exec(
        session.session_id,
        `rm -rf /home/browser/Downloads && ln -s ${target} /home/browser/Downloads && readlink /home/browser/Downloads`,
      );
      expect(planted.stdout.trim()).toBe(target);
      await allowDownloads(cdp, '/home/browser/Downloads');
      await download(cdp, page, 'through-link.txt');
      // In the browser's sandbox the link leads to nothing of the host: the download ends
      // there, and the host folder stays empty.
      expect(await downloadEnd(cdp)).not.toBe('never ended');
      expect(readdirSync(target)).toEqual([]);
    });
  });

  it('has no socket of its browser reachable from outside: DevTools is a pipe, the proxy the only way in', async () => {
    // On a page that has loaded, the browser has started all it starts.
    await onBrowser(async (session) => {
      const listening = listeningInodes();
      const processes = sessionProcesses(session.session_id);
      expect(processes.length).toBeGreaterThan(0);
      const open = processes.flatMap((process) =>
        [...socketInodes(process.pid)].flatMap((inode) => {
          const found = listening.get(inode);
          return found ? [found] : [];
        }),
      );
      // No TCP or UDP port, no abstract UNIX socket (their namespace is the host's network's).
      expect(open.filter((socket) => !socket.startsWith('unix /'))).toEqual([]);
      // Chromium's process-singleton socket is the one it keeps: in the sandbox's own /tmp, a
      // tmpfs no one outside it sees.
      for (const socket of open) {
        const path = socket.slice('unix '.length);
        expect(path.startsWith('/tmp/'), path).toBe(true);
        expect(existsSync(path), `${path} on the host`).toBe(false);
      }
    });
  });

  it('accepts only jwts the server signed, each for its own session', async () => {
    const [mine, other] = [await createBrowser(), await createBrowser()];
    try {
      const endpoint = (id: string, jwt: string) =>
        `${test.server.url.replace('http', 'ws')}/browsers/${id}/cdp?jwt=${jwt}`;
      const expires = Math.floor(Date.now() / 1000) + 3600;
      const forged = signSessionJwt('a-secret-guessed-by-an-attacker', mine.session_id, expires);
      await expect(connectCdp(endpoint(mine.session_id, forged))).rejects.toThrow();
      const myJwt = new URL(mine.cdp_ws_url).searchParams.get('jwt') ?? '';
      await expect(connectCdp(endpoint(other.session_id, myJwt))).rejects.toThrow();
      // The secret is in the store, which neither a process nor the browser can reach.
      const store = new DatabaseSync(join(test.dataDir, 'store.sqlite'), { readOnly: true });
      const secret = (
        store.prepare("SELECT value FROM settings WHERE key = 'jwt_secret'").get() as {
          value: string;
        }
      ).value;
      store.close();
      const search = await exec(
        mine.session_id,
        `ls ${test.dataDir} 2>&1; grep -rl ${secret} /home /tmp /etc /usr/local 2>/dev/null; echo done`,
      );
      expect(search.stdout).toContain('No such file or directory');
      expect(search.stdout).not.toContain(secret);
      expect(search.stdout.trim().split('\n').at(-1)).toBe('done');
    } finally {
      await call('DELETE', `/browsers/${mine.session_id}`);
      await call('DELETE', `/browsers/${other.session_id}`);
    }
  });

  it('gives a read-only token no URL that drives a browser', async () => {
    const session = await createBrowser();
    try {
      const { json: read } = await call<BrowserSession>(
        'GET',
        `/browsers/${session.session_id}`,
        undefined,
        READ_ONLY_TOKEN,
      );
      expect(new URL(read.cdp_ws_url).searchParams.has('jwt')).toBe(false);
      await expect(connectCdp(read.cdp_ws_url)).rejects.toThrow();
      // The WebDriver BiDi URL too: named, without its key, and refused as it is.
      const webdriver = new URL(read.webdriver_ws_url ?? '');
      expect(webdriver.pathname).toBe(`/browsers/${session.session_id}/webdriver/session`);
      expect(webdriver.searchParams.has('jwt')).toBe(false);
      const refused = await new Promise<number>((resolve) => {
        const socket = new WebSocket(webdriver.href);
        socket.once('unexpected-response', (_request, response) =>
          resolve(response.statusCode ?? 0),
        );
        socket.once('open', () => resolve(101));
        socket.once('error', () => undefined);
      });
      expect(refused).toBe(401);
      const { json: listed } = await call<BrowserSession[]>(
        'GET',
        '/browsers',
        undefined,
        READ_ONLY_TOKEN,
      );
      expect(listed.every((browser) => !new URL(browser.cdp_ws_url).searchParams.has('jwt'))).toBe(
        true,
      );
      expect(
        (
          await call(
            'POST',
            `/browsers/${session.session_id}/computer/type`,
            { text: 'x' },
            READ_ONLY_TOKEN,
          )
        ).status,
      ).toBe(403);
    } finally {
      await call('DELETE', `/browsers/${session.session_id}`);
    }
  });

  it('keeps what sessions hold from a read-only token: files, profiles, output, screen', async () => {
    const session = await createBrowser();
    const id = session.session_id;
    const profile = (await call<{ id: string }>('POST', '/profiles', { name: `ro-${id}` })).json;
    try {
      const spawned = await call<{ process_id: string }>('POST', `/browsers/${id}/process/spawn`, {
        command: 'echo',
        args: ['secret-output'],
      });
      const watch = await call<{ watch_id: string }>('POST', `/browsers/${id}/fs/watch`, {
        path: '/home/browser',
      });
      const profileFolder = encodeURIComponent('/home/browser/.config/chromium');
      const looks: [string, string][] = [
        ['GET', `/browsers/${id}/fs/download_dir_zip?path=${profileFolder}`],
        ['GET', `/browsers/${id}/fs/read_file?path=${profileFolder}%2FLocal%20State`],
        ['GET', `/browsers/${id}/fs/list_files?path=${profileFolder}`],
        ['GET', `/browsers/${id}/process/${spawned.json.process_id}/stdout/stream`],
        ['GET', `/browsers/${id}/fs/watch/${watch.json.watch_id}/events`],
        ['POST', `/browsers/${id}/computer/screenshot`],
        ['POST', `/browsers/${id}/computer/clipboard/read`],
        ['GET', `/profiles/${profile.id}/download`],
      ];
      for (const [method, path] of looks) {
        const response = await fetch(`${test.server.url}${path}`, {
          method,
          headers: { authorization: `Bearer ${READ_ONLY_TOKEN}` },
        });
        expect([path, response.status]).toEqual([path, 403]);
        expect(((await response.json()) as { code: string }).code).toBe('forbidden');
      }
      // Control: the full token reads the live profile folder; the read-only one reads records.
      const full = await fetch(`${test.server.url}${looks[0]?.[1]}`, {
        headers: { authorization: `Bearer ${TEST_TOKEN}` },
      });
      expect(full.status).toBe(200);
      expect((await full.arrayBuffer()).byteLength).toBeGreaterThan(0);
      expect((await call('GET', `/browsers/${id}`, undefined, READ_ONLY_TOKEN)).status).toBe(200);
      expect(
        (await call('GET', `/profiles/${profile.id}`, undefined, READ_ONLY_TOKEN)).status,
      ).toBe(200);
    } finally {
      await call('DELETE', `/browsers/${id}`);
      await call('DELETE', `/profiles/${profile.id}`);
    }
  });

  it('works with Puppeteer connect and two clients at once, each seeing its own sessions', async () => {
    const session = await createBrowser();
    const puppet = await puppeteer.connect({ browserWSEndpoint: session.cdp_ws_url });
    const playwright = await chromium.connectOverCDP(session.cdp_ws_url);
    try {
      const [page] = await puppet.pages();
      if (!page) throw new Error('no page');
      await page.goto(site.url);
      expect(await page.evaluate(() => document.body.textContent)).toContain('shop');
      const other = await playwright.contexts()[0]?.newPage();
      await other?.goto(otherSite.url);
      expect(await other?.textContent('body')).toContain('shop');
      // A session another client attached is refused to this one.
      const raw = await connectCdp(session.cdp_ws_url);
      const mine = await attachToPage(raw);
      const intruder = await connectCdp(session.cdp_ws_url);
      await expect(intruder.send('Runtime.evaluate', { expression: '1' }, mine)).rejects.toThrow(
        /Session with given id not found/,
      );
      raw.close();
      intruder.close();
    } finally {
      await playwright.close();
      await puppet.disconnect();
      await call('DELETE', `/browsers/${session.session_id}`);
    }
  });

  it('seals a headed display: no TCP, and no way in without its cookie', async () => {
    const session = await createBrowser({ headless: false, viewport: { width: 640, height: 480 } });
    try {
      const display = sessionProcesses(session.session_id).find((p) => p.name === 'Xvfb');
      if (!display) throw new Error('no Xvfb for the headed browser');
      // Its sockets are in its session's network namespace.
      const listening = listeningInodes(`/proc/${display.pid}/net`);
      const sockets = [...socketInodes(display.pid)].flatMap((inode) => {
        const found = listening.get(inode);
        return found ? [found] : [];
      });
      expect(
        sockets.filter((socket) => socket.startsWith('tcp') || socket.startsWith('udp')),
      ).toEqual([]);
      const abstract = sockets.find((socket) => socket.startsWith('unix @/tmp/.X11-unix/X'));
      if (!abstract) throw new Error(`no X socket among ${sockets.join(', ')}`);
      const address = `\0${abstract.slice('unix @'.length)}`;
      const cookie = readFileSync(
        join(test.server.instance(session.session_id).home, '.Xauthority'),
      ).subarray(-16);
      // From the host's network namespace the display's abstract socket is not even there.
      await expect(x11Handshake(address, cookie)).rejects.toThrow();
      // Inside the session's, a client needs the cookie.
      const namespace = test.server.instance(session.session_id).network?.join.nsenter ?? [];
      expect(await x11HandshakeIn(namespace, address, undefined)).toBe('refused');
      expect(await x11HandshakeIn(namespace, address, Buffer.alloc(16, 7))).toBe('refused');
      expect(await x11HandshakeIn(namespace, address, cookie)).toBe('accepted');
    } finally {
      await call('DELETE', `/browsers/${session.session_id}`);
    }
  });
});
