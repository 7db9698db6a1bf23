import type { AuthConnection } from '@x/types';
import type { BrowserModel } from '../browsers/browser-model.js';
import type { BrowserInstance } from '../engines.js';
import type { LiveViewModel } from '../live-view/live-view-model.js';
import type { ModelContext } from '../model-context.js';
import type { ReplayModel } from '../replays/replay-model.js';
import type { AuthFlow } from './auth-flow.js';

/** A browser as the browser model starts it. */
type Started<I extends BrowserInstance> = ReturnType<BrowserModel<I>['create']>;

/**
 * What a connection asks of the browsers: one in its profile for each flow (with live views, and
 * a replay when asked) and each health check, a turn after a person holding control, an end.
 */
export class AuthBrowsers<I extends BrowserInstance> {
  readonly #context: ModelContext<I>;
  readonly #browsers: BrowserModel<I>;
  readonly #liveViews: LiveViewModel<I>;
  readonly #replays: ReplayModel<I>;
  readonly #origin: () => string;

  constructor(
    context: ModelContext<I>,
    parts: {
      readonly browsers: BrowserModel<I>;
      readonly liveViews: LiveViewModel<I>;
      readonly replays: ReplayModel<I>;
    },
    /** Where URLs handed out point, as the last call that reached the model said. */
    origin: () => string,
  ) {
    this.#context = context;
    this.#browsers = parts.browsers;
    this.#liveViews = parts.liveViews;
    this.#replays = parts.replays;
    this.#origin = origin;
  }

  /**
   * A flow's browser: it saves the profile when it closes, and lives a minute past the flow's
   * `lifetimeMs`, which ends it first.
   */
  openForFlow(record: AuthConnection, proxyId: string | undefined, lifetimeMs: number): Started<I> {
    return this.#browsers.create(
      {
        headless: true,
        stealth: false,
        kiosk_mode: false,
        timeout_seconds: lifetimeMs / 1000 + 60,
        profile: { name: record.profile_name, save_changes: true },
        proxy_id: proxyId,
        tags: { 'xb-auth-connection': record.id },
      },
      this.#origin(),
    );
  }

  /** A health check's browser: it leaves the profile as it was. */
  openForCheck(record: AuthConnection): Started<I> {
    return this.#browsers.create(
      {
        headless: true,
        stealth: false,
        kiosk_mode: false,
        timeout_seconds: 300,
        profile: { name: record.profile_name, save_changes: false },
        proxy_id: record.proxy_id,
        tags: { 'xb-auth-check': record.id },
      },
      this.#origin(),
    );
  }

  /** A live view of a flow's browser, for as long as the flow lasts (`lifetimeMs`). */
  liveViewUrl(browserId: string, mode: 'control' | 'read', lifetimeMs: number): string {
    const ttl = Math.ceil(lifetimeMs / 1000);
    return this.#liveViews.create(browserId, { mode, ttl_seconds: ttl }, this.#origin()).url;
  }

  /** A replay of the flow, kept as every session's replays are (it ends with the browser). */
  record(flow: AuthFlow, browserId: string, connectionId: string): Promise<void> {
    return this.#replays
      .start(browserId, 10, undefined)
      .then((replay) => flow.recorded(replay.replay_id))
      .catch((error: unknown) =>
        this.#context.log.warn(
          { err: error, connection: connectionId },
          'a sign-in flow is not recorded',
        ),
      );
  }

  /** Waits while a person holds control in the browser's live view. */
  whenFree(browserId: string, signal: AbortSignal): Promise<void> {
    return this.#browsers.live(browserId).control.whenFree(signal);
  }

  close(browserId: string): Promise<void> {
    return this.#browsers.delete(browserId);
  }

  /** Closes a browser, letting an end that goes wrong go. */
  closeQuietly(browserId: string): Promise<void> {
    // The browser may have ended already (its time-out, a crash); an end that goes wrong is
    // logged where the browser ends.
    return this.#browsers.delete(browserId).catch(() => undefined);
  }
}
