import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

/**
 * Memory this process (a server under test runs in it) holds once garbage is collected: its heap
 * and its buffers. What a test compares before and after, to see what the server kept. The
 * backing stores of collected buffers are freed by a background thread, which lags on a busy
 * machine: the lowest of a few readings, each after a collection and a pause, is what is held.
 */
export async function heldBytes(): Promise<number> {
  let lowest = Number.POSITIVE_INFINITY;
  for (let reading = 0; reading < 5; reading++) {
    collectGarbage();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const { heapUsed, arrayBuffers } = process.memoryUsage();
    lowest = Math.min(lowest, heapUsed + arrayBuffers);
  }
  return lowest;
}

/** A sampler of what this process holds during a transfer (`sampleLiveBytes`). */
export interface LiveSampler {
  /** Stops sampling; the most this process held at once while it ran. */
  stop(): number;
}

/** How long after a sample's first reading its second is taken, ms. */
const SECOND_READING_MS = 30;

/**
 * Samples what this process holds once garbage is collected, from now until `stop`: its peak is
 * what a transfer kept alive at once, not the garbage it made. Each sample is the lower of two
 * readings, each after a collection, 30 ms apart: a collected buffer's backing store is freed by
 * a background thread, which lags on a busy machine, so one reading can count what is already
 * garbage (a CI run read 66 MB where the transfer held far less), while what the transfer keeps
 * shows in both. A full collection of a test worker's heap is slow, slower still on a busy
 * machine, so the next sample waits nine times as long as its collections took (100 ms at
 * least): sampling takes at most a tenth of the process's time, and never starves the server it
 * measures.
 */
export function sampleLiveBytes(): LiveSampler {
  let peak = 0;
  let timer: NodeJS.Timeout | undefined;
  const reading = () => {
    const started = performance.now();
    collectGarbage();
    const { heapUsed, arrayBuffers } = process.memoryUsage();
    return { bytes: heapUsed + arrayBuffers, took: performance.now() - started };
  };
  const sample = () => {
    const first = reading();
    timer = setTimeout(() => {
      const second = reading();
      peak = Math.max(peak, Math.min(first.bytes, second.bytes));
      timer = setTimeout(sample, Math.max(100, 9 * (first.took + second.took)));
    }, SECOND_READING_MS);
  };
  sample();
  return {
    stop() {
      clearTimeout(timer);
      return peak;
    },
  };
}
