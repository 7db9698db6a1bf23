import { AUTH_CONNECTION_LIMITS, type AuthConnection } from '@x/types';
import type { BrowserInstance } from '../engines.js';
import type { ModelContext } from '../model-context.js';
import type { AuthBrowsers } from './auth-browsers.js';
import { FlowFailure } from './auth-flow.js';
import { isAllowedHost, loginUrlOf } from './auth-sites.js';
import { failureOf, PAGE_WAIT_MS, settled } from './sign-in-pages.js';

/** What a health check found: signed in or not, in which browser, and what went wrong. */
export interface HealthProbe {
  readonly isSignedIn: boolean;
  readonly browserId: string | undefined;
  readonly failure: FlowFailure | undefined;
}

/**
 * Health checks: each signed-in connection that asks for them is checked again every
 * `health_check_interval` seconds, by reopening its site with the profile.
 */
export class AuthHealthChecks<I extends BrowserInstance> {
  readonly #context: ModelContext<I>;
  readonly #browsers: AuthBrowsers<I>;
  /** Runs a connection's check (the model's `checkNow`). */
  readonly #check: (id: string) => Promise<unknown>;
  readonly #timers = new Map<string, ReturnType<typeof setTimeout>>();
  #isClosed = false;

  constructor(
    context: ModelContext<I>,
    browsers: AuthBrowsers<I>,
    check: (id: string) => Promise<unknown>,
  ) {
    this.#context = context;
    this.#browsers = browsers;
    this.#check = check;
  }

  schedule(record: AuthConnection): void {
    this.unschedule(record.id);
    if (this.#isClosed || !record.health_checks || record.status !== 'AUTHENTICATED') return;
    const seconds =
      record.health_check_interval ?? AUTH_CONNECTION_LIMITS.healthCheckDefaultSeconds;
    const timer = setTimeout(() => {
      this.#timers.delete(record.id);
      this.#check(record.id).catch((error: unknown) =>
        this.#context.log.warn({ err: error, connection: record.id }, 'a health check failed'),
      );
    }, seconds * 1000);
    timer.unref?.();
    this.#timers.set(record.id, timer);
  }

  unschedule(id: string): void {
    const timer = this.#timers.get(id);
    if (timer) clearTimeout(timer);
    this.#timers.delete(id);
  }

  /** Shutdown: no check is scheduled any more. */
  close(): void {
    this.#isClosed = true;
    for (const timer of this.#timers.values()) clearTimeout(timer);
    this.#timers.clear();
  }

  /**
   * Opens the site with the profile (where the last sign-in ended, else the login page) and reads
   * whether it is still signed in: on the connection's own sites, with no sign-in form or blocker.
   */
  async probe(record: AuthConnection): Promise<HealthProbe> {
    let isSignedIn = false;
    let browserId: string | undefined;
    let failure: FlowFailure | undefined;
    const stop = new AbortController();
    const timer = setTimeout(
      () => stop.abort(new FlowFailure('timed_out', 'The check took too long.')),
      2 * PAGE_WAIT_MS,
    );
    try {
      const entry = await this.#browsers.openForCheck(record);
      browserId = entry.record.session_id;
      try {
        const { signIn } = this.#context.engines;
        await signIn.open(entry.instance, record.post_login_url ?? loginUrlOf(record));
        const page = await settled(signIn, entry.instance, stop.signal);
        const host = new URL(page.url).hostname.toLowerCase();
        isSignedIn =
          isAllowedHost(record, host) &&
          !page.blocker &&
          !page.fields.some((field) => field.kind === 'password' || field.kind === 'identifier');
      } finally {
        await this.#browsers.closeQuietly(entry.record.session_id);
      }
    } catch (error) {
      failure = failureOf(error);
    } finally {
      clearTimeout(timer);
    }
    return { isSignedIn, browserId, failure };
  }
}
