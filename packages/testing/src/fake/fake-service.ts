import { randomBytes } from 'node:crypto';
import { createMcpEndpoint } from '@x/mcp';
import {
  type BrowserLimits,
  type CurlCall,
  createIdGenerator,
  createRequestHandler,
  DEFAULT_BROWSER_LIMITS,
  type FsChange,
  hasKnownToken,
  liveViewSockets,
  MemoryIdempotencyStore,
  Organization,
  parseOperatorNetworks,
  resolveInstancePath,
  type ScriptedSite,
  type ServiceModel,
  serviceHandlers,
  servicePages,
} from '@x/service-kernel';
import { type AuthConnection, DEFAULT_PROJECT_ID } from '@x/types';
import { createOpenApiDocument } from '@x/types/openapi';
import { type Clock, systemClock } from '../common/clock.js';
import {
  type FaultEffect,
  type FaultScope,
  FaultSet,
  type InjectedFault,
} from '../faults/faults.js';
import { Journal } from '../journal/journal.js';
import type { FakeInput, FakeInstance } from './browsers/fake-instance.js';
import type { FakeSite } from './curl/fake-curl-runner.js';
import { createFakeEngines } from './fake-engines.js';
import { type FakeSeed, seedModel } from './fake-seed.js';
import { type FakeState, readFakeState } from './fake-state.js';
import type { PlaywrightScript } from './playwright/fake-playwright-runner.js';

export type { FakeSeed } from './fake-seed.js';

import { applyFsChange } from './fs-watch/fake-watcher.js';
import { IN_PROCESS_ORIGIN, inProcessFetch } from './in-process-fetch.js';
import { type ListenOptions, listenHttp } from './node-listener.js';
import type { FakeProcess } from './processes/fake-process.js';
import type { ProcessScriptSource } from './processes/fake-process-runner.js';

/** How to set a fake service up. Every option has a default that suits a test. */
export interface FakeServiceOptions {
  /** Tokens allowed to do everything; default `test-token`. */
  readonly token?: string | readonly string[];
  /** Tokens allowed to read only (403 on acting operations); default `test-read-only-token`. */
  readonly readOnlyToken?: string | readonly string[];
  /** Most live browsers at once, beyond which creating one is 429; default 50. */
  readonly maxBrowsers?: number;
  /**
   * Private destinations every session may reach, as the server's `XB_ALLOW_NETWORKS` gives them
   * (`['127.0.0.1/32']`, or `'*'` for an open network). Given, browsers and pools show their
   * effective `network.allow` and one asking outside the list is 400, as on the server. Default:
   * none, as the server's: records carry `network: { allow: [] }` and a browser asking for a
   * private destination is 400. `'*'` opens every network (records then carry no `network`). A
   * bad entry throws.
   */
  readonly allowNetworks?: string | readonly string[];
  /** Whether process operations run; `false` answers them 403, as an operator may. Default true. */
  readonly processExecution?: boolean;
  /**
   * Whether pools start browsers at their `fill_rate_per_minute`, as the server does: a new pool
   * of 20 at 10 % holds 2 at once, then one more each 30 s of the fake's clock (checked on
   * every call, and on a timer). Default false: pools fill at once, which most tests want.
   */
  readonly fillRate?: boolean;
  /**
   * What one browser may hold at once, as the server's `XB_MAX_PROCESSES_PER_BROWSER` and its
   * kin set them: running processes (32), watches (16), output bytes kept per process (256 KiB),
   * ended processes kept (16). One more process or watch is 409.
   */
  readonly limits?: Partial<BrowserLimits>;
  /** Events a watch holds for a slow reader before an OVERFLOW; default 1024. */
  readonly watchBufferSize?: number;
  /** Makes generated ids repeat from run to run; random (unguessable) by default. */
  readonly seed?: number;
  /** The fake's clock; the real one by default. Idle time-outs and replay lengths follow it. */
  readonly clock?: Clock;
  /** How commands behave, by command name (see `scriptProcess`). */
  readonly scripts?: Readonly<Record<string, ProcessScriptSource>>;
  /** Hears about a failure of the fake itself (the caller gets a 500); `console.error` by default. */
  readonly onUnexpectedError?: (error: unknown) => void;
}

/** CPU and memory figures a running process reports. */
export interface ProcessUsage {
  readonly cpu_pct?: number;
  readonly mem_bytes?: number;
}

/** A stateful, in-memory implementation of every operation of the catalog. */
/** A telemetry event a fake browser's pages report (`fake.pageEvent`). */
export interface FakePageEvent {
  readonly category: 'console' | 'network' | 'page' | 'interaction';
  /** console_log, console_error, network_request, network_loading_failed, page_load, … */
  readonly type: string;
  readonly data?: Record<string, unknown>;
  /** The DevTools event a real browser would report it from (`Runtime.consoleAPICalled`). */
  readonly cdpEvent?: string;
}

export interface FakeService {
  /** A `fetch` that reaches the fake in-process, with no socket. Pass it to a client. */
  readonly fetch: typeof fetch;
  /** Starts an HTTP listener (loopback, a free port by default) and gives its URL. */
  listen(options?: ListenOptions): Promise<string>;
  /** The listener's URL once `listen` resolved; otherwise the in-process origin. */
  readonly url: string;
  /** Stops the listener, the processes' timers and any waiting call. */
  close(): Promise<void>;
  /** A token with every right, and a read-only one. */
  readonly tokens: { readonly token: string; readonly readOnlyToken: string };
  /** Everything the fake holds, to inspect. */
  readonly state: FakeState;
  /** Adds records to the state. */
  seed(seed: FakeSeed): void;
  /** Every call received, with assertion helpers. */
  readonly journal: Journal;
  /** Puts a fault in force for the operations in `scope` (all by default), always unless `times` says. */
  inject(effect: FaultEffect, scope?: FaultScope): InjectedFault;
  /** Takes every fault out. */
  clearFaults(): void;
  /** Empties the state, the journal, the faults, the idempotency keys and the scripts given since creation. */
  reset(): void;
  /** Everything typed into a browser so far. */
  typedText(browserId: string): string;
  /** Every mouse, wheel and key event a browser received, in order (what `type` typed aside). */
  inputs(browserId: string): readonly FakeInput[];
  /** What a browser's clipboard holds; with `text`, puts it there, as a page's copy would. */
  clipboard(browserId: string, text?: string): string;
  /**
   * The extensions loaded into a running browser (`browsers.loadExtensions`), by the id each got:
   * the folder of its files it was loaded from.
   */
  loadedExtensions(browserId: string): ReadonlyMap<string, string>;
  /** Sets how a command behaves from now on. */
  scriptProcess(command: string, script: ProcessScriptSource): void;
  /**
   * Sets what a piece of Playwright code comes to from now on (`browsers.playwright.execute`);
   * code without a script runs as the fake's runner reads it (`FakePlaywrightRunner`).
   */
  scriptPlaywright(code: string, script: PlaywrightScript): void;
  /** The Playwright code each browser was sent, in order. */
  playwrightRuns(): readonly { readonly browserId: string; readonly code: string }[];
  /**
   * Puts a site in the fake's world for `browsers.curl`: it answers every request to `origin`
   * (`https://example.com`); an origin without a site is a host that is not there (502).
   */
  scriptSite(origin: string, site: FakeSite): void;
  /**
   * Gives `host` a scripted sign-in for auth connections' flows: pages of fields, each checked as
   * the script says (`check` answers the site's error), or a step only a person can do
   * (`blocker`, done by `solveSignIn`). Unset, a host asks for a username and a password on one
   * page and refuses the password `wrong-password`.
   */
  scriptSignIn(host: string, site: ScriptedSite): void;
  /** Does the person's step (`blocker`) of `host`'s sign-in, as someone at the live view would. */
  solveSignIn(host: string): void;
  /** Makes `host` forget its sign-in: the next health check finds the sign-in form. */
  signOut(host: string): void;
  /** Runs an auth connection's health check now, as its interval would. */
  checkAuthConnection(id: string, project?: string): Promise<AuthConnection>;
  /** The curl requests each browser made, in order. */
  curlCalls(): readonly { readonly browserId: string; readonly call: CurlCall }[];
  /**
   * Makes a browser's pages report a telemetry event, as a real page would (a console message,
   * a failed request, a load): kept when the session's telemetry captures its category.
   */
  pageEvent(browserId: string, event: FakePageEvent): void;
  /** Ends a running process with an exit code. */
  exitProcess(processId: string, exitCode: number): void;
  /** Makes a running process write to stdout or stderr. */
  writeProcessOutput(processId: string, stream: 'stdout' | 'stderr', text: string): void;
  /** Sets the cpu and memory a running process reports. */
  setProcessUsage(processId: string, usage: ProcessUsage): void;
  /** A change on a browser's files (a download landing, say): watches that cover it see it. */
  emitFsEvent(browserId: string, change: FsChange): void;
  /**
   * The bytes of a file on a browser's instance, or undefined when there is none; with `content`,
   * writes it there first (its parents made, watches told), as a download landing would.
   */
  file(browserId: string, path: string, content?: Uint8Array | string): Uint8Array | undefined;
  /**
   * What a check of the proxy at `host:port` finds from now on: available from an address, or
   * unavailable. Unset, every proxy is available from 192.0.2.1.
   */
  setProxyCheck(
    hostAndPort: string,
    outcome:
      | { readonly status: 'available'; readonly ip_address: string }
      | { readonly status: 'unavailable' },
  ): void;
}

const asList = (value: string | readonly string[] | undefined, fallback: string) =>
  value === undefined ? [fallback] : typeof value === 'string' ? [value] : [...value];

/**
 * Creates a fake of the whole service. Use it in-process (`fake.fetch`), over HTTP
 * (`await fake.listen()`), or from any language with the `xb-fake` bin.
 *
 * @example
 * const fake = createFakeService();
 * const client = createClient({ baseUrl: fake.url, token: fake.tokens.token, fetch: fake.fetch });
 */
export function createFakeService(options: FakeServiceOptions = {}): FakeService {
  const tokens = asList(options.token, 'test-token');
  const readOnlyTokens = asList(options.readOnlyToken, 'test-read-only-token');
  const clock = options.clock ?? systemClock;
  const nextId = createIdGenerator(options.seed);
  const jwtSecret = randomBytes(32).toString('hex');
  const faults = new FaultSet();
  const journal = new Journal();
  const idempotency = new MemoryIdempotencyStore(clock);
  let listener: Awaited<ReturnType<typeof listenHttp>> | undefined;
  let openApi: unknown;
  const origin = () => listener?.url ?? IN_PROCESS_ORIGIN;
  const allowNetworks = parseOperatorNetworks(asList(options.allowNetworks ?? [], '').join(','));

  /** The model on in-memory engines; a reset makes a new one. */
  const build = () => {
    const engines = createFakeEngines(clock);
    // Deployed code calls the fake where it answers (its listener, once it listens).
    engines.apps.apiUrl = origin;
    for (const [command, script] of Object.entries(options.scripts ?? {}))
      engines.processes.scripts.set(command, script);
    const org = new Organization<FakeInstance>({
      // Each project's model gets its own scope of `engines.stores` as its records.
      engines,
      stores: engines.stores,
      audit: engines.audit,
      settings: {
        maxBrowsers: options.maxBrowsers ?? 50,
        isProcessExecutionEnabled: options.processExecution ?? true,
        watchBufferSize: options.watchBufferSize ?? 1024,
        limits: { ...DEFAULT_BROWSER_LIMITS, ...options.limits },
        jwtSecret,
        isFillRateLimited: options.fillRate ?? false,
        allowNetworks,
      },
      clock,
      nextId,
    });
    return { engines, org, model: org.defaultModel };
  };
  let current = build();

  const tokenSets = { tokens: new Set(tokens), readOnlyTokens: new Set(readOnlyTokens) };
  const handleApi = createRequestHandler<ServiceModel<FakeInstance>>({
    runtime: (project) => current.org.model(project),
    keys: (token) => current.org.callers.grantOf(token),
    sessionCaller: (sessionId, jwt) => current.org.callers.sessionCaller(sessionId, jwt),
    assertReachable: (operation, params) => current.org.assertReachable(operation, params),
    project: (caller, header) => current.org.callers.projectOf(caller, header),
    audit: (call) => current.org.audit.record(call),
    answered: (call) => current.org.answered(call),
    handlers: serviceHandlers<FakeInstance>(() => current.org),
    tokens: tokenSets,
    idempotency,
    newRequestId: () => nextId('req'),
    now: clock,
    onCall: (record) => journal.record(record),
    intercept: (operation) => faults.intercept(operation.name),
    beforeOperation: () => current.org.sweep(),
    pages: servicePages((browserId) => current.org.modelOfBrowser(browserId)),
    openApiDocument: () => {
      openApi ??= createOpenApiDocument({ serverUrl: origin() });
      return openApi;
    },
    onUnexpectedError:
      options.onUnexpectedError ?? ((error) => console.error('fake service:', error)),
  });

  // The MCP server at `/mcp`, as the server serves it: each tool call an API call of the caller's,
  // through the same pipeline (its faults included).
  const mcp = createMcpEndpoint({
    call: inProcessFetch(handleApi),
    isAuthenticated: async (request) =>
      hasKnownToken(tokenSets, request) || (await current.org.callers.isKey(request)),
  });
  const handle: typeof handleApi = async (request, info) =>
    new URL(request.url).pathname === '/mcp'
      ? { kind: 'response', response: await mcp(request) }
      : handleApi(request, info);

  const findProcess = (processId: string): FakeProcess => {
    for (const instance of current.engines.browsers.instances.values()) {
      const process = instance.processes.get(processId);
      if (process) return process;
    }
    throw new TypeError(`No process "${processId}" in the fake.`);
  };

  const fake: FakeService = {
    fetch: inProcessFetch(handle),
    async listen(listenOptions) {
      if (listener) throw new Error(`The fake is already listening at ${listener.url}`);
      listener = await listenHttp(
        handle,
        listenOptions,
        liveViewSockets((browserId) => current.org.liveModelOf(browserId).liveViews),
      );
      openApi = undefined;
      return listener.url;
    },
    get url() {
      return origin();
    },
    async close() {
      await current.org.close();
      await current.engines.apps.close();
      await listener?.close();
      listener = undefined;
    },
    tokens: { token: tokens[0] as string, readOnlyToken: readOnlyTokens[0] as string },
    get state() {
      return readFakeState(current.model, current.engines);
    },
    seed(seed) {
      seedModel(current.model, current.engines, seed, origin());
    },
    journal,
    inject: (effect, scope) => faults.inject(effect, scope),
    clearFaults: () => faults.clear(),
    reset() {
      const previous = current;
      void previous.org.close().then(() => previous.engines.apps.close());
      current = build();
      faults.clear();
      journal.clear();
      idempotency.clear();
    },
    typedText: (browserId) => current.engines.browsers.instance(browserId).typedText,
    loadedExtensions: (browserId) =>
      new Map(current.engines.browsers.instance(browserId).loadedExtensions),
    inputs: (browserId) => [...current.engines.browsers.instance(browserId).inputs],
    clipboard: (browserId, text) => {
      const instance = current.engines.browsers.instance(browserId);
      if (text !== undefined) instance.clipboard = text;
      return instance.clipboard;
    },
    scriptProcess: (command, script) => {
      current.engines.processes.scripts.set(command, script);
    },
    scriptPlaywright: (code, script) => {
      current.engines.playwright.scripts.set(code, script);
    },
    playwrightRuns: () => [...current.engines.playwright.runs],
    scriptSite: (origin, site) => {
      current.engines.curl.sites.set(new URL(origin).origin, site);
    },
    curlCalls: () => [...current.engines.curl.calls],
    scriptSignIn: (host, site) => current.engines.signIn.site(host, site),
    solveSignIn: (host) => current.engines.signIn.solve(host),
    signOut: (host) => current.engines.signIn.signOut(host),
    checkAuthConnection: (id, project = DEFAULT_PROJECT_ID) =>
      current.org.model(project).auth.checkNow(id),
    pageEvent: (browserId, event) => {
      const found = current.org.findBrowser(browserId);
      if (!found) throw new TypeError(`No live browser "${browserId}" in the fake.`);
      found.entry.telemetry.record({ ...event, source: { kind: 'cdp', event: event.cdpEvent } });
    },
    exitProcess: (processId, exitCode) => findProcess(processId).exit(exitCode),
    writeProcessOutput: (processId, stream, text) => findProcess(processId).write(stream, text),
    setProcessUsage: (processId, usage) => {
      const process = findProcess(processId);
      if (process.state === 'exited') return;
      if (usage.cpu_pct !== undefined) process.cpuPct = usage.cpu_pct;
      if (usage.mem_bytes !== undefined) process.memBytes = usage.mem_bytes;
    },
    emitFsEvent: (browserId, change) => {
      const entry = current.org.findBrowser(browserId)?.entry;
      if (!entry) throw new TypeError(`No live browser "${browserId}" in the fake.`);
      applyFsChange(entry.instance, change);
    },
    setProxyCheck: (hostAndPort, outcome) => {
      current.engines.proxyChecker.outcomes.set(
        hostAndPort,
        outcome.status === 'available'
          ? { isAvailable: true, ipAddress: outcome.ip_address }
          : { isAvailable: false, reason: 'set unavailable by the test' },
      );
    },
    file: (browserId, path, content) => {
      const { files } = current.engines.browsers.instance(browserId);
      const target = resolveInstancePath('path', path);
      if (content !== undefined) {
        files.putFile(
          target,
          typeof content === 'string' ? new TextEncoder().encode(content) : content,
        );
      }
      const node = files.nodes.get(target);
      return node?.kind === 'file' ? node.content : undefined;
    },
  };
  return fake;
}
