import type { ProcessOutputEvent } from '@x/types';
import { wakeOrAbort } from '../event-stream.js';
import type { ProcessEntry } from './process-entry.js';

/**
 * A process's output from the start and as it comes, ending with its exit event or when `signal`
 * aborts: what an output stream sends, and what exec waits on.
 */
export async function* followProcessOutput(
  process: Pick<ProcessEntry, 'output' | 'listeners'>,
  signal: AbortSignal,
): AsyncGenerator<ProcessOutputEvent, void> {
  const position = process.output.start();
  let wake: (() => void) | undefined;
  const listener = () => wake?.();
  process.listeners.add(listener);
  try {
    while (!signal.aborted) {
      const event = process.output.next(position);
      if (event) {
        yield event;
        if (event.type === 'exit') return;
        continue;
      }
      await wakeOrAbort((resolve) => {
        wake = resolve;
      }, signal);
    }
  } finally {
    process.listeners.delete(listener);
  }
}
