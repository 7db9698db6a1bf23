import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonCaller, TEST_TOKEN, useTestServer } from '../test-support/servers.js';
import { launchViewer } from '../test-support/viewer.js';

const test = useTestServer();
const call = jsonCaller(() => test.server.url);
let viewer: Browser;

interface Session {
  session_id: string;
  browser_live_view_url: string;
  cdp_ws_url: string;
  viewers?: number;
}

/** The session's own page, driven over CDP: what it shows and what reached it. */
const SESSION_PAGE = `<!doctype html><body style="margin:0;background:rgb(200,0,0)">
<textarea id="box" style="position:absolute;left:100px;top:100px;width:300px;height:100px"></textarea>
<script>
  window.clicks = []; window.keys = []; window.wheels = [];
  addEventListener('mousedown', (e) => clicks.push({ x: e.clientX, y: e.clientY, detail: e.detail }));
  addEventListener('wheel', (e) => wheels.push({ x: e.clientX, y: e.clientY, dy: e.deltaY }));
  addEventListener('keydown', (e) => keys.push(e.key));
</script></body>`;

async function newSession(): Promise<{ session: Session; page: Page; close(): Promise<void> }> {
  const { json: session } = await call<Session>('POST', '/browsers', {
    viewport: { width: 1280, height: 720 },
  });
  const driver = await chromium.connectOverCDP(session.cdp_ws_url);
  const page = driver.contexts()[0]?.pages()[0];
  if (!page) throw new Error('no page');
  await page.setContent(SESSION_PAGE);
  return {
    session,
    page,
    close: async () => {
      await driver.close();
      await call('DELETE', `/browsers/${session.session_id}`);
    },
  };
}

/** Changes the background of the session's page. */
const paint = (page: Page, colour: string) =>
  page.evaluate((background) => {
    document.body.style.background = background;
  }, colour);

/** Opens a live view link in the viewer's Chromium, in a window of 800 × 600. */
async function openView(url: string): Promise<Page> {
  const page = await viewer.newPage({ viewport: { width: 800, height: 600 } });
  await page.goto(url);
  await page.waitForFunction(() => Number(document.getElementById('screen')?.dataset.frames) > 0);
  return page;
}

/** The colour the view's canvas shows at a point of the window. */
function pixelAt(page: Page, x: number, y: number): Promise<number[]> {
  return page.evaluate(
    ([px, py]) => {
      const canvas = document.getElementById('screen') as HTMLCanvasElement;
      const ratio = window.devicePixelRatio || 1;
      const data = canvas.getContext('2d')?.getImageData(px * ratio, py * ratio, 1, 1).data;
      return [...(data ?? [])].slice(0, 3);
    },
    [x, y] as const,
  );
}

/** Waits until the view shows about `rgb` at the middle of the window. */
async function waitForColour(page: Page, rgb: readonly number[]): Promise<void> {
  const deadline = Date.now() + 10_000;
  let seen: number[] = [];
  while (Date.now() < deadline) {
    seen = await pixelAt(page, 400, 300);
    if (seen.every((value, index) => Math.abs(value - (rgb[index] as number)) < 24)) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`the view shows ${seen}, not ${rgb}`);
}

/**
 * Where a point of the session's 1280 × 720 viewport is in the view's window: the picture fills
 * the stage under the bar keeping its aspect ratio (800 wide: 800 × 450), centred in it.
 */
async function onView(view: Page, x: number, y: number): Promise<{ x: number; y: number }> {
  const stage = await view.evaluate(() => {
    const box = (document.getElementById('stage') as HTMLElement).getBoundingClientRect();
    return { top: box.top, height: box.height };
  });
  return { x: (x * 800) / 1280, y: stage.top + (stage.height - 450) / 2 + (y * 450) / 720 };
}

beforeAll(async () => {
  viewer = await launchViewer();
});
afterAll(async () => {
  await viewer?.close();
});

describe('the live view, in a real browser', () => {
  it('shows the session live, and clicks and types into it at the right place', async () => {
    const { session, page, close } = await newSession();
    try {
      expect(session.browser_live_view_url).toMatch(
        new RegExp(`^${test.server.publicUrl}/browsers/${session.session_id}/live\\?jwt=`),
      );
      const view = await openView(session.browser_live_view_url);
      await waitForColour(view, [200, 0, 0]);
      await paint(page, 'rgb(0, 0, 200)');
      await waitForColour(view, [0, 0, 200]);

      // A click on the view lands at the same point of the session's page.
      const target = await onView(view, 640, 360);
      await view.mouse.click(target.x, target.y);
      await page.waitForFunction(
        () => (window as unknown as { clicks: unknown[] }).clicks.length > 0,
      );
      const [click] = await page.evaluate(
        () => (window as unknown as { clicks: { x: number; y: number }[] }).clicks,
      );
      expect(Math.abs((click?.x ?? 0) - 640)).toBeLessThanOrEqual(2);
      expect(Math.abs((click?.y ?? 0) - 360)).toBeLessThanOrEqual(2);
      await view.mouse.dblclick(target.x, target.y);
      await page.waitForFunction(() =>
        (window as unknown as { clicks: { detail: number }[] }).clicks.some((c) => c.detail === 2),
      );

      // Into the text field: any Unicode, and keys such as Backspace and Enter.
      const box = await onView(view, 250, 150);
      await view.mouse.click(box.x, box.y);
      await view.keyboard.type('héllo 世界!');
      await view.keyboard.press('Backspace');
      await view.keyboard.press('Enter');
      await expect.poll(() => page.inputValue('#box'), { timeout: 5000 }).toBe('héllo 世界\n');
      const record = await call<Session>('GET', `/browsers/${session.session_id}`);
      expect(record.json.viewers).toBe(1);
      await view.close();
    } finally {
      await close();
    }
  });

  it('a read link shows the screen and sends nothing; two viewers see the same screen', async () => {
    const { session, page, close } = await newSession();
    try {
      const { status, json: link } = await call<{ url: string; mode: string }>(
        'POST',
        `/browsers/${session.session_id}/live_view`,
        { mode: 'read' },
      );
      expect(status).toBe(201);
      expect(link.mode).toBe('read');
      const reader = await openView(link.url);
      const controller = await openView(session.browser_live_view_url);
      await reader.mouse.click(400, 300);
      await reader.keyboard.type('nothing');
      await reader.keyboard.press('Enter');
      await paint(page, 'rgb(0, 160, 0)');
      await waitForColour(reader, [0, 160, 0]);
      await waitForColour(controller, [0, 160, 0]);
      const reached = await page.evaluate(() => ({
        clicks: (window as unknown as { clicks: unknown[] }).clicks.length,
        keys: (window as unknown as { keys: unknown[] }).keys.length,
      }));
      expect(reached).toEqual({ clicks: 0, keys: 0 });
      expect((await call<Session>('GET', `/browsers/${session.session_id}`)).json.viewers).toBe(2);

      // The last viewer gone, the screencast stops: the page animates and no frame is made.
      await reader.close();
      await controller.close();
      const { chromium: browser } = test.server.model.browsers.live(session.session_id).instance;
      await expect.poll(() => browser.screen.consumers, { timeout: 5000 }).toBe(0);
      const frames = browser.screen.frames;
      await page.evaluate(() => {
        let hue = 0;
        setInterval(() => {
          hue = (hue + 30) % 360;
          document.body.style.background = `hsl(${hue} 80% 50%)`;
        }, 50);
      });
      await new Promise((resolve) => setTimeout(resolve, 700));
      expect(browser.screen.frames).toBe(frames);
      expect((await call<Session>('GET', `/browsers/${session.session_id}`)).json.viewers).toBe(0);
    } finally {
      await close();
    }
  });

  it("refuses another session's jwt and an expired link, and says when the session ended", async () => {
    const first = await newSession();
    const second = await newSession();
    try {
      const otherJwt = new URL(second.session.browser_live_view_url).searchParams.get('jwt');
      const crossed = `${test.server.url}/browsers/${first.session.session_id}/live?jwt=${otherJwt}`;
      const page = await viewer.newPage();
      const answer = await page.goto(crossed);
      expect(answer?.status()).toBe(401);
      expect(await page.textContent('h1')).toBe('Link not valid');
      // The DevTools key is no live view link either.
      const cdpJwt = new URL(first.session.cdp_ws_url).searchParams.get('jwt');
      const withCdpKey = await page.goto(
        `${test.server.url}/browsers/${first.session.session_id}/live?jwt=${cdpJwt}`,
      );
      expect(withCdpKey?.status()).toBe(401);

      const { json: short } = await call<{ url: string }>(
        'POST',
        `/browsers/${first.session.session_id}/live_view`,
        { ttl_seconds: 1 },
      );
      await new Promise((resolve) => setTimeout(resolve, 2100));
      const expired = await page.goto(short.url);
      expect(expired?.status()).toBe(401);
      await page.close();

      // An open view hears that the session ended, and a visit after is told so.
      const view = await openView(first.session.browser_live_view_url);
      await call('DELETE', `/browsers/${first.session.session_id}`);
      await view.waitForFunction(() =>
        document.getElementById('status')?.textContent?.includes('ended'),
      );
      const late = await view.goto(first.session.browser_live_view_url);
      expect(late?.status()).toBe(404);
      expect(await view.textContent('h1')).toBe('Session ended');
      await view.close();
    } finally {
      await first.close();
      await second.close();
    }
  });
});

describe('a network blip', () => {
  it('is followed by a reconnect: the page says so, then shows the screen again', async () => {
    const { session, page, close } = await newSession();
    try {
      const view = await viewer.newPage({ viewport: { width: 800, height: 600 } });
      // Every socket of the page goes through here, so the test can cut one as a network would.
      const cuts: (() => void)[] = [];
      await view.routeWebSocket(/\/live\/ws/, (socket) => {
        const server = socket.connectToServer();
        cuts.push(() => {
          void socket.close({ code: 1011, reason: 'blip' });
          void server.close();
        });
      });
      await view.goto(session.browser_live_view_url);
      await waitForColour(view, [200, 0, 0]);
      // Every line the status shows, noted as it changes.
      await view.evaluate(() => {
        const status = document.getElementById('status') as HTMLElement;
        const said: string[] = [];
        (window as unknown as { said: string[] }).said = said;
        new MutationObserver(() =>
          said.push(status.hidden ? '' : (status.textContent ?? '')),
        ).observe(status, {
          attributes: true,
          childList: true,
          characterData: true,
          subtree: true,
        });
      });
      cuts.at(-1)?.();
      await view.waitForFunction(() =>
        (window as unknown as { said: string[] }).said.some((line) =>
          line.includes('Reconnecting'),
        ),
      );
      await paint(page, 'rgb(0, 0, 200)');
      await waitForColour(view, [0, 0, 200]);
      await view.waitForFunction(() => document.getElementById('status')?.hidden === true);
      expect(cuts.length).toBe(2);
      await view.close();
    } finally {
      await close();
    }
  });
});

describe('the tab the session is on', () => {
  it('is followed: a new tab shows and takes input, its closing goes back to the one before', async () => {
    const { session, page, close } = await newSession();
    try {
      const view = await openView(session.browser_live_view_url);
      await waitForColour(view, [200, 0, 0]);
      const tab = await page.context().newPage();
      await tab.setContent(SESSION_PAGE.replace('rgb(200,0,0)', 'rgb(0,120,200)'));
      await waitForColour(view, [0, 120, 200]);
      const target = await onView(view, 640, 360);
      await view.mouse.click(target.x, target.y);
      await tab.waitForFunction(
        () => (window as unknown as { clicks: unknown[] }).clicks.length > 0,
      );
      // A navigation keeps the view live too.
      await tab.goto(`data:text/html,<body style="margin:0;background:rgb(240,200,0)">`);
      await waitForColour(view, [240, 200, 0]);
      await tab.close();
      await waitForColour(view, [200, 0, 0]);
      await view.close();
    } finally {
      await close();
    }
  });
});

describe('recording and watching together', () => {
  it('run one screencast; the finished replay plays on its replay_view_url with seeking and speed', async () => {
    const { session, page, close } = await newSession();
    try {
      const id = session.session_id;
      const { json: replay } = await call<{ replay_id: string }>(
        'POST',
        `/browsers/${id}/replays`,
        {
          framerate: 10,
        },
      );
      const view = await openView(session.browser_live_view_url);
      const { chromium: browser } = test.server.model.browsers.live(id).instance;
      expect(browser.screen.consumers).toBe(2);
      for (const colour of ['rgb(0, 0, 200)', 'rgb(0, 160, 0)', 'rgb(200, 0, 0)']) {
        await paint(page, colour);
        await new Promise((resolve) => setTimeout(resolve, 700));
      }
      await waitForColour(view, [200, 0, 0]);
      await view.close();
      const { json: stopped } = await call<{ replay_view_url?: string; finished_at?: string }>(
        'POST',
        `/browsers/${id}/replays/${replay.replay_id}/stop`,
      );
      expect(stopped.replay_view_url).toMatch(
        new RegExp(`/browsers/${id}/replays/${replay.replay_id}/view\\?jwt=`),
      );
      const player = await viewer.newPage();
      const ranges: number[] = [];
      player.on('response', (response) => {
        if (response.url().includes('/view/video')) ranges.push(response.status());
      });
      expect((await player.goto(stopped.replay_view_url ?? ''))?.status()).toBe(200);
      const duration = await player.waitForFunction(() => {
        const video = document.getElementById('video') as HTMLVideoElement;
        return video.readyState >= 1 && Number.isFinite(video.duration) ? video.duration : 0;
      });
      expect(Number(await duration.jsonValue())).toBeGreaterThan(1.5);
      await player.click('button[data-rate="2"]');
      await player.evaluate(() => {
        (document.getElementById('video') as HTMLVideoElement).currentTime = 1;
      });
      await player.waitForFunction(() => {
        const video = document.getElementById('video') as HTMLVideoElement;
        return video.playbackRate === 2 && !video.seeking && video.currentTime >= 1;
      });
      expect(ranges).toContain(206);
      // The key is for this replay only: not for the live view, not for another replay's page.
      const jwt = new URL(stopped.replay_view_url ?? '').searchParams.get('jwt');
      expect(
        (await player.goto(`${test.server.url}/browsers/${id}/live?jwt=${jwt}`))?.status(),
      ).toBe(401);
      expect(
        (
          await player.goto(`${test.server.url}/browsers/${id}/replays/rp_other/view?jwt=${jwt}`)
        )?.status(),
      ).toBe(401);
      await player.close();
    } finally {
      await close();
    }
  });

  it('record an animated page nobody watches from screenshots, and share the screencast once someone does', async () => {
    const { session, page, close } = await newSession();
    try {
      const id = session.session_id;
      await page.evaluate(() => {
        document.body.innerHTML =
          '<div style="width:300px;height:300px;background:teal;animation:s 1s linear infinite"></div><style>@keyframes s{to{transform:rotate(360deg)}}</style>';
      });
      const { json: replay } = await call<{ replay_id: string }>(
        'POST',
        `/browsers/${id}/replays`,
        {
          framerate: 10,
        },
      );
      const { chromium: browser } = test.server.model.browsers.live(id).instance;
      // Animating without pause, watched by nobody: the recorder leaves the screencast.
      await expect.poll(() => browser.screen.consumers, { timeout: 20_000 }).toBe(0);
      const view = await openView(session.browser_live_view_url);
      // Someone watches: the recorder takes their screencast's frames too.
      await expect.poll(() => browser.screen.consumers, { timeout: 5_000 }).toBe(2);
      await view.close();
      await expect.poll(() => browser.screen.consumers, { timeout: 20_000 }).toBe(0);
      // Still again: the recorder is back on the screencast, which sends nothing.
      await page.evaluate(() => {
        document.body.innerHTML = '<h1>still</h1>';
      });
      await expect.poll(() => browser.screen.consumers, { timeout: 10_000 }).toBe(1);
      const { status } = await call('POST', `/browsers/${id}/replays/${replay.replay_id}/stop`);
      expect(status).toBe(200);
      const video = await fetch(`${test.server.url}/browsers/${id}/replays/${replay.replay_id}`, {
        headers: { authorization: `Bearer ${TEST_TOKEN}` },
      });
      expect(video.status).toBe(200);
      expect(
        new TextDecoder().decode(new Uint8Array(await video.arrayBuffer()).subarray(4, 8)),
      ).toBe('ftyp');
    } finally {
      await close();
    }
  }, 90_000);
});

describe('taking control from the agent, in a real browser', () => {
  it("pauses the agent's input (the API's and Playwright's) while a person holds it, and goes on after", async () => {
    const { session, page, close } = await newSession();
    // A second DevTools client, which reads the page and sends no input: never held.
    const reader = await chromium.connectOverCDP(session.cdp_ws_url);
    const readerPage = reader.contexts()[0]?.pages()[0] as Page;
    const boxValue = () => readerPage.inputValue('#box');
    try {
      await page.focus('#box');
      const view = await openView(session.browser_live_view_url);
      await view.waitForFunction(() => document.body.dataset.control === 'agent');
      expect(await view.textContent('#control')).toBe('Take control');
      await view.click('#control');
      await view.waitForFunction(() => document.body.dataset.control === 'you');
      expect(await view.textContent('#banner')).toMatch(/agent's input waits/);

      // The agent types through the API and through Playwright: both wait.
      const typing = call('POST', `/browsers/${session.session_id}/computer/type`, {
        text: 'agent',
      });
      const playwrightTyping = page.keyboard.type('pw');
      await new Promise((resolve) => setTimeout(resolve, 700));
      expect(await boxValue()).toBe('');

      // The person types meanwhile: theirs goes in at once.
      const box = await onView(view, 250, 150);
      await view.mouse.click(box.x, box.y);
      await view.keyboard.type('me ');
      await expect.poll(boxValue, { timeout: 5000 }).toBe('me ');

      // Given back: the agent's typing goes on, after the person's.
      await view.click('#control');
      await view.waitForFunction(() => document.body.dataset.control === 'agent');
      expect((await typing).status).toBe(204);
      await playwrightTyping;
      const value = await boxValue();
      expect(value.startsWith('me ')).toBe(true);
      expect([...value.slice(3)].sort().join('')).toBe([...'agentpw'].sort().join(''));
      await view.close();
    } finally {
      await reader.close();
      await close();
    }
  });

  it('goes back to the agent when the person closes the page', async () => {
    const { session, page, close } = await newSession();
    try {
      await page.focus('#box');
      const view = await openView(session.browser_live_view_url);
      await view.click('#control');
      await view.waitForFunction(() => document.body.dataset.control === 'you');
      const typing = call('POST', `/browsers/${session.session_id}/computer/type`, { text: 'x' });
      await new Promise((resolve) => setTimeout(resolve, 300));
      await view.close();
      expect((await typing).status).toBe(204);
      await expect.poll(() => page.inputValue('#box'), { timeout: 5000 }).toBe('x');
    } finally {
      await close();
    }
  });
});

describe('the bar above the view, in a real browser', () => {
  it('shows the tabs, the address, who watches and the latency, and drives the tabs', async () => {
    const { session, page, close } = await newSession();
    try {
      const start =
        'data:text/html,<title>Shop</title><body style="margin:0;background:rgb(0,120,200)">';
      await page.goto(start);
      const view = await openView(session.browser_live_view_url);
      await view.waitForFunction(
        () => document.querySelector('.tab.active .title')?.textContent === 'Shop',
      );
      expect(await view.inputValue('#address')).toBe(start);
      await view.waitForFunction(() => document.getElementById('viewers')?.dataset.count === '1');
      expect(await view.textContent('#viewers')).toBe('1 watching');
      await view.waitForFunction(
        () => document.getElementById('latency')?.dataset.ms !== undefined,
      );
      expect(await view.textContent('#latency')).toMatch(/^\d+ ms$/);

      // An address typed in the bar, then Back.
      await view.fill('#address', 'about:blank');
      await view.press('#address', 'Enter');
      await expect.poll(() => page.url(), { timeout: 5000 }).toBe('about:blank');
      await view.waitForFunction(
        () => (document.getElementById('address') as HTMLInputElement).value === 'about:blank',
      );
      await view.click('#back');
      await expect.poll(() => page.url(), { timeout: 5000 }).toBe(start);

      // What a page may not be sent to is told, and nothing happens.
      await view.fill('#address', 'javascript:alert(1)');
      await view.press('#address', 'Enter');
      await view.waitForFunction(() =>
        document.getElementById('banner')?.textContent?.includes('Only http and https'),
      );
      expect(page.url()).toBe(start);

      // A new tab, the first made active again, the new one closed.
      await view.click('#new-tab');
      await view.waitForFunction(() => document.querySelectorAll('.tab').length === 2);
      await view.waitForFunction(
        () => document.querySelectorAll('.tab')[1]?.classList.contains('active') === true,
      );
      await view.click('.tab >> nth=0');
      await view.waitForFunction(
        () => document.querySelectorAll('.tab')[0]?.classList.contains('active') === true,
      );
      await waitForColour(view, [0, 120, 200]);
      await view.click('.tab >> nth=1 >> .close');
      await view.waitForFunction(() => document.querySelectorAll('.tab').length === 1);

      // A second viewer is counted by both.
      const second = await openView(session.browser_live_view_url);
      await view.waitForFunction(() => document.getElementById('viewers')?.dataset.count === '2');
      await second.close();
      await view.waitForFunction(() => document.getElementById('viewers')?.dataset.count === '1');
      await view.close();
    } finally {
      await close();
    }
  });

  it('from a read link: shows the tabs and who drives, and drives nothing', async () => {
    const { session, close } = await newSession();
    try {
      const { json: link } = await call<{ url: string }>(
        'POST',
        `/browsers/${session.session_id}/live_view`,
        { mode: 'read' },
      );
      const view = await openView(link.url);
      await view.waitForFunction(() => document.querySelectorAll('.tab').length === 1);
      expect(await view.isHidden('#control')).toBe(true);
      expect(await view.getAttribute('#address', 'readonly')).not.toBeNull();
      expect(await view.isDisabled('#back')).toBe(true);
      expect(await view.locator('#new-tab').count()).toBe(0);
      await view.close();
    } finally {
      await close();
    }
  });
});
