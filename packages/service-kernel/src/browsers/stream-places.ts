import type { BrowserEntry } from '../browsers/browser-entry.js';
import type { BrowserInstance } from '../engines.js';
import { refusals } from '../messages.js';

/**
 * Takes one of a browser's stream places (its log and telemetry streams, at most `max`; one more
 * is 429). The function it gives back returns the place, once however often it is called.
 */
export function takeStreamPlace<I extends BrowserInstance>(
  entry: BrowserEntry<I>,
  browserId: string,
  max: number,
): () => void {
  if (entry.logStreams >= max) throw refusals.tooManyLogStreams(browserId, max);
  entry.logStreams++;
  let isHeld = true;
  return () => {
    if (isHeld) entry.logStreams--;
    isHeld = false;
  };
}

/**
 * A stream's producer whose `onAbort` also runs when its signal aborts: a stream cancelled before
 * its first event never runs its generator, and its place must be given back all the same.
 */
export function releasedOnAbort<T>(
  produce: (signal: AbortSignal) => AsyncGenerator<T, void>,
  onAbort: () => void,
): (signal: AbortSignal) => AsyncGenerator<T, void> {
  return (signal) => {
    signal.addEventListener('abort', onAbort, { once: true });
    return produce(signal);
  };
}
