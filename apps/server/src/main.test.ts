import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dataDirGroupName } from './sandbox/cgroups.js';
import { mountsUnder } from './sandbox/instance-disks.js';
import { cliCreateCommand } from './system/cli-hint.js';
import { MAIN, startBinary } from './test-support/binary.js';
import { processesNaming, processesOfServer } from './test-support/processes.js';

async function stop(child: ChildProcess): Promise<number> {
  child.kill('SIGTERM');
  const [code] = await once(child, 'exit');
  return code as number;
}

/** The cgroups a server on `dataDir` made (its data directory's group, in any hierarchy). */
function cgroupsOf(dataDir: string): string[] {
  const name = dataDirGroupName(dataDir);
  const root = '/sys/fs/cgroup';
  return [root, ...readdirSync(root).map((entry) => join(root, entry))]
    .map((folder) => join(folder, name))
    .filter((group) => existsSync(group));
}

/** Every file and folder under `folder` whose mode lets anyone but its owner in, with it. */
function openToOthers(folder: string, skip: (path: string) => boolean): string[] {
  const found: string[] = [];
  for (const name of readdirSync(folder)) {
    const path = join(folder, name);
    if (skip(path)) continue;
    const stat = lstatSync(path);
    if (stat.isSymbolicLink() || stat.isSocket()) continue;
    if ((stat.mode & 0o077) !== 0) found.push(`${path} ${(stat.mode & 0o777).toString(8)}`);
    if (stat.isDirectory()) found.push(...openToOthers(path, skip));
  }
  return found;
}

describe('xb-server', () => {
  it('writes its log for a person with XB_LOG_FORMAT=pretty (on a terminal by default)', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'xb-main-'));
    const { child, output } = await startBinary(dataDir, { XB_LOG_FORMAT: 'pretty' });
    await expect.poll(() => output.stdout, { timeout: 10_000 }).toMatch(/listening/);
    const line = output.stdout.split('\n').find((one) => one.includes('listening')) ?? '';
    expect(line).toMatch(/^\d\d:\d\d:\d\d INFO {2}listening url=http:\/\/127\.0\.0\.1:\d+ /);
    expect(line).toContain(' maxBrowsers=');
    child.kill('SIGTERM');
    await once(child, 'exit');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('generates and prints a token on a first start, and leaves no Chromium behind on SIGTERM', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'xb-main-'));
    const { url, child, output } = await startBinary(dataDir);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const token = readFileSync(join(dataDir, 'token'), 'utf8').trim();
    expect(statSync(join(dataDir, 'token')).mode & 0o777).toBe(0o600);
    // Said once to people on stderr; the log (stdout) is JSON lines and never holds it.
    expect(output.stderr).toContain(
      `generated an API token (saved in ${dataDir}/token):\n\n  ${token}\n`,
    );
    expect(output.stdout).not.toContain(token);
    // With how to use it from a shell on the machine: xb as this server finds it.
    const create = cliCreateCommand({
      path: process.env.PATH,
      serverDist: dirname(MAIN),
      execPath: process.execPath,
    });
    expect(create[0]).toMatch(/(^xb|xb\.js) browsers create$/);
    expect(output.stderr).toContain(
      `export XB_BASE_URL=${url} XB_TOKEN=$(cat ${dataDir}/token)\n${create.map((line) => `  ${line}\n`).join('')}\n`,
    );
    // Without XB_PUBLIC_URL the URLs handed out name the bind address, and the start says so.
    expect(output.stderr).toContain(
      `xb-server hands out URLs of ${url}: set XB_PUBLIC_URL (--public-url) to the address clients reach it at.\n`,
    );
    for (const line of output.stdout.split('\n').filter(Boolean)) {
      expect(() => JSON.parse(line), line).not.toThrow();
    }

    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    for (let index = 0; index < 2; index++) {
      expect((await fetch(`${url}/browsers`, { method: 'POST', headers, body: '{}' })).status).toBe(
        201,
      );
    }
    expect(processesOfServer(dataDir).length).toBeGreaterThanOrEqual(2);

    expect(await stop(child)).toBe(0);
    expect(processesOfServer(dataDir)).toEqual([]);
    // Said once, on stderr; no log line carries it.
    expect(output.stderr.split(token).length - 1).toBe(1);
    expect(output.stdout).not.toContain(token);
  });

  it("seals its data directory: 0700 folders and 0600 files, whatever made them, but the sessions' resolv.conf", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'xb-main-sealed-'));
    // Made open by someone else, as a careless install would.
    chmodSync(dataDir, 0o755);
    const { url, child } = await startBinary(dataDir);
    const token = readFileSync(join(dataDir, 'token'), 'utf8').trim();
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const browser = (await (
      await fetch(`${url}/browsers`, { method: 'POST', headers, body: '{}' })
    ).json()) as { session_id: string };
    const replay = (await (
      await fetch(`${url}/browsers/${browser.session_id}/replays`, {
        method: 'POST',
        headers,
        body: '{}',
      })
    ).json()) as { replay_id: string };
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const stopped = await fetch(
      `${url}/browsers/${browser.session_id}/replays/${replay.replay_id}/stop`,
      { method: 'POST', headers: { authorization: headers.authorization } },
    );
    expect(stopped.status).toBe(200);
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);
    expect(readdirSync(join(dataDir, 'replays', browser.session_id))).toHaveLength(1);
    // Everything the server, ffmpeg and the browser (its instance) made is its owner's alone, but
    // the sessions' resolv.conf files, which each session's user reads in its sandbox (in a 0700
    // folder: nobody else on the host reaches them).
    const open = openToOthers(dataDir, () => false);
    expect(open.filter((entry) => !/\/network\/resolv-\d+\.conf 644$/.test(entry))).toEqual([]);
    expect(open.length).toBeGreaterThan(0);
    expect(await stop(child)).toBe(0);
  });

  it('refuses a second server on the same data directory without touching the first one', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'xb-main-lock-'));
    const first = await startBinary(dataDir);
    const token = readFileSync(join(dataDir, 'token'), 'utf8').trim();
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const browser = (await (
      await fetch(`${first.url}/browsers`, { method: 'POST', headers, body: '{}' })
    ).json()) as { session_id: string };
    const before = processesOfServer(dataDir).length;

    const second = spawn(process.execPath, [MAIN], {
      env: {
        ...process.env,
        XB_DATA_DIR: dataDir,
        XB_PORT: '0',
        XB_ALLOW_NETWORKS: '127.0.0.1/32',
        XB_TOKENS: '',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    second.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    const [code] = await once(second, 'exit');
    expect(code).toBe(1);
    expect(stderr).toContain(`is in use by server pid ${first.child.pid} at ${first.url}`);
    // The first server's browser runs on, untouched.
    expect(processesOfServer(dataDir).length).toBe(before);
    const live = await fetch(`${first.url}/browsers/${browser.session_id}`, { headers });
    expect(await live.json()).not.toHaveProperty('deleted_at');

    // A server that died without a word leaves no stale lock: the next one starts.
    first.child.kill('SIGKILL');
    await once(first.child, 'exit');
    const next = await startBinary(dataDir);
    expect(await stop(next.child)).toBe(0);
  });

  it('after a crash, reaps what the dead run left and finishes its replays from their video', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'xb-main-crash-'));
    // With a spare browser, started ahead behind the create: it is reaped as well.
    const first = await startBinary(dataDir, { XB_SPARE_BROWSERS: '1' });
    const token = readFileSync(join(dataDir, 'token'), 'utf8').trim();
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const post = async (url: string, path: string, body: unknown) =>
      (
        await fetch(`${url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) })
      ).json();
    const browser = (await post(first.url, '/browsers', {
      headless: false,
      viewport: { width: 640, height: 360 },
    })) as { session_id: string };
    const replay = (await post(first.url, `/browsers/${browser.session_id}/replays`, {})) as {
      replay_id: string;
      started_at: string;
    };
    await new Promise((resolve) => setTimeout(resolve, 4_000));
    const before = processesOfServer(dataDir);
    expect(before.some((process) => process.name === 'Xvfb')).toBe(true);
    const mounted = () => mountsUnder(dataDir);
    // Its home's own disk, and the spare's.
    if (process.getuid?.() === 0) expect(mounted()).toHaveLength(2);

    first.child.kill('SIGKILL');
    await once(first.child, 'exit');
    const next = await startBinary(dataDir);
    // Nothing of the dead run is left: its browser, its display, its sandbox, its encoder.
    const leftovers = [
      ...processesOfServer(dataDir),
      ...processesNaming(`${replay.replay_id}.mp4`),
    ].filter(
      (process) => before.some((old) => old.pid === process.pid) || process.name === 'ffmpeg',
    );
    expect(leftovers).toEqual([]);
    expect(mounted()).toEqual([]);
    const listed = (await (
      await fetch(`${next.url}/browsers/${browser.session_id}/replays`, { headers })
    ).json()) as { finished_at: string }[];
    const length =
      (Date.parse(listed[0]?.finished_at ?? '') - Date.parse(replay.started_at)) / 1000;
    expect(length).toBeGreaterThan(2);
    const video = await fetch(
      `${next.url}/browsers/${browser.session_id}/replays/${replay.replay_id}`,
      { headers },
    );
    expect(video.status).toBe(200);
    expect((await video.arrayBuffer()).byteLength).toBeGreaterThan(1024);
    expect(await stop(next.child)).toBe(0);
  });

  it('kills what is left and exits when a stop passes its deadline', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'xb-main-deadline-'));
    const server = await startBinary(dataDir, { XB_SHUTDOWN_SECONDS: '2' });
    const token = readFileSync(join(dataDir, 'token'), 'utf8').trim();
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const post = async (path: string) =>
      (await fetch(`${server.url}${path}`, { method: 'POST', headers, body: '{}' })).json();
    const browser = (await post('/browsers')) as { session_id: string };
    const replay = (await post(`/browsers/${browser.session_id}/replays`)) as {
      replay_id: string;
    };
    // An encoder that hangs: finishing its video would hold the stop for 15 s.
    const [encoder] = processesNaming(`${replay.replay_id}.mp4`);
    expect(encoder).toBeDefined();
    process.kill(encoder?.pid as number, 'SIGSTOP');
    // A call in flight that would never end on its own: an event stream.
    const watch = await fetch(`${server.url}/browsers/${browser.session_id}/fs/watch`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ path: '/home/browser' }),
    });
    const { watch_id } = (await watch.json()) as { watch_id: string };
    const stream = await fetch(
      `${server.url}/browsers/${browser.session_id}/fs/watch/${watch_id}/events`,
      { headers },
    );
    expect(stream.status).toBe(200);

    const began = Date.now();
    server.child.kill('SIGTERM');
    const [code] = await once(server.child, 'exit');
    const took = Date.now() - began;
    expect(code).toBe(1);
    expect(took).toBeGreaterThanOrEqual(2_000);
    expect(took).toBeLessThan(8_000);
    expect(server.output.stdout).toContain('shutdown took too long');
    // Nothing it started is left: no browser, no sandbox, no encoder, no mounted disk.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(processesOfServer(dataDir)).toEqual([]);
    expect(processesNaming(`${replay.replay_id}.mp4`)).toEqual([]);
    expect(mountsUnder(dataDir)).toEqual([]);
    // The next start takes it from there as after a crash, and leaves nothing when it stops.
    const next = await startBinary(dataDir);
    expect(await stop(next.child)).toBe(0);
    expect(cgroupsOf(dataDir)).toEqual([]);
  });
});
