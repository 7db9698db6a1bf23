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

/**
 * Memory this process holds right now once garbage is collected (one reading, no pause): sampled
 * during a transfer, its peak is what the transfer kept alive at once, not the garbage it made.
 */
export function liveBytes(): number {
  collectGarbage();
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return heapUsed + arrayBuffers;
}
