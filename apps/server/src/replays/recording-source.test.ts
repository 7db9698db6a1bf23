import type { ScreenFrame, ScreenSize, ScreenStream } from '@x/service-kernel';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChromiumBrowser } from '../browsers/chromium-browser.js';
import { recordScreen } from './recording-source.js';

/**
 * A browser's screen as the recorder sees it: each frame asked for is drawn `drawnAfterMs` after
 * the ask and arrives `arrivesAfterMs` after it (its encoding and its way, which a loaded host
 * stretches); screenshots differ every time (an animating page).
 */
function fakeScreen(drawnAfterMs: number, arrivesAfterMs: number) {
  const timers = new Set<ReturnType<typeof setTimeout>>();
  let consumers = 0;
  let screenshots = 0;
  const browser = {
    viewport: { width: 1280, height: 720 },
    screen: {
      get consumers() {
        return consumers;
      },
    },
    jpeg: async () => {
      screenshots += 1;
      return Buffer.from(`shot ${screenshots}`);
    },
    streamScreen: async (
      _size: ScreenSize,
      onFrame: (frame: ScreenFrame) => void,
    ): Promise<ScreenStream> => {
      consumers += 1;
      let isOpen = true;
      const send = () => {
        const drawnAt = Date.now() + drawnAfterMs;
        const timer = setTimeout(() => {
          timers.delete(timer);
          if (isOpen)
            onFrame({ data: new Uint8Array(1), mime: 'image/jpeg', width: 1, height: 1, drawnAt });
        }, arrivesAfterMs);
        timers.add(timer);
      };
      send();
      return {
        next: send,
        resize: () => undefined,
        stop: async () => {
          if (isOpen) consumers -= 1;
          isOpen = false;
        },
      };
    },
  };
  return {
    browser: browser as unknown as ChromiumBrowser,
    screenshots: () => screenshots,
    consumers: () => consumers,
    clear: () => {
      for (const timer of timers) clearTimeout(timer);
    },
  };
}

const screens: ReturnType<typeof fakeScreen>[] = [];

afterEach(() => {
  for (const screen of screens.splice(0)) screen.clear();
});

async function recordFor(drawnAfterMs: number, arrivesAfterMs: number, ms: number) {
  const screen = fakeScreen(drawnAfterMs, arrivesAfterMs);
  screens.push(screen);
  const source = await recordScreen(screen.browser, 50, () => undefined);
  await new Promise((resolve) => setTimeout(resolve, ms));
  const figures = { screenshots: screen.screenshots(), consumers: screen.consumers() };
  await source.stop();
  return figures;
}

describe('recordScreen', () => {
  it('takes an animating page by screenshots though its frames arrive late, drawn at once', async () => {
    // Frames drawn 10 ms after the ask, arriving 250 ms after it: a busy host's pipe.
    const figures = await recordFor(10, 250, 9_000);
    expect(figures.consumers).toBe(0);
    expect(figures.screenshots).toBeGreaterThan(0);
  }, 20_000);

  it('stays on the screencast for a page drawn late every time', async () => {
    // A blinking caret: drawn 430 ms after an ask made 100 ms after the frame before.
    const figures = await recordFor(430, 440, 6_000);
    expect(figures.consumers).toBe(1);
    expect(figures.screenshots).toBe(0);
  }, 20_000);
});
