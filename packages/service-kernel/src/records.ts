import type { BrowserPool, BrowserPoolConfig, ProcessOutputEvent } from '@x/types';
import { wakeOrAbort } from './event-stream.js';

/** What a pool record is made from: its identity, configuration and the browsers it holds. */
export interface PoolLike {
  readonly id: string;
  readonly name: string | undefined;
  readonly createdAt: string;
  readonly config: BrowserPoolConfig;
  readonly idle: readonly string[];
  readonly acquired: ReadonlySet<string>;
}

/** The pool record as it reads now: the counts are always the pool's true counts. */
export function browserPoolRecord(pool: PoolLike): BrowserPool {
  const record: BrowserPool = {
    id: pool.id,
    available_count: pool.idle.length,
    acquired_count: pool.acquired.size,
    created_at: pool.createdAt,
    browser_pool_config: structuredClone(pool.config),
  };
  if (pool.name !== undefined) record.name = pool.name;
  return record;
}

/** A process's output as it grows: its events so far, and listeners called after each new one. */
export interface ProcessOutput {
  readonly output: readonly ProcessOutputEvent[];
  readonly listeners: Set<() => void>;
}

/**
 * A process's output from the start and as it comes, ending with its exit event or when `signal`
 * aborts: what an output stream sends.
 */
export async function* followProcessOutput(
  process: ProcessOutput,
  signal: AbortSignal,
): AsyncGenerator<ProcessOutputEvent, void> {
  let index = 0;
  let wake: (() => void) | undefined;
  const listener = () => wake?.();
  process.listeners.add(listener);
  try {
    while (!signal.aborted) {
      const event = process.output[index];
      if (event) {
        index++;
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
