/**
 * A client of the server behind a TLS proxy, run as its own process so it can trust the proxy's
 * certificate the way a user's program would (NODE_EXTRA_CA_CERTS), without turning checks off.
 * `drive`: creates a session with @x/client over https, drives it with Playwright over its
 * wss:// session URL, takes a screenshot through https, deletes it. `idle-stream`: holds a watch's
 * event stream open with nothing happening for IDLE_SECONDS, then makes a file and waits for its
 * event. Prints one JSON line of what it saw; exits non-zero on any failure.
 */
import { createClient } from '@x/client/node';
import { chromium } from 'playwright-core';

const client = createClient(); // XB_BASE_URL (https://…) and XB_TOKEN
const mode = process.argv[2];
// Idle longer than the default idle time-out (60 s) in idle-stream: a stream is not activity.
const session = await client.browsers.create({ timeout_seconds: 600 });
const id = session.session_id;
try {
  if (mode === 'drive') {
    const browser = await chromium.connectOverCDP(session.cdp_ws_url);
    const page = browser.contexts()[0]?.pages()[0];
    if (!page) throw new Error('no page');
    await page.setContent('<title>through TLS</title><textarea id="box" autofocus></textarea>');
    await page.focus('#box');
    await client.browsers.computer.type({ id, text: 'héllo 世界' });
    const typed = await page.inputValue('#box');
    const title = await page.title();
    const shot = await (await client.browsers.computer.screenshot({ id })).bytes();
    await browser.close();
    console.log(
      JSON.stringify({ cdpUrl: session.cdp_ws_url, title, typed, pngBytes: shot.byteLength }),
    );
  } else if (mode === 'idle-stream') {
    const idleMs = Number(process.env.IDLE_SECONDS ?? 65) * 1000;
    const watch = await client.browsers.fs.watch.start({ id, path: '/home/browser/Downloads' });
    const events = await client.browsers.fs.watch.events({ id, watch_id: watch.watch_id });
    const started = Date.now();
    const first = (async () => {
      for await (const event of events) return { event, afterMs: Date.now() - started };
      return undefined;
    })();
    await new Promise((resolve) => setTimeout(resolve, idleMs));
    await client.browsers.fs.writeFile({
      id,
      path: '/home/browser/Downloads/late.txt',
      content: new Blob(['still here']),
    });
    const seen = await first;
    console.log(JSON.stringify({ seen }));
  } else {
    throw new Error(`unknown mode ${mode}`);
  }
} finally {
  await client.browsers.delete({ id });
}
