import type { PlaywrightExecuteResult } from '@x/types';
import type { BrowserModel } from '../browsers/browser-model.js';
import type { BrowserInstance } from '../engines.js';
import { refusals } from '../messages.js';
import type { ModelContext } from '../model-context.js';

/** The outcome of Playwright code stopped at its time-out, as every runner words it. */
export function playwrightTimedOut(timeoutMs: number): PlaywrightExecuteResult {
  return { success: false, error: `Execution timed out after ${timeoutMs} ms.` };
}

/** Calls that may wait for a browser's Playwright code to finish; one more is 409. */
export const MAX_WAITING_PLAYWRIGHT_CALLS = 8;

/**
 * Playwright code against a browser: the runner runs it in the session's sandbox; the model lets
 * one run at a time per browser (the next waits its turn, a few at most) and counts a run as
 * activity, at its start and at its end, so a long run does not let the browser time out.
 */
export class PlaywrightModel<I extends BrowserInstance> {
  readonly #context: ModelContext<I>;
  readonly #browsers: BrowserModel<I>;

  constructor(context: ModelContext<I>, browsers: BrowserModel<I>) {
    this.#context = context;
    this.#browsers = browsers;
  }

  async execute(
    browserId: string,
    body: { code: string; timeout_sec: number },
    signal: AbortSignal,
  ): Promise<PlaywrightExecuteResult> {
    // Code is code: the operator's switch for running it is the processes' one.
    if (!this.#context.settings.isProcessExecutionEnabled) throw refusals.processesTurnedOff();
    const runner = this.#context.engines.playwright;
    runner.assertAvailable();
    const browser = this.#browsers.live(browserId);
    const line = browser.playwright;
    if (line.waiting >= MAX_WAITING_PLAYWRIGHT_CALLS) {
      throw refusals.playwrightBusy(browserId, MAX_WAITING_PLAYWRIGHT_CALLS);
    }
    line.waiting++;
    const previous = line.last;
    let done = () => {};
    line.last = new Promise<void>((resolve) => {
      done = resolve;
    });
    let isInLine = true;
    try {
      await previous;
      line.waiting--;
      isInLine = false;
      signal.throwIfAborted();
      // The browser may have gone while the call waited.
      const live = this.#browsers.live(browserId);
      const outcome = await runner.run(
        live.instance,
        { code: body.code, timeoutMs: body.timeout_sec * 1000 },
        signal,
      );
      this.#browsers.touch(browserId);
      return withoutUndefined(outcome);
    } finally {
      if (isInLine) line.waiting--;
      done();
    }
  }
}

function withoutUndefined(outcome: PlaywrightExecuteResult): PlaywrightExecuteResult {
  return Object.fromEntries(
    Object.entries(outcome).filter(([, value]) => value !== undefined),
  ) as PlaywrightExecuteResult;
}
