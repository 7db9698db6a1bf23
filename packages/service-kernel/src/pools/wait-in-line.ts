/** Someone waiting in a line: called with what they were handed, or undefined when they gave up. */
export type Waiter<T> = (value: T | undefined) => void;

/**
 * Joins `line` and waits until whoever serves it hands over a value (by shifting the waiter and
 * calling it), for at most `timeoutMs` or until `signal` aborts; then resolves to undefined and
 * leaves the line. First come, first served: a pool's acquire calls wait this way. `isFirst`: at
 * the head of the line (a caller that was served, but lost what it was handed to a race).
 */
export function waitInLine<T>(
  line: Waiter<T>[],
  timeoutMs: number,
  signal: AbortSignal,
  isFirst = false,
): Promise<T | undefined> {
  if (timeoutMs === 0 || signal.aborted) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    const waiter: Waiter<T> = (value) => {
      clearTimeout(timer);
      signal.removeEventListener('abort', giveUp);
      resolve(value);
    };
    const giveUp = () => {
      const index = line.indexOf(waiter);
      if (index !== -1) line.splice(index, 1);
      waiter(undefined);
    };
    const timer = setTimeout(giveUp, timeoutMs);
    signal.addEventListener('abort', giveUp, { once: true });
    if (isFirst) line.unshift(waiter);
    else line.push(waiter);
  });
}
