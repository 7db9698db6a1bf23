import { type LogEvent, MAX_LOG_LINE_BYTES } from '@x/types';
import { wakeOrAbort } from '../event-stream.js';

/** Which part of the service a line of a session's log comes from. */
export type SessionLogProcess = 'browser' | 'service';

/** Most lines a session's own log keeps: the newest; older ones are dropped. */
export const SESSION_LOG_LINES = 2000;

/** Most bytes of lines a session's own log keeps together. */
export const SESSION_LOG_BYTES = 1024 * 1024;

interface HeldLine {
  readonly seq: number;
  readonly process: SessionLogProcess;
  readonly event: LogEvent;
  readonly bytes: number;
}

const encoder = new TextEncoder();

/** A line cut to MAX_LOG_LINE_BYTES (whole characters), and whether it was cut. */
function bounded(message: string): { message: string; truncated?: true } {
  if (message.length <= MAX_LOG_LINE_BYTES / 4) return { message };
  const bytes = encoder.encode(message);
  if (bytes.byteLength <= MAX_LOG_LINE_BYTES) return { message };
  let end = MAX_LOG_LINE_BYTES;
  while (end > 0 && ((bytes[end] as number) & 0xc0) === 0x80) end--;
  return { message: new TextDecoder().decode(bytes.subarray(0, end)), truncated: true };
}

/**
 * A session's own service log (`logs/stream?source=supervisor`): what its browser printed and what
 * the service did about it, line by line, the newest SESSION_LOG_LINES and SESSION_LOG_BYTES kept.
 * Readers follow it as it grows; one that falls behind what is kept goes on from the oldest line
 * still there.
 */
export class SessionLog {
  readonly #clock: () => Date;
  readonly #lines: HeldLine[] = [];
  readonly #listeners = new Set<() => void>();
  #bytes = 0;
  #next = 0;

  constructor(clock: () => Date) {
    this.#clock = clock;
  }

  /** Adds a line (a multi-line message is one line per line; empty ones are skipped). */
  write(process: SessionLogProcess, message: string): void {
    for (const part of message.split('\n')) {
      const text = part.endsWith('\r') ? part.slice(0, -1) : part;
      if (text === '') continue;
      const line = bounded(text);
      const event: LogEvent = { event: 'log', timestamp: this.#clock().toISOString(), ...line };
      const bytes = line.message.length * 2 + 64;
      this.#lines.push({ seq: this.#next++, process, event, bytes });
      this.#bytes += bytes;
    }
    while (
      this.#lines.length > SESSION_LOG_LINES ||
      (this.#bytes > SESSION_LOG_BYTES && this.#lines.length > 1)
    ) {
      this.#bytes -= (this.#lines.shift() as HeldLine).bytes;
    }
    for (const listener of this.#listeners) listener();
  }

  /**
   * The lines of `process` (every line when undefined). `follow`: those written from now on,
   * until `signal` aborts; otherwise every line kept, then the end.
   */
  async *read(
    options: { readonly process: SessionLogProcess | undefined; readonly follow: boolean },
    signal: AbortSignal,
  ): AsyncGenerator<LogEvent, void> {
    let position = options.follow ? this.#next : 0;
    let wake: (() => void) | undefined;
    const listener = () => wake?.();
    this.#listeners.add(listener);
    try {
      // What was written before the signal aborted is still given (the line saying the browser
      // ended comes just before its end).
      for (;;) {
        const oldest = this.#lines[0]?.seq ?? this.#next;
        const line = this.#lines[Math.max(position, oldest) - oldest];
        if (line) {
          position = line.seq + 1;
          if (options.process === undefined || line.process === options.process) yield line.event;
          continue;
        }
        if (!options.follow || signal.aborted) return;
        await wakeOrAbort((resolve) => {
          wake = resolve;
        }, signal);
      }
    } finally {
      this.#listeners.delete(listener);
    }
  }
}
