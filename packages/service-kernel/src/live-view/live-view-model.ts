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
import { readSessionJwt } from '../session-jwt.js';
import { parseViewerMessage } from './viewer-messages.js';

/**
 * Codes a live view socket closes with; the page tells a person what each means and reconnects
 * only after the others (a network blip, a restart).
 */
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
}

/** A frame as a viewer receives it: a 4-byte length, a JSON header, then the picture. */
function frameMessage(seq: number, frame: ScreenFrame): Uint8Array {
  const header = new TextEncoder().encode(
    JSON.stringify({ seq, width: frame.width, height: frame.height, mime: frame.mime }),
  );
  const message = new Uint8Array(4 + header.byteLength + frame.data.byteLength);
  new DataView(message.buffer).setUint32(0, header.byteLength);
  message.set(header, 4);
  message.set(frame.data, 4 + header.byteLength);
  return message;
}

/** A frame message read back: its header and its picture (for clients other than the page). */
export function readFrameMessage(message: Uint8Array): {
  header: { seq: number; width: number; height: number; mime: string };
  picture: Uint8Array;
} {
  const length = new DataView(message.buffer, message.byteOffset).getUint32(0);
  return {
    header: JSON.parse(new TextDecoder().decode(message.subarray(4, 4 + length))),
    picture: message.subarray(4 + length),
  };
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
      };
      this.#screens.set(id, screen);
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
      default:
        // A read link shows and never sends input, whatever its page says.
        if (viewer.mode !== 'control') return;
        if (viewer.pendingInputs >= MAX_PENDING_INPUTS) {
          this.#leave(screen, viewer, LIVE_CLOSE.protocol, 'Too much input at once.');
          return;
        }
        viewer.pendingInputs += 1;
        this.#computer
          .liveInput(screen.id, message)
          .catch(() => undefined) // The browser ended meanwhile: its viewers hear of it.
          .finally(() => {
            viewer.pendingInputs -= 1;
          });
    }
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
      this.#resize(screen);
      return;
    }
    screen.isStopped = true;
    clearTimeout(screen.nextTimer);
    clearTimeout(screen.resizeTimer);
    this.#screens.delete(screen.id);
    void screen.stream?.stop().catch(() => undefined);
  }
}
