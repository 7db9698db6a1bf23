import type { BrowserModel } from '../browsers/browser-model.js';
import type { BrowserInstance, Region } from '../engines.js';

/** Waits `ms`, or less when the signal aborts. */
export function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

/**
 * Every rule of the computer controls: one input at a time per browser (a second call waits for
 * the first), typing paced `delay` ms per character and stopped, before its next character, by a
 * caller who went away; screenshots of the viewport or a region.
 */
export class ComputerModel<I extends BrowserInstance> {
  readonly #browsers: BrowserModel<I>;

  constructor(browsers: BrowserModel<I>) {
    this.#browsers = browsers;
  }

  async type(browserId: string, text: string, delay: number, signal: AbortSignal): Promise<void> {
    const browser = this.#browsers.live(browserId);
    const typing = browser.typing.then(async () => {
      if (delay === 0) {
        if (!signal.aborted && text !== '') await browser.instance.type(text);
        return;
      }
      let isFirst = true;
      for (const character of text) {
        if (signal.aborted) return;
        if (!isFirst) await pause(delay, signal);
        isFirst = false;
        if (signal.aborted) return;
        await browser.instance.type(character);
      }
    });
    browser.typing = typing.catch(() => undefined);
    await typing;
  }

  screenshot(browserId: string, region: Region | undefined): Promise<Uint8Array> {
    return this.#browsers.live(browserId).instance.screenshot(region);
  }
}
