import type { CliOutput } from '../io.js';
import { formatBytes } from './format.js';

/** Shows how an upload goes: a bar, the bytes and the rate, redrawn in place. */
export interface ProgressBar {
  update(transferred: number, total: number | undefined): void;
  /** Draws the final state and ends the line. */
  finish(): void;
}

const BAR_WIDTH = 24;

/** A progress bar on `stream`; draws nothing when `isEnabled` is false. */
export function createProgressBar(stream: CliOutput, isEnabled: boolean): ProgressBar {
  const started = performance.now();
  let lastDraw = 0;
  let last = { transferred: 0, total: undefined as number | undefined };
  let hasDrawn = false;
  const draw = () => {
    const { transferred, total } = last;
    const seconds = Math.max((performance.now() - started) / 1000, 0.001);
    const rate = `${formatBytes(transferred / seconds)}/s`;
    const fraction = total ? Math.min(transferred / total, 1) : 0;
    const filled = Math.round(fraction * BAR_WIDTH);
    const bar = total
      ? `[${'='.repeat(filled)}${filled < BAR_WIDTH ? '>' : ''}${' '.repeat(Math.max(0, BAR_WIDTH - filled - 1))}]`
      : '[uploading]';
    const size = total
      ? `${formatBytes(transferred)} / ${formatBytes(total)}`
      : formatBytes(transferred);
    stream.write(
      `\r\u001b[2K${bar} ${String(Math.round(fraction * 100)).padStart(3)}%  ${size}  ${rate}`,
    );
    hasDrawn = true;
  };
  return {
    update(transferred, total) {
      last = { transferred, total };
      const now = performance.now();
      // Redraw at most ten times a second: a terminal is slower than a loopback upload.
      if (!isEnabled || now - lastDraw < 100) return;
      lastDraw = now;
      draw();
    },
    finish() {
      if (!isEnabled) return;
      if (last.total !== undefined) last = { transferred: last.total, total: last.total };
      if (hasDrawn || last.transferred > 0) {
        draw();
        stream.write('\n');
      }
    },
  };
}

/** A spinner that says what the CLI waits for. */
export interface Spinner {
  stop(): void;
}

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/** Starts a spinner on `stream` with `text`; does nothing when `isEnabled` is false. */
export function startSpinner(stream: CliOutput, isEnabled: boolean, text: string): Spinner {
  if (!isEnabled) return { stop() {} };
  let frame = 0;
  const draw = () => stream.write(`\r\u001b[2K${FRAMES[frame++ % FRAMES.length]} ${text}`);
  draw();
  const timer = setInterval(draw, 80);
  timer.unref?.();
  return {
    stop() {
      clearInterval(timer);
      stream.write('\r\u001b[2K');
    },
  };
}
