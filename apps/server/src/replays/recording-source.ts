import type { ScreenStream } from '@x/service-kernel';
import type { ChromiumBrowser } from '../browsers/chromium-browser.js';

/**
 * Frames that came as soon as they were asked for, counted up by each such frame and halved by
 * each late one: reaching it, the page animates without pause. A busy host delays a frame now
 * and then; a page that is still, or changes now and then, sends its frames late every time.
 */
const ANIMATING_FRAMES = 20;

/**
 * How soon after being asked a frame counts as having been waiting, ms: by when Chromium drew it
 * (its swap time), not when it arrived, which adds its encoding and its way here, what a loaded
 * host delays most (measured beside a full test run: drawn 8 to 42 ms after the ask, arrived 22
 * to 115 ms after). A page that changes now and then (a blinking caret: every 530 ms, so drawn
 * 430 ms after an ask 100 ms after the frame before) is late every time.
 */
const AT_ONCE_MS = 150;

/** Identical screenshots in a row after which the page counts as still again. */
const STILL_SCREENSHOTS = 10;

/** A recording's pictures until `stop`. */
export interface RecordingSource {
  stop(): Promise<void>;
}

/**
 * Gives a recording the session's pictures as they change, at most `framerate` a second, from
 * whichever source costs least now:
 * - the session's shared screen stream (the live view's screencast) while the page is still or
 *   someone watches it: a still page sends nothing, and a watched one is captured anyway;
 * - a screenshot each frame interval while the page animates without pause and nobody watches:
 *   a screencast has Chromium draw and capture every frame of an animation (60 a second) whatever
 *   is taken of them, a screenshot only the frames taken. Identical screenshots are not passed
 *   on; ten in a row (a second at 10 fps) and the page counts as still again.
 */
export async function recordScreen(
  chromium: ChromiumBrowser,
  framerate: number,
  onPicture: (jpeg: Uint8Array) => void,
): Promise<RecordingSource> {
  const interval = 1000 / framerate;
  const { viewport } = chromium;
  let isStopped = false;
  let stream: ScreenStream | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let switching: Promise<void> = Promise.resolve();

  /** The stream whose frames are taken; frames of a stream being left are not. */
  let current: object | undefined;

  const fromStream = async () => {
    const token = {};
    current = token;
    let askedAt = 0;
    let atOnce = 0;
    let opened: ScreenStream | undefined;
    opened = await chromium.streamScreen(
      { maxWidth: viewport.width, maxHeight: viewport.height },
      (frame) => {
        if (isStopped || current !== token) return;
        onPicture(frame.data);
        const isAtOnce = askedAt > 0 && (frame.drawnAt ?? Date.now()) - askedAt < AT_ONCE_MS;
        atOnce = isAtOnce ? atOnce + 1 : Math.floor(atOnce / 2);
        // Animating, and the recorder alone on the screencast: screenshots cost less.
        if (atOnce >= ANIMATING_FRAMES && chromium.screen.consumers === 1) {
          switchTo(fromScreenshots);
          return;
        }
        // (A first frame may come before `opened` is known; the next is asked for later.)
        timer = setTimeout(() => {
          askedAt = Date.now();
          opened?.next();
        }, interval);
      },
    );
    stream = opened;
    if (isStopped || current !== token) await opened.stop();
  };

  const fromScreenshots = async () => {
    let previous: Buffer | undefined;
    let still = 0;
    const tick = async () => {
      if (isStopped) return;
      const started = performance.now();
      // Someone watches: their screencast runs anyway, and is shared.
      if (chromium.screen.consumers > 0) {
        switchTo(fromStream);
        return;
      }
      // A screenshot that fails (the tab closing, say) is skipped: the next tick takes one.
      const jpeg = await chromium.jpeg().catch(() => undefined);
      if (isStopped) return;
      if (jpeg && previous?.equals(jpeg)) still += 1;
      else {
        still = 0;
        if (jpeg) onPicture(jpeg);
      }
      previous = jpeg ?? previous;
      if (still >= STILL_SCREENSHOTS) {
        switchTo(fromStream);
        return;
      }
      timer = setTimeout(() => void tick(), Math.max(0, interval - (performance.now() - started)));
    };
    timer = setTimeout(() => void tick(), interval);
  };

  /** Leaves the source in use (its stream stopped) for `next`, one switch at a time. */
  const switchTo = (next: () => Promise<void>) => {
    current = undefined;
    switching = switching.then(async () => {
      clearTimeout(timer);
      const open = stream;
      stream = undefined;
      await open?.stop().catch(() => undefined); // fails only with the browser gone
      // Starting a source fails only with the browser gone: nothing is left to record then.
      if (!isStopped) await next().catch(() => undefined);
    });
  };

  await fromStream();
  return {
    stop: async () => {
      isStopped = true;
      current = undefined;
      clearTimeout(timer);
      await switching;
      clearTimeout(timer);
      const open = stream;
      stream = undefined;
      await open?.stop().catch(() => undefined); // fails only with the browser gone
    },
  };
}
