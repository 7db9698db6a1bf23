import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ScreenFrame } from '@x/service-kernel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canNestNamespaces } from '../sandbox/probe.js';
import { newUserBlockBase, SandboxUsers } from '../sandbox/sandbox-users.js';
import { findExecutable } from '../system/executables.js';
import { ChromiumBrowser } from './chromium-browser.js';
import { createInstanceDirectory } from './instance-directory.js';

const CHROME_PATH = process.env.CHROME_PATH || '/usr/bin/chromium';

/** A page with a focused textarea that counts its key events. */
const PAGE = `<textarea id="box" autofocus></textarea><script>
  window.keys = { down: 0, up: 0 };
  const box = document.getElementById('box');
  box.addEventListener('keydown', () => window.keys.down++);
  box.addEventListener('keyup', () => window.keys.up++);
  box.focus();
</script>`;

let browser: ChromiumBrowser;

const users = new SandboxUsers(newUserBlockBase());
const user = SandboxUsers.canSwitchUser ? users.take() : undefined;

beforeAll(async () => {
  const folder = mkdtempSync(join(tmpdir(), 'xb-chromium-'));
  const bubblewrap = findExecutable('bwrap');
  if (!bubblewrap) throw new Error('These tests need bubblewrap (apt-get install bubblewrap).');
  browser = await ChromiumBrowser.launch({
    chromePath: CHROME_PATH,
    instance: createInstanceDirectory(folder, 'one', user),
    isHeadless: true,
    viewport: { width: 800, height: 600 },
    sandbox: { bubblewrap, user, isChromiumSandboxed: canNestNamespaces(bubblewrap, user) },
  });
});
afterAll(async () => {
  await browser?.close();
  if (user) await users.killAll(user.uid);
});

/** Sends one DevTools command to the browser over a channel of its own and resolves its result. */
async function ask<T>(method: string, params: object = {}): Promise<T> {
  const answers: string[] = [];
  const channel = await browser.openChannel({
    deliver: (m) => answers.push(String(m)),
    end() {},
  });
  try {
    channel.send(JSON.stringify({ id: 1, method, params }));
    await expect.poll(() => answers.length, { timeout: 10_000 }).toBeGreaterThan(0);
    const answer = JSON.parse(answers[0] as string) as { result?: T; error?: unknown };
    if (!answer.result) throw new Error(`${method}: ${JSON.stringify(answer.error)}`);
    return answer.result;
  } finally {
    channel.close();
  }
}

describe('ChromiumBrowser', () => {
  it('types any Unicode as key events, Enter for a newline', async () => {
    await browser.evaluate(
      `document.open(); document.write(${JSON.stringify(PAGE)}); document.close(); true`,
    );
    const text = 'Héllo wörld 世界 👋\nsecond line';
    await browser.type(text);
    expect(await browser.evaluate<string>('document.getElementById("box").value')).toBe(text);
    const keys = await browser.evaluate<{ down: number; up: number }>('window.keys');
    expect(keys).toEqual({ down: [...text].length, up: [...text].length });
  });

  it('takes a PNG of the viewport and of a region', async () => {
    const png = await browser.screenshot(undefined);
    const size = (bytes: Uint8Array) => {
      const view = new DataView(bytes.buffer, bytes.byteOffset);
      return [view.getUint32(16), view.getUint32(20)];
    };
    expect(size(png)).toEqual([800, 600]);
    expect(size(await browser.screenshot({ x: 5, y: 5, width: 100, height: 40 }))).toEqual([
      100, 40,
    ]);
  });

  it('starts no web pages of its own for the address bar (they cost half its start)', async () => {
    const { targetInfos } = await ask<{ targetInfos: { type: string; url: string }[] }>(
      'Target.getTargets',
      { filter: [{}] },
    );
    expect(targetInfos.some((target) => target.type === 'page')).toBe(true);
    expect(targetInfos.filter((target) => target.url.includes('top-chrome'))).toEqual([]);
  });

  it('runs its network service in the browser process: no process of its own to start', async () => {
    const { processInfo } = await ask<{ processInfo: { type: string }[] }>(
      'SystemInfo.getProcessInfo',
    );
    const types = processInfo.map((info) => info.type);
    expect(types).toContain('renderer');
    expect(types.filter((type) => type.includes('NetworkService'))).toEqual([]);
  });

  it("ends the screen on the page's last picture when it changes faster than frames are taken", async () => {
    // A page that changes every frame for a while, then stays still.
    await browser.evaluate(
      `document.open(); document.write('<body style="margin:0"></body>'); document.close(); true`,
    );
    const frames: ScreenFrame[] = [];
    let isTaking = true;
    const stream = await browser.streamScreen({ maxWidth: 400, maxHeight: 300 }, (frame) => {
      frames.push(frame);
      // A slow consumer: it asks for the next picture 300 ms after each.
      setTimeout(() => {
        if (isTaking) stream.next();
      }, 300);
    });
    try {
      const lastChangeAt = await browser.evaluate<number>(`new Promise((resolve) => {
        let step = 0;
        const change = () => {
          document.body.style.background = 'hsl(' + step * 37 + ', 80%, 50%)';
          step += 1;
          if (step < 30) requestAnimationFrame(change);
          else resolve(Date.now());
        };
        requestAnimationFrame(change);
      })`);
      // The last change is drawn after the script made it: some frame shows it.
      await expect
        .poll(() => frames.some((frame) => (frame.drawnAt ?? 0) >= lastChangeAt), {
          timeout: 5000,
        })
        .toBe(true);
    } finally {
      isTaking = false;
      await stream.stop();
    }
  });

  it('asks where the tab is before every key, so a page that moves mid-value gets no more', async () => {
    // A sign-in page that changes its address at the third key it hears (the same document, so
    // it can count every key that reaches it).
    const site = createServer((_, response) => {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(`<input id="box" autofocus><script>
        window.heard = 0;
        document.addEventListener('keydown', () => {
          window.heard++;
          if (window.heard === 3) history.pushState({}, '', '/elsewhere');
        });
        document.getElementById('box').focus();
      </script>`);
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    try {
      const origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
      await browser.navigate({ url: `${origin}/login` });
      await expect
        .poll(() => browser.evaluate<string>('location.pathname + " " + document.readyState'), {
          timeout: 10_000,
        })
        .toBe('/login complete');
      const asked: string[] = [];
      const isTyped = await browser.typeWhere('a-password-of-20-key', (url) => {
        asked.push(url);
        return url === `${origin}/login`;
      });
      expect(isTyped).toBe(false);
      const heard = await browser.evaluate<number>('window.heard');
      // The key that moved the page is the third; at most one more races the move.
      expect(heard).toBeGreaterThanOrEqual(3);
      expect(heard).toBeLessThanOrEqual(4);
      // Once before each key typed, and once more for the one refused.
      expect(asked).toHaveLength(heard + 1);
      expect(asked.at(-1)).toBe(`${origin}/elsewhere`);
    } finally {
      site.closeAllConnections();
      await new Promise((resolve) => site.close(resolve));
    }
  });
});
