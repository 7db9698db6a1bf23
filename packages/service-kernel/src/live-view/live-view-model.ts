import {
  type CreateLiveViewBody,
  formatTimestamp,
  type LiveView,
  type LiveViewMode,
  SESSION_URL_LIFETIME_SECONDS,
} from '@x/types';
import type { BrowserEntry } from '../browsers/browser-entry.js';
import type { BrowserModel } from '../browsers/browser-model.js';
import { liveViewUrl } from '../browsers/session-url.js';
import type { ComputerModel } from '../computer/computer-model.js';
import type { BrowserInstance, ScreenFrame, ScreenSize, ScreenStream } from '../engines.js';
import type { ModelContext } from '../model-context.js';
import { ServiceError } from '../service-error.js';
import { readSessionJwt } from '../session-jwt.js';
/**
 * Codes a live view socket closes with; the page tells a person what each means and reconnects
 * only after the others (a network blip, a restart).
 */
import { frameMessage } from './frame-message.js';
import { navigableUrl } from './tab-list.js';
import { parseViewerMessage, type TabRequest } from './viewer-messages.js';

export const LIVE_CLOSE = {
  /** The link expired while it was open, or was never valid. */
  expired: 4401,
  /** The session ended. */
  ended: 4404,
  /** The session has as many viewers as it may. */
  tooMany: 4429,
  /** The page sent what the protocol does not allow (or far too much input). */
  protocol: 1008,
  /** The server is shutting down. */
  goingAway: 1001,
  /** The screen could not be streamed (the browser did not answer). */
  failed: 1011,
} as const;

/** Most viewers one session may have at once. */
export const MAX_VIEWERS_PER_SESSION = 8;

/** Inputs of one viewer waiting their turn past which it is cut off: a flood, not a person. */
const MAX_PENDING_INPUTS = 256;

/** Fewest milliseconds between two frames a viewer is sent: at most 30 a second. */
const MIN_FRAME_INTERVAL_MS = 33;

/** Fewest milliseconds between two changes of the picture size (each restarts the capture). */
const RESIZE_MS = 250;

/** Bounds of the picture size a viewer may ask for, in device pixels. */
const SIZE_BOUNDS = { min: 16, max: 4096 } as const;

/** A person holding control who sends no input for this long lets it go (the agent goes on). */
export const CONTROL_IDLE_MS = 5 * 60_000;

/** How often a held control is checked for idleness. */
const CONTROL_CHECK_MS = 15_000;

/** Fewest milliseconds between two pings of a viewer that are answered. */
const MIN_PING_INTERVAL_MS = 200;

/** Fewest milliseconds between two tab lists sent (a page loading changes its title often). */
const TABS_INTERVAL_MS = 100;

/** Longest tab title and address sent to viewers. */
const MAX_TITLE_CHARS = 300;
const MAX_TAB_URL_CHARS = 8192;

/** Who drives the session, as a viewer is told: nobody holds control, it does, another does. */
type ControlState = 'agent' | 'you' | 'other';

/** What a live view link grants, read from its jwt. */
export interface LiveViewGrant {
  readonly mode: LiveViewMode;
  /** When it expires, epoch seconds. */
  readonly expiresAt: number;
}

/** Why a live view link does not open, as the page tells it. */
export interface LiveViewRefusal {
  readonly status: 401 | 404;
  readonly code: typeof LIVE_CLOSE.expired | typeof LIVE_CLOSE.ended;
  readonly message: string;
}

/** A viewer's socket, as the transport (a WebSocket) gives it to the model. */
export interface ViewerSocket {
  sendText(text: string): void;
  sendBinary(bytes: Uint8Array): void;
  close(code: number, reason: string): void;
}

/** What the transport tells the model about an open viewer. */
export interface ViewerConnection {
  receive(text: string): void;
  closed(): void;
}

interface Viewer {
  readonly socket: ViewerSocket;
  readonly mode: LiveViewMode;
  readonly expiry: ReturnType<typeof setTimeout>;
  /** The last frame sent, and whether the page has not yet said it drew it. */
  sentSeq: number;
  isAwaitingAck: boolean;
  pendingInputs: number;
  size: ScreenSize | undefined;
  /** Its own id in the session's telemetry, and when it arrived (epoch ms). */
  readonly telemetryId: string;
  readonly arrivedAt: number;
  /** When it last pinged, and last sent input or a tab request (epoch ms, the process clock). */
  lastPingAt: number;
  lastInputAt: number;
}

/** One session's screen: one stream shared by every viewer, started with the first, stopped with the last. */
interface SessionScreen {
  readonly id: string;
  readonly entry: BrowserEntry<BrowserInstance>;
  readonly viewers: Set<Viewer>;
  stream: ScreenStream | undefined;
  isStopped: boolean;
  seq: number;
  latest: Uint8Array | undefined;
  lastFrameAt: number;
  nextTimer: ReturnType<typeof setTimeout> | undefined;
  resizeTimer: ReturnType<typeof setTimeout> | undefined;
  size: ScreenSize;
  /** Stops hearing its tabs change; the last tab list sent, and the timer of the next. */
  stopTabs: (() => void) | undefined;
  tabsSent: string;
  tabsTimer: ReturnType<typeof setTimeout> | undefined;
  /** Checks that the person holding control still acts. */
  controlTimer: ReturnType<typeof setInterval> | undefined;
}

const clampSize = (value: number) =>
  Math.min(SIZE_BOUNDS.max, Math.max(SIZE_BOUNDS.min, Math.round(value)));

/**
 * Every rule of the live view, the same in the fake and the server. A link is a jwt scoped to one
 * session and to read or control; it opens the page and its socket, nothing else. Each session
 * runs at most one screen stream, started by its first viewer and stopped by its last; each
 * viewer has at most one frame in flight (sent, not yet drawn), so a slow one gets fewer frames
 * and never a queue. Input from a control link runs in turn with the computer controls; a read
 * link's input is never sent. A viewer counts as activity, and the session record counts them.
 */
export class LiveViewModel<I extends BrowserInstance> {
  readonly #context: ModelContext<I>;
  readonly #browsers: BrowserModel<I>;
  readonly #computer: ComputerModel<I>;
  readonly #screens = new Map<string, SessionScreen>();
  /** Viewers that ever arrived: each one's number names it in telemetry. */
  #viewersSeen = 0;

  constructor(context: ModelContext<I>, browsers: BrowserModel<I>, computer: ComputerModel<I>) {
    this.#context = context;
    this.#browsers = browsers;
    this.#computer = computer;
  }

  /** POST /browsers/{id}/live_view: a fresh link of `mode`, valid `ttl_seconds`. */
  create(id: string, body: CreateLiveViewBody, origin: string): LiveView {
    this.#browsers.live(id);
    const mode = body?.mode ?? 'control';
    const now = this.#context.clock().getTime();
    const expiresAt = Math.floor(now / 1000) + (body?.ttl_seconds ?? SESSION_URL_LIFETIME_SECONDS);
    return {
      url: liveViewUrl(this.#context, id, origin, mode, expiresAt),
      mode,
      expires_at: formatTimestamp(new Date(expiresAt * 1000)),
    };
  }

  /** What a link grants now, or why it does not open: a bad or expired jwt, an ended session. */
  grant(id: string, jwt: string): LiveViewGrant | LiveViewRefusal {
    const now = Math.floor(this.#context.clock().getTime() / 1000);
    const claims = readSessionJwt(this.#context.settings.jwtSecret, jwt, id, now);
    const mode =
      claims?.scope === 'live:control'
        ? 'control'
        : claims?.scope === 'live:read'
          ? 'read'
          : undefined;
    if (!claims || !mode) {
      return {
        status: 401,
        code: LIVE_CLOSE.expired,
        message: 'This live view link has expired or is not valid for this session.',
      };
    }
    if (!this.#browsers.peek(id)) {
      return { status: 404, code: LIVE_CLOSE.ended, message: 'This browser session has ended.' };
    }
    return { mode, expiresAt: claims.expiresAt };
  }

  /** How many people watch a session now. */
  viewersOf(id: string): number {
    return this.#screens.get(id)?.viewers.size ?? 0;
  }

  /** Viewers on every session now (for the metrics). */
  viewerCount(): number {
    let count = 0;
    for (const screen of this.#screens.values()) count += screen.viewers.size;
    return count;
  }

  /**
   * A viewer arrives on its socket with a link's grant (from `grant`): it is sent `hello`, then
   * frames. Refused (the socket closed with its code) past MAX_VIEWERS_PER_SESSION.
   */
  connect(id: string, grant: LiveViewGrant, socket: ViewerSocket): ViewerConnection | undefined {
    const entry = this.#browsers.peek(id);
    if (!entry) {
      socket.close(LIVE_CLOSE.ended, 'This browser session has ended.');
      return undefined;
    }
    let screen = this.#screens.get(id);
    if (screen && screen.viewers.size >= MAX_VIEWERS_PER_SESSION) {
      socket.close(LIVE_CLOSE.tooMany, `A session may have ${MAX_VIEWERS_PER_SESSION} viewers.`);
      return undefined;
    }
    const viewport = entry.record.viewport ?? { width: 1280, height: 720 };
    if (!screen) {
      screen = {
        id,
        entry: entry as BrowserEntry<BrowserInstance>,
        viewers: new Set(),
        stream: undefined,
        isStopped: false,
        seq: 0,
        latest: undefined,
        lastFrameAt: 0,
        nextTimer: undefined,
        resizeTimer: undefined,
        size: { maxWidth: viewport.width, maxHeight: viewport.height },
        stopTabs: undefined,
        tabsSent: '',
        tabsTimer: undefined,
        controlTimer: undefined,
      };
      this.#screens.set(id, screen);
      const opened = screen;
      opened.stopTabs = entry.instance.onTabsChanged(() => this.#tabsChanged(opened));
      this.#start(screen);
    }
    const untilExpiry = grant.expiresAt * 1000 - this.#context.clock().getTime();
    const viewer: Viewer = {
      socket,
      mode: grant.mode,
      // A link that expires while open closes then, as a page opened after would be refused.
      expiry: setTimeout(
        () => this.#leave(screen, viewer, LIVE_CLOSE.expired, 'This live view link has expired.'),
        Math.min(Math.max(0, untilExpiry), 2 ** 31 - 1),
      ),
      sentSeq: 0,
      isAwaitingAck: false,
      pendingInputs: 0,
      size: undefined,
      telemetryId: `viewer_${++this.#viewersSeen}`,
      arrivedAt: this.#context.clock().getTime(),
      lastPingAt: 0,
      lastInputAt: Date.now(),
    };
    screen.viewers.add(viewer);
    entry.telemetry.record({
      category: 'connection',
      type: 'live_view_connect',
      source: { kind: 'kernel_api' },
      data: { session_id: viewer.telemetryId, mode: grant.mode },
    });
    this.#browsers.touch(id);
    socket.sendText(JSON.stringify({ type: 'hello', mode: grant.mode, viewport }));
    socket.sendText(this.#tabsMessage(screen));
    socket.sendText(JSON.stringify({ type: 'control', state: this.#controlState(screen, viewer) }));
    this.#viewersChanged(screen);
    if (screen.latest) this.#send(screen, viewer);
    return {
      receive: (text) => this.#receive(screen, viewer, text),
      closed: () => this.#leave(screen, viewer),
    };
  }

  /** The browser's window changed size: its viewers map their pointers to the new one. */
  resized(id: string, viewport: { readonly width: number; readonly height: number }): void {
    const screen = this.#screens.get(id);
    if (!screen) return;
    const message = JSON.stringify({ type: 'viewport', viewport });
    for (const viewer of screen.viewers) viewer.socket.sendText(message);
  }

  /** The session ends: its viewers are told, its stream stops. */
  ended(id: string): void {
    const screen = this.#screens.get(id);
    if (!screen) return;
    for (const viewer of [...screen.viewers])
      this.#leave(screen, viewer, LIVE_CLOSE.ended, 'This browser session has ended.');
  }

  /** Shutdown: every viewer is let go. */
  close(): void {
    for (const screen of [...this.#screens.values()]) {
      for (const viewer of [...screen.viewers])
        this.#leave(screen, viewer, LIVE_CLOSE.goingAway, 'The server is shutting down.');
    }
  }

  #start(screen: SessionScreen): void {
    screen.entry.instance
      .streamScreen(screen.size, (frame) => this.#frame(screen, frame))
      .then(
        (stream) => {
          // The browser may be gone already; frames of a stopped screen are dropped anyway.
          if (screen.isStopped) void stream.stop().catch(() => undefined);
          else screen.stream = stream;
        },
        (error: unknown) => {
          this.#context.log.error({ err: error, session: screen.id }, 'live view stream failed');
          for (const viewer of [...screen.viewers])
            this.#leave(screen, viewer, LIVE_CLOSE.failed, 'The screen could not be streamed.');
        },
      );
  }

  #frame(screen: SessionScreen, frame: ScreenFrame): void {
    if (screen.isStopped) return;
    screen.seq += 1;
    screen.latest = frameMessage(screen.seq, frame);
    screen.lastFrameAt = Date.now();
    for (const viewer of screen.viewers) if (!viewer.isAwaitingAck) this.#send(screen, viewer);
  }

  #send(screen: SessionScreen, viewer: Viewer): void {
    if (!screen.latest) return;
    viewer.sentSeq = screen.seq;
    viewer.isAwaitingAck = true;
    viewer.socket.sendBinary(screen.latest);
  }

  /** A viewer is ready for more: the newest frame if it has not seen it, else the next change. */
  #ready(screen: SessionScreen, viewer: Viewer): void {
    viewer.isAwaitingAck = false;
    if (screen.seq > viewer.sentSeq) {
      this.#send(screen, viewer);
      return;
    }
    if (screen.nextTimer) return;
    const wait = screen.lastFrameAt + MIN_FRAME_INTERVAL_MS - Date.now();
    if (wait <= 0) {
      screen.stream?.next();
      return;
    }
    screen.nextTimer = setTimeout(() => {
      screen.nextTimer = undefined;
      if (!screen.isStopped) screen.stream?.next();
    }, wait);
  }

  #receive(screen: SessionScreen, viewer: Viewer, text: string): void {
    if (!screen.viewers.has(viewer)) return;
    const message = parseViewerMessage(text);
    if (!message) {
      this.#leave(screen, viewer, LIVE_CLOSE.protocol, 'A message the live view does not know.');
      return;
    }
    this.#browsers.touch(screen.id);
    switch (message.type) {
      case 'ack':
        if (viewer.isAwaitingAck && message.seq === viewer.sentSeq) this.#ready(screen, viewer);
        return;
      case 'size':
        viewer.size = { maxWidth: clampSize(message.width), maxHeight: clampSize(message.height) };
        this.#resize(screen);
        return;
      case 'ping': {
        // Answered at once, so the page's latency is the socket's round trip; a flood is not.
        const now = Date.now();
        if (now - viewer.lastPingAt < MIN_PING_INTERVAL_MS) return;
        viewer.lastPingAt = now;
        viewer.socket.sendText(JSON.stringify({ type: 'pong', id: message.id }));
        return;
      }
      default: {
        // A read link shows and never sends input, whatever its page says.
        if (viewer.mode !== 'control') return;
        viewer.lastInputAt = Date.now();
        if (message.type === 'control') {
          this.#control(screen, viewer, message.action);
          return;
        }
        if (viewer.pendingInputs >= MAX_PENDING_INPUTS) {
          this.#leave(screen, viewer, LIVE_CLOSE.protocol, 'Too much input at once.');
          return;
        }
        // Another person holding control is the only one who drives.
        const holder = screen.entry.control.holder;
        if (holder && holder !== viewer) return;
        viewer.pendingInputs += 1;
        const done =
          message.type === 'navigate' || message.type === 'tab'
            ? this.#tabRequest(screen, message)
            : this.#computer.liveInput(screen.id, message, viewer);
        done
          .catch((error: unknown) => {
            // A refused address is told to the page; a browser that ended meanwhile tells its viewers.
            if (error instanceof ServiceError && screen.viewers.has(viewer)) {
              viewer.socket.sendText(JSON.stringify({ type: 'notice', message: error.message }));
            }
          })
          .finally(() => {
            viewer.pendingInputs -= 1;
          });
      }
    }
  }

  /** Where a person sends the tabs: an address, back, forward, reload; a tab made active, opened, closed. */
  async #tabRequest(screen: SessionScreen, request: TabRequest): Promise<void> {
    const { instance } = screen.entry;
    if (request.type === 'navigate') {
      return 'url' in request
        ? instance.navigate({ url: navigableUrl(request.url) })
        : instance.navigate({ action: request.action });
    }
    if (request.action === 'open') return instance.openTab(navigableUrl(request.url));
    return request.action === 'activate'
      ? instance.activateTab(request.id)
      : instance.closeTab(request.id);
  }

  /** A viewer takes control (the agent's input waits) or lets it go (the agent goes on). */
  #control(screen: SessionScreen, viewer: Viewer, action: 'take' | 'release'): void {
    const { control, instance } = screen.entry;
    if (action === 'take') {
      if (control.holder === viewer) return;
      // Another person holds it: they let go first (their page says so to them).
      if (control.holder) {
        viewer.socket.sendText(JSON.stringify({ type: 'control', state: 'other' }));
        return;
      }
      control.take(viewer);
      instance.holdClientInput(true);
      screen.controlTimer = setInterval(() => this.#checkIdle(screen), CONTROL_CHECK_MS);
      screen.controlTimer.unref?.();
      this.#controlChanged(screen, viewer, 'live_view_control_taken');
      return;
    }
    if (control.holder === viewer) this.#release(screen, viewer, 'released');
  }

  /** Control goes back to the agent: what it sent meanwhile goes on, in order. */
  #release(screen: SessionScreen, viewer: Viewer, why: 'released' | 'idle' | 'left'): void {
    const { control, instance } = screen.entry;
    if (control.holder !== viewer) return;
    control.release();
    clearInterval(screen.controlTimer);
    screen.controlTimer = undefined;
    try {
      instance.holdClientInput(false);
    } catch {
      // The browser is closing: nothing of its clients is left to let go.
    }
    this.#controlChanged(screen, viewer, 'live_view_control_released', why);
  }

  #checkIdle(screen: SessionScreen): void {
    const holder = screen.entry.control.holder as Viewer | undefined;
    if (holder && Date.now() - holder.lastInputAt >= CONTROL_IDLE_MS) {
      this.#release(screen, holder, 'idle');
    }
  }

  /** Tells every viewer who drives now, and the session's telemetry who took or let go. */
  #controlChanged(screen: SessionScreen, viewer: Viewer, type: string, why?: string): void {
    for (const each of screen.viewers) {
      each.socket.sendText(
        JSON.stringify({
          type: 'control',
          state: this.#controlState(screen, each),
          ...(why === 'idle'
            ? { reason: 'Control went back to the agent: nothing was sent for 5 minutes.' }
            : {}),
        }),
      );
    }
    screen.entry.telemetry.record({
      category: 'connection',
      type,
      source: { kind: 'kernel_api' },
      data: { session_id: viewer.telemetryId, ...(why ? { reason: why } : {}) },
    });
  }

  #controlState(screen: SessionScreen, viewer: Viewer): ControlState {
    const holder = screen.entry.control.holder;
    return holder === undefined ? 'agent' : holder === viewer ? 'you' : 'other';
  }

  /** Tells every viewer how many watch now. */
  #viewersChanged(screen: SessionScreen): void {
    const message = JSON.stringify({ type: 'viewers', count: screen.viewers.size });
    for (const viewer of screen.viewers) viewer.socket.sendText(message);
  }

  /** The tabs changed: every viewer hears the new list, at most one a TABS_INTERVAL_MS. */
  #tabsChanged(screen: SessionScreen): void {
    if (screen.tabsTimer || screen.isStopped) return;
    screen.tabsTimer = setTimeout(() => {
      screen.tabsTimer = undefined;
      if (screen.isStopped) return;
      const before = screen.tabsSent;
      const message = this.#tabsMessage(screen);
      if (message === before) return;
      for (const viewer of screen.viewers) viewer.socket.sendText(message);
    }, TABS_INTERVAL_MS);
  }

  #tabsMessage(screen: SessionScreen): string {
    const tabs = screen.entry.instance.tabs().map((tab) => ({
      id: tab.id,
      url: tab.url.slice(0, MAX_TAB_URL_CHARS),
      title: tab.title.slice(0, MAX_TITLE_CHARS),
      active: tab.isActive,
    }));
    screen.tabsSent = JSON.stringify({ type: 'tabs', tabs });
    return screen.tabsSent;
  }

  /** The stream's pictures at the largest size a viewer asked for. */
  #resize(screen: SessionScreen): void {
    // A new size restarts the capture: at most one a RESIZE_MS, whatever a page sends.
    if (screen.resizeTimer) return;
    screen.resizeTimer = setTimeout(() => {
      screen.resizeTimer = undefined;
      if (!screen.isStopped) this.#applySize(screen);
    }, RESIZE_MS);
  }

  #applySize(screen: SessionScreen): void {
    let maxWidth: number = SIZE_BOUNDS.min;
    let maxHeight: number = SIZE_BOUNDS.min;
    for (const viewer of screen.viewers) {
      if (!viewer.size) continue;
      maxWidth = Math.max(maxWidth, viewer.size.maxWidth);
      maxHeight = Math.max(maxHeight, viewer.size.maxHeight);
    }
    if (maxWidth === screen.size.maxWidth && maxHeight === screen.size.maxHeight) return;
    screen.size = { maxWidth, maxHeight };
    screen.stream?.resize(screen.size);
  }

  #leave(screen: SessionScreen, viewer: Viewer, code?: number, reason?: string): void {
    if (!screen.viewers.delete(viewer)) return;
    clearTimeout(viewer.expiry);
    // A person who leaves while holding control gives it back to the agent.
    this.#release(screen, viewer, 'left');
    screen.entry.telemetry.record({
      category: 'connection',
      type: 'live_view_disconnect',
      source: { kind: 'kernel_api' },
      data: {
        session_id: viewer.telemetryId,
        duration_ms: this.#context.clock().getTime() - viewer.arrivedAt,
      },
    });
    if (code !== undefined) {
      viewer.socket.sendText(JSON.stringify({ type: 'closing', code, reason }));
      viewer.socket.close(code, reason ?? '');
    }
    if (screen.viewers.size > 0) {
      this.#viewersChanged(screen);
      this.#resize(screen);
      return;
    }
    screen.isStopped = true;
    clearTimeout(screen.nextTimer);
    clearTimeout(screen.resizeTimer);
    clearTimeout(screen.tabsTimer);
    screen.stopTabs?.();
    this.#screens.delete(screen.id);
    // The browser may be gone already; frames of a stopped screen are dropped anyway.
    void screen.stream?.stop().catch(() => undefined);
  }
}
