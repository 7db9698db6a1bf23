import { notFound, ServiceError, signSessionJwt } from '@x/service-kernel';
import { type BrowserSession, formatTimestamp, HEADERS } from '@x/types';
import { resolveExtensions } from './extensions.js';
import type { HandlerContext, HandlerTable } from './handler-types.js';
import { removeFromPool } from './pools.js';
import { endProcess } from './processes.js';
import type { FakeRuntime } from './runtime.js';

import type { FakeBrowser } from './state.js';
import { stopWatch } from './watches.js';

/** The home of every instance, as processes and watches see it. */
export const INSTANCE_HOME = '/home/browser';

/** Where the browser saves downloads. */
export const DOWNLOADS = `${INSTANCE_HOME}/Downloads`;

/** Viewport of a browser created without one. */
const DEFAULT_VIEWPORT = { width: 1920, height: 1080 } as const;

/** What a new browser is created with: the create-browser body, or a pool's configuration. */
export interface BrowserSpec {
  readonly headless: boolean;
  readonly stealth: boolean;
  readonly kiosk_mode: boolean;
  readonly timeout_seconds: number;
  readonly viewport?: BrowserSession['viewport'];
  readonly extensions?: readonly { id?: string | undefined; name?: string | undefined }[];
  readonly invocation_id?: string | undefined;
  readonly proxy_id?: string | undefined;
  readonly profile?: { id?: string | undefined; name?: string | undefined } | undefined;
  readonly pool?: { id: string; name?: string } | undefined;
}

/** Creates a browser session in the state. Throws 404 for an unknown extension, 429 at capacity. */
export function createBrowser(
  runtime: FakeRuntime,
  origin: string,
  spec: BrowserSpec,
): FakeBrowser {
  const { state, settings, clock, nextId } = runtime;
  const liveCount = [...state.browsers.values()].filter(
    (browser) => !browser.session.deleted_at,
  ).length;
  if (liveCount >= settings.maxBrowsers) {
    throw new ServiceError(
      'rate_limited',
      `At most ${settings.maxBrowsers} browsers may run at once.`,
      {
        headers: { [HEADERS.retryAfter]: '5' },
      },
    );
  }
  const extensions = resolveExtensions(runtime, spec.extensions ?? []);
  const now = clock();
  const id = nextId('br');
  const jwt = signSessionJwt(
    settings.jwtSecret,
    id,
    Math.floor(now.getTime() / 1000) + spec.timeout_seconds,
  );
  const wsOrigin = origin.replace(/^http/, 'ws');
  const session: BrowserSession = {
    session_id: id,
    created_at: formatTimestamp(now),
    cdp_ws_url: `${wsOrigin}/browsers/${id}/cdp?jwt=${jwt}`,
    headless: spec.headless,
    stealth: spec.stealth,
    gpu: false,
    kiosk_mode: spec.kiosk_mode,
    timeout_seconds: spec.timeout_seconds,
    viewport: spec.viewport ?? { ...DEFAULT_VIEWPORT },
  };
  if (spec.invocation_id) session.invocation_id = spec.invocation_id;
  if (spec.proxy_id) session.proxy_id = spec.proxy_id;
  if (spec.profile) {
    session.profile = {};
    if (spec.profile.id) session.profile.id = spec.profile.id;
    if (spec.profile.name) session.profile.name = spec.profile.name;
  }
  if (spec.pool) session.pool = spec.pool;
  for (const extension of extensions) extension.record.last_used_at = formatTimestamp(now);
  return addBrowser(runtime, session);
}

/** Puts a session in the state, with a fresh instance: an empty home and Downloads folder. */
export function addBrowser(runtime: FakeRuntime, session: BrowserSession): FakeBrowser {
  const browser: FakeBrowser = {
    session,
    typedText: '',
    replays: new Map(),
    processes: new Map(),
    watches: new Map(),
    files: new Map([
      [INSTANCE_HOME, 'dir'],
      [DOWNLOADS, 'dir'],
    ]),
    lastActivityAt: runtime.clock().getTime(),
    typing: Promise.resolve(),
  };
  runtime.state.browsers.set(session.session_id, browser);
  return browser;
}

/** The session record as it reads now, with its uptime. */
export function sessionRecord(runtime: FakeRuntime, browser: FakeBrowser): BrowserSession {
  const end = browser.session.deleted_at
    ? Date.parse(browser.session.deleted_at)
    : runtime.clock().getTime();
  const uptime = Math.max(0, end - Date.parse(browser.session.created_at));
  return { ...browser.session, usage: { uptime_ms: uptime } };
}

/**
 * Ends a browser: its recording stops (the video is kept), its processes die, its watches end,
 * and its pool lets it go. The record stays readable with `deleted_at`.
 */
export function deleteBrowser(runtime: FakeRuntime, browser: FakeBrowser): void {
  const now = runtime.clock();
  for (const replay of browser.replays.values()) replay.record.finished_at ??= formatTimestamp(now);
  for (const process of browser.processes.values()) endProcess(process, 137);
  for (const watch of browser.watches.values()) stopWatch(watch);
  browser.session.deleted_at = formatTimestamp(now);
  removeFromPool(runtime, browser);
}

/**
 * The browser with this id. A deleted one is 404 unless `allowDeleted` (its recordings stay
 * readable); any call that finds it counts as activity.
 */
export function findBrowser(runtime: FakeRuntime, id: string, allowDeleted = false): FakeBrowser {
  const browser = runtime.state.browsers.get(id);
  if (!browser || (browser.session.deleted_at && !allowDeleted))
    throw notFound('browser session', id);
  if (!browser.session.deleted_at) browser.lastActivityAt = runtime.clock().getTime();
  return browser;
}

/** Deletes browsers idle past their `timeout_seconds`, as the service does. */
export function expireIdleBrowsers(runtime: FakeRuntime): void {
  const now = runtime.clock().getTime();
  for (const browser of runtime.state.browsers.values()) {
    // A pool keeps its idle browsers warm; only sessions someone holds can go idle.
    const pool = browser.session.pool && runtime.state.pools.get(browser.session.pool.id);
    const isWarmInPool = pool?.idle.includes(browser.session.session_id) ?? false;
    if (browser.session.deleted_at || isWarmInPool) continue;
    if (now - browser.lastActivityAt > browser.session.timeout_seconds * 1000)
      deleteBrowser(runtime, browser);
  }
}

/** The live browsers, oldest first. */
export function liveBrowsers(runtime: FakeRuntime): FakeBrowser[] {
  return [...runtime.state.browsers.values()].filter((browser) => !browser.session.deleted_at);
}

type CreateContext = HandlerContext<'browsers.create'>;

function createBrowserFromBody({ runtime, origin, body }: CreateContext) {
  if (body.invocation_id) {
    const invocation = runtime.state.invocations.get(body.invocation_id);
    if (!invocation) throw notFound('invocation', body.invocation_id);
    if (invocation.finished_at) {
      throw new ServiceError(
        'conflict',
        `Invocation "${invocation.id}" has ended; it takes no new browsers.`,
      );
    }
  }
  return { status: 201, json: sessionRecord(runtime, createBrowser(runtime, origin, body)) };
}

/** Handlers of the browser operations. */
export const browserHandlers: Pick<
  HandlerTable,
  'browsers.create' | 'browsers.list' | 'browsers.get' | 'browsers.delete'
> = {
  'browsers.create': createBrowserFromBody,
  'browsers.list': ({ runtime }) => ({
    status: 200,
    json: liveBrowsers(runtime).map((browser) => sessionRecord(runtime, browser)),
  }),
  'browsers.get': ({ runtime, params }) => ({
    status: 200,
    json: sessionRecord(runtime, findBrowser(runtime, params.id as string, true)),
  }),
  'browsers.delete': ({ runtime, params }) => {
    deleteBrowser(runtime, findBrowser(runtime, params.id as string));
    return { status: 204 };
  },
};
