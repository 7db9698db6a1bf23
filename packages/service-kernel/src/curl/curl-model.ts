import { type CurlRequest, type CurlResult, MAX_CURL_RESPONSE_BYTES } from '@x/types';
import type { BrowserModel } from '../browsers/browser-model.js';
import type { BrowserInstance, CurlOutcome } from '../engines.js';
import { refusals } from '../messages.js';
import type { ModelContext } from '../model-context.js';

/** Curl calls in flight at once on one browser; one more is 429. */
export const MAX_CURLS_PER_BROWSER = 16;

/** A response's headers by name (lower case), each with every value it came with. */
function headersByName(headers: readonly (readonly [string, string])[]): Record<string, string[]> {
  const byName: Record<string, string[]> = {};
  for (const [name, value] of headers) {
    const key = name.toLowerCase();
    if (!Object.hasOwn(byName, key)) byName[key] = [];
    (byName[key] as string[]).push(value);
  }
  return byName;
}

/**
 * HTTP requests made by a browser for its caller (`curl`): the runner sends them through the
 * browser's own network stack; the model bounds them (MAX_CURLS_PER_BROWSER at once, the body at
 * MAX_CURL_RESPONSE_BYTES), counts them as activity, and words what went wrong: 502 when there
 * was no answer or it was too large, 504 at the time-out.
 */
export class CurlModel<I extends BrowserInstance> {
  readonly #context: ModelContext<I>;
  readonly #browsers: BrowserModel<I>;
  readonly #inFlight = new Map<string, number>();

  constructor(context: ModelContext<I>, browsers: BrowserModel<I>) {
    this.#context = context;
    this.#browsers = browsers;
  }

  async fetch(browserId: string, request: CurlRequest, signal: AbortSignal): Promise<CurlResult> {
    const entry = this.#browsers.live(browserId);
    const count = this.#inFlight.get(browserId) ?? 0;
    if (count >= MAX_CURLS_PER_BROWSER)
      throw refusals.tooManyCurls(browserId, MAX_CURLS_PER_BROWSER);
    this.#inFlight.set(browserId, count + 1);
    const started = performance.now();
    let outcome: CurlOutcome;
    try {
      this.#browsers.touch(browserId);
      outcome = await this.#context.engines.curl.fetch(
        entry.instance,
        {
          url: request.url,
          method: request.method,
          headers: request.headers,
          body: request.body,
          timeoutMs: request.timeout_ms,
          maxBodyBytes: MAX_CURL_RESPONSE_BYTES,
        },
        signal,
      );
    } finally {
      const left = (this.#inFlight.get(browserId) ?? 1) - 1;
      if (left === 0) this.#inFlight.delete(browserId);
      else this.#inFlight.set(browserId, left);
    }
    this.#browsers.touch(browserId);
    switch (outcome.kind) {
      case 'failed':
        throw refusals.curlFailed(request.url, outcome.reason);
      case 'timedOut':
        throw refusals.curlTimedOut(request.url, request.timeout_ms);
      case 'tooLarge':
        throw refusals.curlTooLarge(request.url, MAX_CURL_RESPONSE_BYTES);
    }
    return {
      status: outcome.status,
      headers: headersByName(outcome.headers),
      body:
        request.response_encoding === 'base64'
          ? Buffer.from(outcome.body).toString('base64')
          : new TextDecoder().decode(outcome.body),
      duration_ms: Math.round(performance.now() - started),
    };
  }
}
