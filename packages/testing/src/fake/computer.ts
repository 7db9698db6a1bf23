import { findBrowser } from './browsers.js';
import type { HandlerTable } from './handler-types.js';
import { solidPng } from './png.js';

/** Waits `ms`, or less if the signal aborts. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

/** Screenshots by size: a blank page looks the same every time, so each size is encoded once. */
const screenshots = new Map<string, Uint8Array>();

function screenshotOfSize(width: number, height: number): Uint8Array {
  const key = `${width}x${height}`;
  let png = screenshots.get(key);
  if (!png) {
    if (screenshots.size >= 16) screenshots.clear();
    png = solidPng(width, height);
    screenshots.set(key, png);
  }
  return png;
}

/** Handlers of the computer operations. */
export const computerHandlers: Pick<
  HandlerTable,
  'browsers.computer.type' | 'browsers.computer.screenshot'
> = {
  'browsers.computer.type': async ({ runtime, params, body, signal }) => {
    const browser = findBrowser(runtime, params.id as string);
    // One input at a time per browser: a second call types after the first has finished.
    const typed = browser.typing.then(async () => {
      if (body.delay === 0) {
        browser.typedText += body.text;
        return;
      }
      // Character by character, `delay` apart, as a person types; a caller who goes away stops it.
      let index = 0;
      for (const character of body.text) {
        if (signal.aborted) return;
        if (index++ > 0) await sleep(body.delay, signal);
        if (signal.aborted) return;
        browser.typedText += character;
      }
    });
    browser.typing = typed.catch(() => undefined);
    await typed;
    return { status: 204 };
  },
  'browsers.computer.screenshot': ({ runtime, params, body }) => {
    const browser = findBrowser(runtime, params.id as string);
    const viewport = browser.session.viewport ?? { width: 1920, height: 1080 };
    const { width, height } = body.region ?? viewport;
    return { status: 200, bytes: screenshotOfSize(width, height), contentType: 'image/png' };
  },
};
