import type { CurlCall, CurlOutcome, CurlRunner } from '@x/service-kernel';
import type { FakeInstance } from '../browsers/fake-instance.js';

/** A request as a scripted site sees it: the cookies the browser holds for it included. */
export interface FakeSiteRequest {
  readonly url: string;
  readonly method: string;
  /** Lower-case names: what the call gave, and `cookie` when the browser holds any. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | undefined;
}

/** A scripted site's answer. */
export interface FakeSiteAnswer {
  readonly status?: number;
  /** Every header, in order; `set-cookie` ones are kept in the browser's jar. */
  readonly headers?: readonly (readonly [string, string])[];
  readonly body?: string | Uint8Array;
  /** How long it takes to answer, in ms (past the call's `timeout_ms` it times out). */
  readonly delayMs?: number;
}

/** A site of the fake's world: answers requests to one origin. */
export type FakeSite = (request: FakeSiteRequest) => FakeSiteAnswer;

/**
 * Makes curl calls against scripted sites (`fake.scriptSite(origin, site)`): the fake has no
 * network, so a request to an origin without a site fails as a host that is not there does.
 * Each browser keeps a cookie jar as a real one would, per host: `Set-Cookie` from an answer is
 * kept (`name=value`, `Max-Age=0` removes it) and sent back as `cookie` on the next request to
 * that host. Every call is kept (`calls`), in order.
 */
export class FakeCurlRunner implements CurlRunner<FakeInstance> {
  readonly sites = new Map<string, FakeSite>();
  readonly calls: { readonly browserId: string; readonly call: CurlCall }[] = [];
  readonly #jars = new WeakMap<FakeInstance, Map<string, Map<string, string>>>();

  async fetch(instance: FakeInstance, call: CurlCall, signal: AbortSignal): Promise<CurlOutcome> {
    this.calls.push({ browserId: instance.id, call });
    const url = new URL(call.url);
    const site = this.sites.get(url.origin);
    if (!site) return { kind: 'failed', reason: `net::ERR_NAME_NOT_RESOLVED (${url.host})` };
    const jars = this.#jars.get(instance) ?? new Map<string, Map<string, string>>();
    this.#jars.set(instance, jars);
    const jar = jars.get(url.host) ?? new Map<string, string>();
    jars.set(url.host, jar);
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(call.headers)) headers[name.toLowerCase()] = value;
    if (jar.size > 0 && headers.cookie === undefined)
      headers.cookie = [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
    const answer = site({ url: call.url, method: call.method, headers, body: call.body });
    const delayMs = answer.delayMs ?? 0;
    if (delayMs > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(delayMs, call.timeoutMs));
        signal.addEventListener('abort', () => {
          clearTimeout(timer);
          resolve();
        });
      });
      if (delayMs > call.timeoutMs) return { kind: 'timedOut' };
    }
    const answered = answer.headers ?? [];
    for (const [name, value] of answered) {
      if (name.toLowerCase() !== 'set-cookie') continue;
      const [pair = '', ...attributes] = value.split(';');
      const equals = pair.indexOf('=');
      if (equals <= 0) continue;
      const cookie = pair.slice(0, equals).trim();
      if (attributes.some((attribute) => /^\s*max-age\s*=\s*0\s*$/i.test(attribute)))
        jar.delete(cookie);
      else jar.set(cookie, pair.slice(equals + 1).trim());
    }
    const body =
      typeof answer.body === 'string'
        ? new TextEncoder().encode(answer.body)
        : (answer.body ?? new Uint8Array());
    if (body.byteLength > call.maxBodyBytes) return { kind: 'tooLarge' };
    return {
      kind: 'response',
      status: answer.status ?? 200,
      headers: answered,
      body: call.method === 'HEAD' ? new Uint8Array() : body,
    };
  }
}
