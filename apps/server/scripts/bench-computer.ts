/**
 * Latency of the computer controls on the self-hosted server, from one run on loopback:
 * - a click (`click_mouse`: a move, a press and a release sent to the page), p50 and p99 of 200;
 * - a 10-action batch (clicks, moves, keys, a scroll, typing; no sleeps), p50 and p99 of 50;
 * - the floor, in the same run: the same three mouse events sent straight to the page over
 *   DevTools by a client of the server's own CDP URL (Playwright's CDP session), and an API call
 *   that sends no input (`get_mouse_position`), so the ratios show what the API adds.
 *
 * Run: pnpm --filter @x/server bench:computer   (after a build)
 */
import { rmSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { benchServer, quantile, timingLine, timings } from './bench-support.ts';

const { dataDir, server, call } = await benchServer('computer');

const line = (name: string, times: number[]) => timingLine(name, times, 44);

try {
  const session = await call<{ session_id: string; cdp_ws_url: string }>('POST', '/browsers', {
    viewport: { width: 1280, height: 720 },
  });
  const id = session.session_id;
  const browser = await chromium.connectOverCDP(session.cdp_ws_url);
  const page = browser.contexts()[0]?.pages()[0];
  if (!page) throw new Error('no page');
  await page.setContent('<input id="field" style="position:absolute;left:10px;top:10px">');
  const cdp = await page.context().newCDPSession(page);

  const point = (index: number) => ({ x: 100 + (index % 50) * 10, y: 100 + (index % 30) * 10 });
  const floor = await timings(200, async (index) => {
    const { x, y } = point(index);
    await cdp.send('Input.dispatchMouseEvent', { type: 'mouseMoved', x, y });
    for (const type of ['mousePressed', 'mouseReleased'] as const)
      await cdp.send('Input.dispatchMouseEvent', { type, x, y, button: 'left', clickCount: 1 });
  });
  const empty = await timings(200, () =>
    call('POST', `/browsers/${id}/computer/get_mouse_position`),
  );
  const clicks = await timings(200, (index) =>
    call('POST', `/browsers/${id}/computer/click_mouse`, point(index)),
  );
  const actions = [
    { type: 'click_mouse', click_mouse: { x: 20, y: 20 } },
    { type: 'type_text', type_text: { text: 'abc' } },
    { type: 'press_key', press_key: { keys: ['Ctrl+a'] } },
    { type: 'press_key', press_key: { keys: ['BackSpace'] } },
    { type: 'move_mouse', move_mouse: { x: 300, y: 200 } },
    { type: 'scroll', scroll: { x: 300, y: 200, delta_y: 1 } },
    { type: 'click_mouse', click_mouse: { x: 400, y: 300, button: 'right' } },
    { type: 'move_mouse', move_mouse: { x: 20, y: 20 } },
    { type: 'click_mouse', click_mouse: { x: 20, y: 20 } },
    { type: 'press_key', press_key: { keys: ['End'] } },
  ];
  const batches = await timings(50, () =>
    call('POST', `/browsers/${id}/computer/batch`, { actions }),
  );

  console.log('Computer controls on loopback (one browser, 1280x720):');
  console.log(line('floor: 3 mouse events over DevTools', floor));
  console.log(line('floor: get_mouse_position (no input)', empty));
  console.log(line('click_mouse', clicks));
  console.log(line('batch of 10 actions', batches));
  const ratio = quantile(clicks, 0.5) / (quantile(floor, 0.5) + quantile(empty, 0.5));
  console.log(`click p50 / (DevTools floor + API floor) p50: ${ratio.toFixed(2)}x`);
  await browser.close();
  await call('DELETE', `/browsers/${id}`);
} finally {
  await server.close();
  rmSync(dataDir, { recursive: true, force: true });
}
