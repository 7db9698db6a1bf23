import type { TelemetryEventInput } from '@x/service-kernel';
import type { TelemetryCategory } from '@x/types';
import type { CdpConnection } from './cdp-connection.js';

/** The categories the page monitor captures from the pages themselves. */
export const PAGE_TELEMETRY: readonly TelemetryCategory[] = ['console', 'network', 'page'];

/** Requests followed at once per browser (their URL and method, until they end): the oldest give way. */
const MAX_REQUESTS_FOLLOWED = 1000;

/** Most console arguments an event lists. */
const MAX_CONSOLE_ARGS = 16;

/** A page the monitor is attached to, by its own DevTools session. */
interface WatchedPage {
  readonly targetId: string;
  url: string;
  /** Top-level navigations so far. */
  navSeq: number;
}

/** What the monitor keeps of a request until it ends. */
interface FollowedRequest {
  readonly url: string;
  readonly method: string;
  readonly resourceType: string | undefined;
  response?: Record<string, unknown>;
}

interface RemoteObject {
  readonly type: string;
  readonly value?: unknown;
  readonly unserializableValue?: string;
  readonly description?: string;
}

interface StackTrace {
  readonly callFrames: readonly unknown[];
  readonly description?: string;
}

/** A console argument as text, as the console would show it. */
function argText(arg: RemoteObject): string {
  if (arg.unserializableValue !== undefined) return arg.unserializableValue;
  if (arg.value !== undefined)
    return typeof arg.value === 'string' ? arg.value : JSON.stringify(arg.value);
  return arg.description ?? arg.type;
}

/**
 * Watches a browser's pages for telemetry (console, network, page): a DevTools session of its own
 * on each page tab (never the server's own tabs), with only the domains its categories need, so
 * nothing the session's clients see changes. Each event goes to `emit`, its data stamped with the
 * page's context (target, session, frame, navigation, URL).
 */
export class PageMonitor {
  readonly #cdp: CdpConnection;
  readonly #categories: ReadonlySet<TelemetryCategory>;
  readonly #isOwnTab: (targetId: string) => boolean;
  readonly #emit: (event: TelemetryEventInput) => void;
  readonly #pages = new Map<string, WatchedPage>();
  /** Tabs watched or being attached, by target id: a tab is attached once however it is heard of. */
  readonly #targets = new Set<string>();
  readonly #requests = new Map<string, FollowedRequest>();
  readonly #stops: (() => void)[] = [];
  #pagesSeen = 0;

  constructor(
    cdp: CdpConnection,
    categories: readonly TelemetryCategory[],
    isOwnTab: (targetId: string) => boolean,
    emit: (event: TelemetryEventInput) => void,
  ) {
    this.#cdp = cdp;
    this.#categories = new Set(categories.filter((category) => PAGE_TELEMETRY.includes(category)));
    this.#isOwnTab = isOwnTab;
    this.#emit = emit;
  }

  /** Whether it has anything to watch. */
  get isNeeded(): boolean {
    return this.#categories.size > 0;
  }

  /** Attaches to every page there is and each one that opens. */
  async start(): Promise<void> {
    if (!this.isNeeded) return;
    this.#listen();
    this.#stops.push(
      this.#cdp.on('Target.targetCreated', (params) => {
        const { targetInfo } = params as { targetInfo: { targetId: string; type: string } };
        if (targetInfo.type === 'page') void this.#attach(targetInfo.targetId);
      }),
      this.#cdp.on('Target.detachedFromTarget', (params) => {
        const { sessionId } = params as { sessionId: string };
        const page = this.#pages.get(sessionId);
        if (page) this.#targets.delete(page.targetId);
        this.#pages.delete(sessionId);
      }),
    );
    const { targetInfos } = await this.#cdp.send<{
      targetInfos: { targetId: string; type: string }[];
    }>('Target.getTargets');
    await Promise.all(
      targetInfos
        .filter((target) => target.type === 'page')
        .map((target) => this.#attach(target.targetId)),
    );
  }

  /** Stops hearing the browser (it is closing). */
  stop(): void {
    for (const stop of this.#stops.splice(0)) stop();
  }

  async #attach(targetId: string): Promise<void> {
    if (this.#isOwnTab(targetId) || this.#targets.has(targetId)) return;
    this.#targets.add(targetId);
    let sessionId: string;
    try {
      ({ sessionId } = await this.#cdp.send<{ sessionId: string }>('Target.attachToTarget', {
        targetId,
        flatten: true,
      }));
    } catch {
      this.#targets.delete(targetId);
      return; // The tab closed before it could be watched.
    }
    // One the server opened for itself meanwhile (curl's) is left alone.
    if (this.#isOwnTab(targetId)) {
      this.#targets.delete(targetId);
      // A tab closed meanwhile has no session left to detach.
      await this.#cdp.send('Target.detachFromTarget', { sessionId }).catch(() => undefined);
      return;
    }
    const page: WatchedPage = { targetId, url: '', navSeq: 0 };
    this.#pages.set(sessionId, page);
    const isFirst = this.#pagesSeen++ === 0;
    const enable = async (domain: string, category?: TelemetryCategory) => {
      if (category === undefined || this.#categories.has(category))
        await this.#cdp.send(`${domain}.enable`, {}, sessionId);
    };
    try {
      // Page always: its navigations give every event the page's URL.
      await Promise.all([
        enable('Runtime', 'console'),
        enable('Network', 'network'),
        enable('Page'),
      ]);
      if (!isFirst && this.#categories.has('page'))
        this.#give('page', 'page_tab_opened', 'Target.targetCreated', sessionId, {});
    } catch (error) {
      if (!this.#pages.has(sessionId)) return; // It closed meanwhile.
      this.#emit({
        category: 'monitor',
        type: 'monitor_init_failed',
        source: { kind: 'cdp' },
        data: { step: error instanceof Error ? error.message : String(error) },
      });
    }
  }

  /** An event of a watched page, with the page's context. */
  #give(
    category: TelemetryCategory,
    type: string,
    cdpEvent: string,
    sessionId: string,
    data: Record<string, unknown>,
  ): void {
    const page = this.#pages.get(sessionId);
    if (!page) return;
    this.#emit({
      category,
      type,
      source: { kind: 'cdp', event: cdpEvent },
      data: {
        target_id: page.targetId,
        target_type: 'page',
        session_id: sessionId,
        nav_seq: page.navSeq,
        url: page.url,
        ...data,
      },
    });
  }

  #on(method: string, listener: (params: never, sessionId: string) => void): void {
    this.#stops.push(
      this.#cdp.on(method, (params, sessionId) => {
        if (sessionId !== undefined && this.#pages.has(sessionId))
          listener(params as never, sessionId);
      }),
    );
  }

  #listen(): void {
    if (this.#categories.has('console')) this.#listenConsole();
    if (this.#categories.has('network')) this.#listenNetwork();
    // Navigations keep each page's URL and count, which every category's context names.
    this.#on(
      'Page.frameNavigated',
      (params: { frame: { id: string; parentId?: string; url: string; loaderId: string } }, id) => {
        const page = this.#pages.get(id);
        if (!page || params.frame.parentId !== undefined) return;
        page.url = params.frame.url;
        page.navSeq++;
        if (this.#categories.has('page')) {
          this.#give('page', 'page_navigation', 'Page.frameNavigated', id, {
            frame_id: params.frame.id,
            loader_id: params.frame.loaderId,
          });
        }
      },
    );
    if (!this.#categories.has('page')) return;
    this.#on('Page.domContentEventFired', (params: { timestamp: number }, id) =>
      this.#give('page', 'page_dom_content_loaded', 'Page.domContentEventFired', id, {
        cdp_timestamp: params.timestamp,
      }),
    );
    this.#on('Page.loadEventFired', (params: { timestamp: number }, id) =>
      this.#give('page', 'page_load', 'Page.loadEventFired', id, {
        cdp_timestamp: params.timestamp,
      }),
    );
  }

  #listenConsole(): void {
    this.#on(
      'Runtime.consoleAPICalled',
      (params: { type: string; args: RemoteObject[]; stackTrace?: StackTrace }, id) => {
        const args = params.args.slice(0, MAX_CONSOLE_ARGS).map(argText);
        const isError = params.type === 'error';
        this.#give(
          'console',
          isError ? 'console_error' : 'console_log',
          'Runtime.consoleAPICalled',
          id,
          {
            text: args[0] ?? '',
            args,
            level: params.type,
            ...(params.stackTrace ? { stack_trace: params.stackTrace } : {}),
          },
        );
      },
    );
    this.#on(
      'Runtime.exceptionThrown',
      (
        params: {
          exceptionDetails: {
            text: string;
            url?: string;
            lineNumber?: number;
            columnNumber?: number;
            exception?: RemoteObject;
            stackTrace?: StackTrace;
          };
        },
        id,
      ) => {
        const details = params.exceptionDetails;
        const what = details.exception?.description?.split('\n')[0];
        this.#give('console', 'console_error', 'Runtime.exceptionThrown', id, {
          text: what ? `${details.text} ${what}` : details.text,
          line: details.lineNumber,
          column: details.columnNumber,
          source_url: details.url,
          ...(details.stackTrace ? { stack_trace: details.stackTrace } : {}),
        });
      },
    );
  }

  #listenNetwork(): void {
    this.#on(
      'Network.requestWillBeSent',
      (
        params: {
          requestId: string;
          loaderId: string;
          documentURL: string;
          frameId?: string;
          type?: string;
          initiator?: { type: string };
          redirectResponse?: unknown;
          request: {
            url: string;
            method: string;
            headers: Record<string, unknown>;
            postData?: string;
          };
        },
        id,
      ) => {
        const previous = this.#requests.get(params.requestId);
        this.#follow(params.requestId, {
          url: params.request.url,
          method: params.request.method,
          resourceType: params.type,
        });
        this.#give('network', 'network_request', 'Network.requestWillBeSent', id, {
          url: params.request.url,
          request_id: params.requestId,
          frame_id: params.frameId,
          loader_id: params.loaderId,
          method: params.request.method,
          headers: params.request.headers,
          post_data: params.request.postData,
          document_url: params.documentURL,
          initiator_type: params.initiator?.type,
          resource_type: params.type,
          is_redirect: params.redirectResponse !== undefined,
          ...(params.redirectResponse !== undefined && previous
            ? { redirect_url: previous.url }
            : {}),
        });
      },
    );
    this.#on(
      'Network.responseReceived',
      (params: {
        requestId: string;
        type?: string;
        response: {
          url: string;
          status: number;
          statusText: string;
          headers: Record<string, unknown>;
          mimeType: string;
        };
      }) => {
        const request = this.#requests.get(params.requestId);
        if (!request) return;
        request.response = {
          url: params.response.url,
          status: params.response.status,
          status_text: params.response.statusText,
          headers: params.response.headers,
          mime_type: params.response.mimeType,
        };
      },
    );
    this.#on('Network.loadingFinished', (params: { requestId: string }, id) => {
      const request = this.#requests.get(params.requestId);
      this.#requests.delete(params.requestId);
      if (!request?.response) return;
      this.#give('network', 'network_response', 'Network.loadingFinished', id, {
        request_id: params.requestId,
        method: request.method,
        resource_type: request.resourceType,
        ...request.response,
      });
    });
    this.#on(
      'Network.loadingFailed',
      (params: { requestId: string; errorText: string; canceled?: boolean; type?: string }, id) => {
        const request = this.#requests.get(params.requestId);
        this.#requests.delete(params.requestId);
        this.#give('network', 'network_loading_failed', 'Network.loadingFailed', id, {
          request_id: params.requestId,
          error_text: params.errorText,
          canceled: params.canceled ?? false,
          resource_type: params.type ?? request?.resourceType,
          ...(request ? { url: request.url, method: request.method } : {}),
        });
      },
    );
  }

  /** Keeps a request until it ends; past MAX_REQUESTS_FOLLOWED the oldest is forgotten. */
  #follow(requestId: string, request: FollowedRequest): void {
    this.#requests.delete(requestId);
    this.#requests.set(requestId, request);
    if (this.#requests.size > MAX_REQUESTS_FOLLOWED) {
      const oldest = this.#requests.keys().next().value;
      if (oldest !== undefined) this.#requests.delete(oldest);
    }
  }
}
