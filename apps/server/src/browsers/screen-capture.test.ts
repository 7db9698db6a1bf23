import type { ScreenFrame } from '@x/service-kernel';
import { describe, expect, it } from 'vitest';
import type { CdpConnection } from './cdp-connection.js';
import { ScreenCapture } from './screen-capture.js';

const TAB = 'tab-session';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A tab's DevTools screencast as Chromium runs it: each start numbers a new screencast, and the
 * test sends its frames. It notes every command sent, in order. `refuse` starts are refused as
 * Chromium refuses them while the tab swaps its renderer; a stop takes `stopMs` to answer.
 */
function fakeTab({ refuse = 0, stopMs = 0 } = {}) {
  const sent: { method: string; sessionId: number | undefined }[] = [];
  let onFrame: ((params: unknown, session: string | undefined) => void) | undefined;
  let screencast = 0;
  let refused = 0;
  const cdp = {
    send: async (method: string, params: Record<string, unknown> = {}) => {
      sent.push({ method, sessionId: params.sessionId as number | undefined });
      if (method === 'Page.stopScreencast') await sleep(stopMs);
      if (method === 'Page.startScreencast') {
        if (refused < refuse) {
          refused += 1;
          throw new Error('Page.startScreencast: Not attached to an active page');
        }
        screencast += 1;
      }
      return {};
    },
    on: (_method: string, listener: (params: unknown, session: string | undefined) => void) => {
      onFrame = listener;
      return () => {
        onFrame = undefined;
      };
    },
  } as unknown as CdpConnection;
  return {
    cdp,
    sent,
    starts: () => screencast,
    refused: () => refused,
    acks: () => sent.filter((each) => each.method === 'Page.screencastFrameAck'),
    /** Chromium sends a frame of the screencast running now (or of `of`, one stopped). */
    frame: (of = screencast) =>
      onFrame?.({ data: '', sessionId: of, metadata: { deviceWidth: 100, deviceHeight: 50 } }, TAB),
    screencast: () => screencast,
  };
}

/** A capture of a fake tab, watched by one consumer that notes the frames it is given. */
async function watched(options?: Parameters<typeof fakeTab>[0]) {
  const tab = fakeTab(options);
  const capture = new ScreenCapture(tab.cdp, TAB);
  const frames: ScreenFrame[] = [];
  const stream = await capture.subscribe({ maxWidth: 100, maxHeight: 50 }, (frame) =>
    frames.push(frame),
  );
  return { tab, capture, frames, stream };
}

describe('the screen of a tab', () => {
  it('costs nothing more for a still page: no restart after a lone frame', async () => {
    const { tab, frames, stream } = await watched();
    tab.frame();
    stream.next();
    await sleep(400);
    expect(frames).toHaveLength(1);
    expect(tab.starts()).toBe(1);
    expect(tab.acks()).toHaveLength(1);
    await stream.stop();
  });

  it('acknowledges every frame it held, and asks again once quiet after a burst', async () => {
    const { tab, frames, stream } = await watched();
    // Three frames while the consumer is busy with the first: Chromium sends no more.
    tab.frame();
    tab.frame();
    tab.frame();
    expect(tab.acks()).toHaveLength(0);
    stream.next(); // the newest is handed over at once
    expect(frames).toHaveLength(2);
    stream.next(); // now it waits: every held frame is acknowledged
    expect(tab.acks()).toHaveLength(3);
    // A change drawn while three waited was dropped: once quiet, the screencast starts again.
    await expect.poll(() => tab.starts(), { timeout: 10_000 }).toBe(2);
    tab.frame();
    expect(frames).toHaveLength(3);
    stream.next();
    await sleep(400);
    expect(tab.starts()).toBe(2);
    await stream.stop();
  });

  it('asks again once quiet after the tab navigated, and lets frames of a stopped screencast go', async () => {
    const { tab, capture, frames, stream } = await watched();
    tab.frame();
    stream.next();
    capture.settle();
    await expect.poll(() => tab.starts(), { timeout: 10_000 }).toBe(2);
    // A late frame of the first screencast is acknowledged and not shown.
    tab.frame(1);
    expect(frames).toHaveLength(1);
    expect(tab.acks().at(-1)?.sessionId).toBe(1);
    tab.frame();
    expect(frames).toHaveLength(2);
    await stream.stop();
  });

  it('asks again after a navigation that came as it started again', async () => {
    const { tab, capture, frames, stream } = await watched({ stopMs: 100 });
    tab.frame();
    stream.next();
    stream.resize({ maxWidth: 200, maxHeight: 100 }); // restarts: the stop takes 100 ms
    await sleep(30);
    capture.settle(); // the tab navigates meanwhile: the new start may miss its page
    await expect.poll(() => tab.starts(), { timeout: 10_000 }).toBe(2);
    await expect.poll(() => tab.starts(), { timeout: 10_000 }).toBe(3);
    tab.frame();
    expect(frames).toHaveLength(2);
    await stream.stop();
  });

  it('asks again once a consumer wants a frame, when the screen came quiet while none did', async () => {
    const { tab, capture, frames, stream } = await watched();
    tab.frame();
    tab.frame();
    stream.next(); // handed the newest at once; two held
    stream.resize({ maxWidth: 200, maxHeight: 100 }); // restarts: nothing held, nobody waits
    await expect.poll(() => tab.starts(), { timeout: 10_000 }).toBe(2);
    capture.settle();
    await sleep(400); // quiet, but nobody wants a frame yet
    expect(tab.starts()).toBe(2);
    stream.next();
    await expect.poll(() => tab.starts(), { timeout: 10_000 }).toBe(3);
    tab.frame();
    expect(frames).toHaveLength(3);
    await stream.stop();
  });

  it('starts again when Chromium refuses a start as the tab swaps its renderer', async () => {
    const { tab, frames, stream } = await watched({ refuse: 2 });
    await expect.poll(() => tab.starts(), { timeout: 10_000 }).toBe(1);
    expect(tab.refused()).toBe(2);
    tab.frame();
    expect(frames).toHaveLength(1);
    await stream.stop();
  });

  it('gives a refused start up after a while, and starts again when the tab navigates', async () => {
    const { tab, capture, frames, stream } = await watched({ refuse: 26 });
    await expect.poll(() => tab.refused(), { timeout: 30_000 }).toBe(26);
    await sleep(400);
    expect(tab.refused()).toBe(26);
    expect(tab.starts()).toBe(0);
    capture.settle();
    await expect.poll(() => tab.starts(), { timeout: 10_000 }).toBe(1);
    tab.frame();
    expect(frames).toHaveLength(1);
    await stream.stop();
  });

  it('holds no more frames than Chromium sends unacknowledged', async () => {
    const { tab, stream } = await watched();
    for (let index = 0; index < 10; index++) tab.frame();
    // Nobody asked for more: all but the last three are let go at once.
    expect(tab.acks()).toHaveLength(7);
    await stream.stop();
  });
});
