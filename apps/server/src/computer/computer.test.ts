import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonCaller, useTestServer } from '../test-support/servers.js';

const server = useTestServer();
const call = jsonCaller(() => server.server.url);

/** What the test page records of every event it sees. */
const RECORDER = `<script>
  window.seen = [];
  const note = (event) => window.seen.push({
    type: event.type, x: event.clientX, y: event.clientY, button: event.button, buttons: event.buttons,
    detail: event.detail, key: event.key, ctrl: event.ctrlKey, shift: event.shiftKey, alt: event.altKey,
  });
  for (const type of ['mousedown', 'mouseup', 'click', 'dblclick', 'contextmenu', 'mousemove', 'keydown', 'keyup'])
    window.addEventListener(type, note, true);
  window.addEventListener('contextmenu', (event) => event.preventDefault());
</script>`;

interface Seen {
  type: string;
  x: number;
  y: number;
  button: number;
  buttons: number;
  detail: number;
  key: string;
  ctrl: boolean;
  shift: boolean;
  alt: boolean;
}

/** A browser of the server with Playwright attached to its page, to look from inside. */
async function openBrowser(body: Record<string, unknown> = {}) {
  const { json: session } = await call<{ session_id: string; cdp_ws_url: string }>(
    'POST',
    '/browsers',
    { viewport: { width: 800, height: 600 }, ...body },
  );
  const browser = await chromium.connectOverCDP(session.cdp_ws_url);
  const page = browser.contexts()[0]?.pages()[0] as Page;
  const computer = <T = unknown>(path: string, json?: unknown) =>
    call<T>('POST', `/browsers/${session.session_id}/computer/${path}`, json);
  const seen = (type?: string) =>
    page
      .evaluate('window.seen')
      .then((all) => (all as Seen[]).filter((event) => type === undefined || event.type === type));
  return { id: session.session_id, browser, page, computer, seen };
}

describe('the computer controls, seen from inside the page', () => {
  let opened: Awaited<ReturnType<typeof openBrowser>>;
  let browser: Browser;
  beforeAll(async () => {
    opened = await openBrowser();
    browser = opened.browser;
  });
  afterAll(async () => {
    await browser?.close();
    await call('DELETE', `/browsers/${opened.id}`);
  });
  const fresh = async (html = '') => {
    await opened.page.goto('about:blank');
    await opened.page.setContent(`${RECORDER}${html}`);
  };

  it('clicks with the right coordinates, button, count and held keys', async () => {
    await fresh();
    const { computer, seen } = opened;
    expect((await computer('click_mouse', { x: 120, y: 80, num_clicks: 2 })).status).toBe(204);
    const downs = await seen('mousedown');
    expect(downs.map((event) => [event.x, event.y, event.button, event.detail])).toEqual([
      [120, 80, 0, 1],
      [120, 80, 0, 2],
    ]);
    expect(await seen('dblclick')).toHaveLength(1);
    await computer('click_mouse', { x: 5, y: 6, button: 'right', hold_keys: ['ctrl', 'shift'] });
    const menu = (await seen('contextmenu'))[0];
    expect(menu).toMatchObject({ x: 5, y: 6, button: 2, ctrl: true, shift: true });
    await computer('click_mouse', { x: 7, y: 8, button: 'middle', click_type: 'down' });
    expect((await seen('mousedown')).at(-1)).toMatchObject({ button: 1, buttons: 4 });
    await computer('click_mouse', { x: 7, y: 8, button: 'middle', click_type: 'up' });
    expect((await seen('mouseup')).at(-1)).toMatchObject({ button: 1, buttons: 0 });
    expect((await computer('get_mouse_position')).json).toEqual({ x: 7, y: 8 });
  });

  it('refuses a point off the screen with 400 naming the bound, sending nothing', async () => {
    await fresh();
    const answer = await opened.computer<{ message: string }>('click_mouse', { x: 10, y: 600 });
    expect(answer.status).toBe(400);
    expect(answer.json.message).toBe("y must be less than 600, the viewport's height.");
    expect(await opened.seen()).toEqual([]);
  });

  it('moves smoothly along a bent path to the point, and drags with the button held', async () => {
    await fresh();
    const { computer, seen } = opened;
    await computer('move_mouse', { x: 10, y: 10 });
    await computer('move_mouse', { x: 400, y: 300, smooth: true, duration_ms: 300 });
    const moves = await seen('mousemove');
    expect(moves.length).toBeGreaterThan(10);
    expect(moves.at(-1)).toMatchObject({ x: 400, y: 300, buttons: 0 });
    // A straight line from (10,10) to (400,300) has y = 10 + (x - 10) * 290 / 390; a hand bends off it.
    const offLine = moves.map((event) => Math.abs(event.y - (10 + ((event.x - 10) * 290) / 390)));
    expect(Math.max(...offLine)).toBeGreaterThan(1);

    await fresh();
    const path = [
      [50, 50],
      [150, 50],
      [150, 150],
    ];
    expect(
      (await computer('drag_mouse', { path, steps_per_segment: 4, step_delay_ms: 5 })).status,
    ).toBe(204);
    const events = await seen();
    const down = events.find((event) => event.type === 'mousedown');
    expect(down).toMatchObject({ x: 50, y: 50, button: 0 });
    const held = events.filter((event) => event.type === 'mousemove' && event.buttons === 1);
    expect(held.map((event) => [event.x, event.y])).toContainEqual([150, 50]);
    expect(held.length).toBeGreaterThanOrEqual(8);
    expect(events.find((event) => event.type === 'mouseup')).toMatchObject({ x: 150, y: 150 });
  });

  it('scrolls the page under the point by wheel notches', async () => {
    await fresh('<div style="height: 5000px; width: 5000px">tall</div>');
    const { computer, page } = opened;
    expect((await computer('scroll', { x: 100, y: 100, delta_y: 3 })).status).toBe(204);
    await expect.poll(() => page.evaluate('window.scrollY'), { timeout: 10_000 }).toBe(300);
    await computer('scroll', { x: 100, y: 100, delta_x: 2, delta_y: 0 });
    await expect.poll(() => page.evaluate('window.scrollX'), { timeout: 10_000 }).toBe(200);
  });

  it('presses keys, combos and function keys as a keyboard does', async () => {
    await fresh('<input id="a" value="some text"><input id="b">');
    const { computer, page, seen } = opened;
    await page.focus('#a');
    const pressed = await computer('press_key', { keys: ['Ctrl+a', 'BackSpace', 'h', 'i', 'F2'] });
    expect(pressed.status).toBe(204);
    expect(await page.inputValue('#a')).toBe('hi');
    const downs = await seen('keydown');
    expect(downs.map((event) => [event.key, event.ctrl])).toEqual([
      ['Control', true],
      ['a', true],
      ['Backspace', false],
      ['h', false],
      ['i', false],
      ['F2', false],
    ]);
    await computer('press_key', { keys: ['Tab'] });
    expect(await page.evaluate('document.activeElement.id')).toBe('b');
    await computer('press_key', { keys: ['Shift+Tab'] });
    expect(await page.evaluate('document.activeElement.id')).toBe('a');
    await computer('press_key', { keys: ['End', 'Return'], hold_keys: [] });
    expect((await seen('keydown')).at(-1)?.key).toBe('Enter');
  });

  it('reloads the page on F5, as the browser does', async () => {
    await opened.page.goto('data:text/html,<p>page</p>');
    await opened.page.evaluate('window.marker = 1');
    await opened.computer('press_key', { keys: ['F5'] });
    await expect
      .poll(() => opened.page.evaluate('window.marker'), { timeout: 10_000 })
      .toBeUndefined();
  });

  it('holds a key for its duration', async () => {
    await fresh();
    const started = Date.now();
    await opened.computer('press_key', { keys: ['a'], duration: 300 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    const events = await opened.seen();
    expect(events.map((event) => `${event.type}:${event.key}`)).toEqual(['keydown:a', 'keyup:a']);
  });

  it("writes the browser's clipboard for Ctrl+V to paste, and reads what a page copied", async () => {
    await fresh('<input id="field"><textarea id="source">copied from the page ✓</textarea>');
    const { computer, page } = opened;
    expect((await computer('clipboard/write', { text: 'héllo 世界 📋' })).status).toBe(204);
    await page.focus('#field');
    await computer('press_key', { keys: ['Ctrl+v'] });
    expect(await page.inputValue('#field')).toBe('héllo 世界 📋');

    await page.evaluate(`document.getElementById('source').select()`);
    await computer('press_key', { keys: ['Ctrl+c'] });
    const read = await computer<{ text: string }>('clipboard/read');
    expect(read).toEqual({ status: 200, json: { text: 'copied from the page ✓' } });
    // Reading pasted nothing into the page.
    expect(await page.inputValue('#source')).toBe('copied from the page ✓');
  });

  it('hides the cursor over the page and the pages after it, and shows it again', async () => {
    await fresh('<p id="p">text</p>');
    const { computer, page } = opened;
    const cursor = () => page.evaluate(`getComputedStyle(document.getElementById('p')).cursor`);
    expect(await computer('cursor', { hidden: true })).toEqual({ status: 200, json: { ok: true } });
    expect(await cursor()).toBe('none');
    await page.goto('data:text/html,<p id="p">next page</p>');
    expect(await cursor()).toBe('none');
    await computer('cursor', { hidden: false });
    expect(await cursor()).toBe('auto');
  });

  it('runs a batch in order, and stops at the first action that fails, naming it', async () => {
    await fresh('<input id="field">');
    const { computer, page, seen } = opened;
    await page.focus('#field');
    const batch = await computer('batch', {
      actions: [
        { type: 'type_text', type_text: { text: 'ab' } },
        { type: 'press_key', press_key: { keys: ['Left'] } },
        { type: 'type_text', type_text: { text: 'X' } },
        { type: 'sleep', sleep: { duration_ms: 20 } },
        { type: 'click_mouse', click_mouse: { x: 300, y: 300 } },
        { type: 'move_mouse', move_mouse: { x: 310, y: 320 } },
      ],
    });
    expect(batch.status).toBe(204);
    expect(await page.inputValue('#field')).toBe('aXb');
    expect((await seen('mousedown')).at(-1)).toMatchObject({ x: 300, y: 300 });

    const refused = await computer<{ message: string }>('batch', {
      actions: [
        { type: 'click_mouse', click_mouse: { x: 1, y: 1 } },
        {
          type: 'drag_mouse',
          drag_mouse: {
            path: [
              [1, 1],
              [900, 1],
            ],
          },
        },
      ],
    });
    expect(refused.status).toBe(400);
    expect(refused.json.message).toMatch(
      /actions\[1\]\.drag_mouse\.path\[1\]\.x must be less than 800/,
    );
    expect((await computer('get_mouse_position')).json).toEqual({ x: 310, y: 320 });
  });
});

describe('a headed browser', () => {
  it('takes the same real input on its display', async () => {
    const opened = await openBrowser({ headless: false });
    try {
      await opened.page.setContent(`${RECORDER}<input id="field">`);
      await opened.computer('click_mouse', { x: 40, y: 50 });
      expect((await opened.seen('click'))[0]).toMatchObject({ x: 40, y: 50, button: 0 });
      await opened.page.focus('#field');
      await opened.computer('clipboard/write', { text: 'on a display' });
      await opened.computer('press_key', { keys: ['ctrl+v'] });
      expect(await opened.page.inputValue('#field')).toBe('on a display');
    } finally {
      await opened.browser.close();
      await call('DELETE', `/browsers/${opened.id}`);
    }
  });
});
