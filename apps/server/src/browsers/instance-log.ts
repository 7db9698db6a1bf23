import type { Readable } from 'node:stream';
import { MAX_LOG_LINE_BYTES } from '@x/types';
import { HeldUntilHeard } from './held-until-heard.js';

/** A line of a session's own log, as the kernel hears it. */
export interface InstanceLogLine {
  readonly process: 'browser' | 'service';
  readonly message: string;
}

/** Lines held until someone listens (the browser's first words, the start's own line). */
const MAX_EARLY_LINES = 256;

/**
 * The lines of one browser's own log: its stderr, split into lines (a line longer than
 * MAX_LOG_LINE_BYTES is given in parts, so a browser that never ends a line holds no more than
 * that), and the server's notes about it. Lines written before anyone listens are held, the
 * newest MAX_EARLY_LINES.
 */
export class InstanceLog {
  readonly #lines = new HeldUntilHeard<InstanceLogLine>(MAX_EARLY_LINES);
  #partial = '';

  /** Reads a stream the browser writes to, line by line, until it ends. */
  read(stream: Readable | null | undefined): void {
    stream?.setEncoding('utf8');
    stream?.on('data', (chunk: string) => {
      const text = this.#partial + chunk;
      const lines = text.split('\n');
      let rest = lines.pop() as string;
      for (const line of lines) this.#give({ process: 'browser', message: line });
      while (rest.length > MAX_LOG_LINE_BYTES) {
        this.#give({ process: 'browser', message: rest.slice(0, MAX_LOG_LINE_BYTES) });
        rest = rest.slice(MAX_LOG_LINE_BYTES);
      }
      this.#partial = rest;
    });
    stream?.on('end', () => {
      if (this.#partial !== '') this.#give({ process: 'browser', message: this.#partial });
      this.#partial = '';
    });
  }

  /** A line of the server about this browser. */
  note(message: string): void {
    this.#give({ process: 'service', message });
  }

  /** Hears every line: those held first, then each as it comes. */
  listen(listener: (line: InstanceLogLine) => void): void {
    this.#lines.listen(listener);
  }

  #give(line: InstanceLogLine): void {
    try {
      this.#lines.give(line);
    } catch {
      // A listener that fails misses the line: it never throws into the stream's event, and
      // from there into the process.
    }
  }
}
