import type { ScreenFrame, ScreenSize, ScreenStream } from '@x/service-kernel';
import type { CdpConnection } from './cdp-connection.js';

/** JPEG quality of the screencast: legible text at a fraction of PNG's cost. */
const JPEG_QUALITY = 75;

/** Longest a stop waits for a tab's answer before the screencast moves on without it. */
const STOP_TIMEOUT_MS = 1000;

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
 * Chromium sends a frame only after the one before is acknowledged, and this acknowledges only
 * once a consumer asked for the next (`ScreenStream.next`): so Chromium encodes no more frames
 * than the most eager consumer takes, and a still page costs nothing.
 */
export class ScreenCapture {
  readonly #cdp: CdpConnection;
  readonly #subscribers = new Set<Subscriber>();
  /** The front tab's DevTools session. */
  #session: string;
  /** Where the screencast runs now, at what size; undefined while stopped. */
  #running: { session: string; size: ScreenSize } | undefined;
  /** A frame not acknowledged yet, held until a consumer wants the next. */
  #unacked: { session: string; id: number } | undefined;
  #last: ScreenFrame | undefined;
  /** Frames received, numbered: `#last` is number `#lastSeq`. */
  #lastSeq = 0;
  #stopListening: (() => void) | undefined;
  /** Frames Chromium sent so far (a test tells a stopped screencast by it). */
  framesReceived = 0;
  /** Start and stop requests run one after another. */
  #queue: Promise<void> = Promise.resolve();

  constructor(cdp: CdpConnection, session: string) {
    this.#cdp = cdp;
    this.#session = session;
  }

  /** Consumers now (0: no screencast runs). */
  get subscriberCount(): number {
    return this.#subscribers.size;
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
    this.#queue = this.#queue.then(async () => {
      const running = this.#running;
      this.#running = undefined;
      this.#unacked = undefined;
      if (running) {
        // A closed tab may never answer: its screencast ended with it.
        let timer: ReturnType<typeof setTimeout> | undefined;
        await Promise.race([
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
      this.#running = { session, size };
      // Whoever waits gets the first picture of the restarted screencast.
      if (!this.#last) for (const subscriber of this.#subscribers) subscriber.wants = true;
      await this.#cdp
        .send(
          'Page.startScreencast',
          { format: 'jpeg', quality: JPEG_QUALITY, ...size, everyNthFrame: 1 },
          session,
        )
        .catch(() => {
          // The tab went away as it started: the next front tab restarts it.
          if (this.#running?.session === session) this.#running = undefined;
        });
    });
  }

  #frame(params: ScreencastFrameParams, session: string | undefined): void {
    if (!session) return;
    if (session !== this.#running?.session) {
      // A frame of a screencast being stopped: let it go.
      void this.#cdp
        .send('Page.screencastFrameAck', { sessionId: params.sessionId }, session)
        .catch(() => undefined);
      return;
    }
    this.framesReceived += 1;
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
    this.#unacked = { session, id: params.sessionId };
    for (const subscriber of this.#subscribers) {
      if (!subscriber.wants) continue;
      subscriber.wants = false;
      subscriber.seen = this.#lastSeq;
      subscriber.onFrame(frame);
    }
    this.#ackIfWanted();
  }

  /** Acknowledges the held frame once some consumer wants the next one. */
  #ackIfWanted(): void {
    const unacked = this.#unacked;
    if (!unacked) return;
    let isWanted = false;
    for (const subscriber of this.#subscribers) isWanted ||= subscriber.wants;
    if (!isWanted) return;
    this.#unacked = undefined;
    void this.#cdp
      .send('Page.screencastFrameAck', { sessionId: unacked.id }, unacked.session)
      .catch(() => undefined);
  }
}
