import type { ScreenFrame, ScreenSize, ScreenStream } from '@x/service-kernel';
import type { CdpConnection } from './cdp-connection.js';

/** JPEG quality of the screencast: legible text at a fraction of PNG's cost. */
const JPEG_QUALITY = 75;

/** Longest a stop waits for a tab's answer before the screencast moves on without it. */
const STOP_TIMEOUT_MS = 1000;

/**
 * Frames closer together than this make a burst; a screen quiet this long after frames that may
 * have been dropped is asked for again.
 */
const SETTLE_MS = 200;

/**
 * Starts in a row that may fail before the screencast is given up until the tab navigates again:
 * a tab swapping its renderer refuses one for a moment ("Not attached to an active page").
 */
const MAX_START_RETRIES = 25;

/** Chromium's own bound on unacknowledged frames: more held than this are let go, oldest first. */
const MAX_HELD_FRAMES = 3;

const isSameSize = (a: ScreenSize, b: ScreenSize) =>
  a.maxWidth === b.maxWidth && a.maxHeight === b.maxHeight;

interface Subscriber {
  readonly onFrame: (frame: ScreenFrame) => void;
  size: ScreenSize;
  /** It asked for a frame and has not had one since. */
  wants: boolean;
  /** The number of the last frame it was given. */
  seen: number;
}

interface ScreencastFrameParams {
  data: string;
  sessionId: number;
  /** `timestamp`: when the frame was drawn (swapped), seconds since the epoch. */
  metadata: { deviceWidth: number; deviceHeight: number; timestamp?: number };
}

/**
 * One DevTools screencast of a browser's front tab, shared by every consumer (live viewers, the
 * recorder): started with the first, stopped with the last, moved when the front tab changes.
 * Chromium keeps at most three frames unacknowledged, and this acknowledges the frames it holds
 * only once a consumer asked for the next (`ScreenStream.next`): so Chromium encodes little more
 * than the most eager consumer takes, and a still page costs nothing.
 *
 * What Chromium draws while three frames wait is dropped, not sent later: the last change of a
 * burst could be lost, leaving the screen on an older picture for as long as the page stays
 * still; and so could a frame drawn as the tab navigates to a page that another renderer draws.
 * So when frames came in a burst or while others waited, or the tab navigated or loaded, and the
 * screen then stays quiet for `SETTLE_MS` with every frame acknowledged, the screencast is started
 * again where it runs, which sends the page's picture as it is now. A start that Chromium refuses
 * while the tab swaps its renderer for a navigation is tried again shortly.
 */
export class ScreenCapture {
  readonly #cdp: CdpConnection;
  readonly #subscribers = new Set<Subscriber>();
  /** The front tab's DevTools session. */
  #session: string;
  /**
   * Where the screencast runs now, at what size; undefined while stopped. Chromium numbers each
   * screencast of a tab: frames numbered `staleUpTo` or less come from one stopped before.
   */
  #running: { session: string; size: ScreenSize; staleUpTo: number } | undefined;
  /** The number of the last screencast a frame came from, and its tab. */
  #lastScreencast: { session: string; id: number } | undefined;
  /** The frames of the running screencast not acknowledged yet, held until a consumer wants more. */
  #held: number[] = [];
  /** A frame came in a burst or while another waited: Chromium may have dropped one since. */
  #mayHaveDropped = false;
  /** When the last frame came (`Date.now()`). */
  #lastFrameAt = 0;
  /** Asks for the screen again once it is quiet after a possible drop. */
  #settleTimer: ReturnType<typeof setTimeout> | undefined;
  #last: ScreenFrame | undefined;
  /** Frames received, numbered: `#last` is number `#lastSeq`. */
  #lastSeq = 0;
  #stopListening: (() => void) | undefined;
  /** Frames Chromium sent so far (a test tells a stopped screencast by it). */
  framesReceived = 0;
  /** Start and stop requests run one after another. */
  #queue: Promise<void> = Promise.resolve();
  /** Restarts asked for and not done yet. */
  #restarting = 0;
  /** Starts that failed in a row in a tab that is still the front one. */
  #failedStarts = 0;

  constructor(cdp: CdpConnection, session: string) {
    this.#cdp = cdp;
    this.#session = session;
  }

  /** Consumers now (0: no screencast runs). */
  get subscriberCount(): number {
    return this.#subscribers.size;
  }

  /**
   * The front tab navigated or loaded: its picture may have changed while Chromium swapped what
   * draws it (a page of another site comes in a renderer of its own), and a frame drawn then
   * may be dropped. Once the screen is quiet, it is asked for again.
   */
  settle(): void {
    if (this.#subscribers.size === 0) return;
    if (!this.#running && this.#restarting === 0) {
      // A start that failed was given up: the tab's new page may take one.
      this.#failedStarts = 0;
      this.#restart();
      return;
    }
    // Noted even while the screencast is being started again: one started as the tab swaps its
    // renderer may never send the new page (the page then stays still, and draws nothing more).
    this.#mayHaveDropped = true;
    if (this.#running && this.#held.length === 0) this.#armSettle();
  }

  /** The front tab changed: the screencast moves to it. */
  follow(session: string): void {
    if (session === this.#session) return;
    this.#session = session;
    if (this.#subscribers.size > 0) this.#restart();
  }

  async subscribe(size: ScreenSize, onFrame: (frame: ScreenFrame) => void): Promise<ScreenStream> {
    const subscriber: Subscriber = { onFrame, size, wants: true, seen: 0 };
    this.#subscribers.add(subscriber);
    const last = this.#last;
    if (this.#running && last) {
      // The screencast runs: the newest picture now, the next on a change.
      subscriber.wants = false;
      subscriber.seen = this.#lastSeq;
      queueMicrotask(() => {
        if (this.#subscribers.has(subscriber)) onFrame(last);
      });
    }
    if (!this.#running || !isSameSize(this.#wantedSize(), this.#running.size)) this.#restart();
    await this.#queue;
    return {
      next: () => {
        if (!this.#subscribers.has(subscriber)) return;
        const last = this.#last;
        if (last && subscriber.seen < this.#lastSeq) {
          // A frame came while it was busy: it gets that one now, not only the next change.
          subscriber.seen = this.#lastSeq;
          subscriber.onFrame(last);
          return;
        }
        subscriber.wants = true;
        this.#ackIfWanted();
      },
      resize: (next) => {
        subscriber.size = next;
        const running = this.#running;
        if (running && !isSameSize(this.#wantedSize(), running.size)) this.#restart();
      },
      stop: async () => {
        if (!this.#subscribers.delete(subscriber)) return;
        if (this.#subscribers.size === 0) this.#restart();
        else this.#ackIfWanted();
        await this.#queue;
      },
    };
  }

  /** The largest size any consumer asked for. */
  #wantedSize(): ScreenSize {
    let maxWidth = 0;
    let maxHeight = 0;
    for (const { size } of this.#subscribers) {
      maxWidth = Math.max(maxWidth, size.maxWidth);
      maxHeight = Math.max(maxHeight, size.maxHeight);
    }
    return { maxWidth, maxHeight };
  }

  /** Stops the screencast where it runs and starts it where and as it is wanted now (if it is). */
  #restart(): void {
    this.#restarting += 1;
    this.#queue = this.#queue.then(async () => {
      try {
        await this.#restartNow();
      } finally {
        this.#restarting -= 1;
      }
    });
  }

  async #restartNow(): Promise<void> {
    const running = this.#running;
    this.#running = undefined;
    this.#held = [];
    this.#mayHaveDropped = false;
    this.#lastFrameAt = 0;
    clearTimeout(this.#settleTimer);
    this.#settleTimer = undefined;
    if (running) {
      // A closed tab may never answer: its screencast ended with it.
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([
        // One that answers with a refusal is gone as well.
        this.#cdp.send('Page.stopScreencast', {}, running.session).catch(() => undefined),
        new Promise((resolve) => {
          timer = setTimeout(resolve, STOP_TIMEOUT_MS);
        }),
      ]);
      clearTimeout(timer);
    }
    if (this.#subscribers.size === 0) {
      this.#stopListening?.();
      this.#stopListening = undefined;
      this.#last = undefined;
      return;
    }
    this.#stopListening ??= this.#cdp.on('Page.screencastFrame', (params, session) =>
      this.#frame(params as ScreencastFrameParams, session),
    );
    const size = this.#wantedSize();
    const session = this.#session;
    const last = this.#lastScreencast;
    this.#running = { session, size, staleUpTo: last?.session === session ? last.id : 0 };
    // Whoever waits gets the first picture of the restarted screencast.
    if (!this.#last) for (const subscriber of this.#subscribers) subscriber.wants = true;
    try {
      await this.#cdp.send(
        'Page.startScreencast',
        { format: 'jpeg', quality: JPEG_QUALITY, ...size, everyNthFrame: 1 },
        session,
      );
      this.#failedStarts = 0;
    } catch {
      if (this.#running?.session === session) this.#running = undefined;
      // The tab went away as it started (the next front tab restarts it), or it is swapping
      // its renderer for a navigation's page and refused for now: tried again shortly.
      if (this.#session === session && this.#failedStarts < MAX_START_RETRIES) {
        this.#failedStarts += 1;
        this.#settleTimer = setTimeout(() => {
          this.#settleTimer = undefined;
          if (!this.#running && this.#restarting === 0) this.#restart();
        }, SETTLE_MS);
      }
      return;
    }
    // The tab navigated or loaded while this started: once quiet, asked for again.
    if (this.#running?.session === session && this.#mayHaveDropped && this.#held.length === 0) {
      this.#armSettle();
    }
  }

  #frame(params: ScreencastFrameParams, session: string | undefined): void {
    if (!session) return;
    const running = this.#running;
    if (session !== running?.session || params.sessionId <= running.staleUpTo) {
      // A frame of a screencast being stopped: let it go.
      this.#ack(session, params.sessionId);
      return;
    }
    this.framesReceived += 1;
    this.#lastScreencast = { session, id: params.sessionId };
    const now = Date.now();
    if (this.#held.length > 0 || now - this.#lastFrameAt < SETTLE_MS) this.#mayHaveDropped = true;
    this.#lastFrameAt = now;
    clearTimeout(this.#settleTimer);
    this.#settleTimer = undefined;
    const frame: ScreenFrame = {
      data: Buffer.from(params.data, 'base64'),
      mime: 'image/jpeg',
      width: Math.round(params.metadata.deviceWidth),
      height: Math.round(params.metadata.deviceHeight),
      drawnAt:
        params.metadata.timestamp === undefined ? undefined : params.metadata.timestamp * 1000,
    };
    this.#last = frame;
    this.#lastSeq += 1;
    this.#held.push(params.sessionId);
    while (this.#held.length > MAX_HELD_FRAMES) this.#ack(session, this.#held.shift() as number);
    for (const subscriber of this.#subscribers) {
      if (!subscriber.wants) continue;
      subscriber.wants = false;
      subscriber.seen = this.#lastSeq;
      subscriber.onFrame(frame);
    }
    this.#ackIfWanted();
  }

  /** Acknowledges the held frames once some consumer wants the next one. */
  #ackIfWanted(): void {
    const running = this.#running;
    if (!running || !this.#isWanted()) return;
    for (const id of this.#held) this.#ack(running.session, id);
    this.#held = [];
    // Also with nothing held: a settle that came due while nobody wanted a frame waits for this.
    if (this.#mayHaveDropped) this.#armSettle();
  }

  /** In `SETTLE_MS` with no frame meanwhile, the screencast is started again where it runs. */
  #armSettle(): void {
    clearTimeout(this.#settleTimer);
    this.#settleTimer = setTimeout(() => {
      this.#settleTimer = undefined;
      // Still quiet, nothing held, and someone waits for a picture: ask for it again.
      if (!this.#mayHaveDropped || this.#held.length > 0 || !this.#isWanted()) return;
      this.#restart();
    }, SETTLE_MS);
  }

  #ack(session: string, id: number): void {
    void this.#cdp
      .send('Page.screencastFrameAck', { sessionId: id }, session)
      .catch(() => undefined); // a tab closed meanwhile sends no more frames
  }

  #isWanted(): boolean {
    for (const subscriber of this.#subscribers) if (subscriber.wants) return true;
    return false;
  }
}
