import { constants } from 'node:os';
import type { ProcessEnd, RunningProcess } from '../engines.js';
import type { OutputTail } from './output-tail.js';

/** A process on a browser's instance, as the model keeps it until the browser is deleted. */
export interface ProcessEntry {
  readonly id: string;
  readonly startedAt: Date;
  /** Undefined only while the runner is starting it. */
  handle: RunningProcess | undefined;
  exitCode: number | null;
  /** The newest of its output, then its exit: what an output stream replays and follows. */
  readonly output: OutputTail;
  /** Called after each new output event. */
  readonly listeners: Set<() => void>;
  /** Its `timeout_sec` timer, cleared when it ends. */
  timer: ReturnType<typeof setTimeout> | undefined;
  /** Whether it runs on a terminal of its own (then it can be resized). */
  readonly hasTerminal: boolean;
}

/** The exit code of an ending: its code, or 128 + the number of the signal that ended it. */
export function exitCodeOf(end: ProcessEnd): number {
  if (end.signal !== null) {
    const number = constants.signals[end.signal as keyof typeof constants.signals];
    return 128 + (number ?? 0);
  }
  return end.code ?? 0;
}

/** Wakes a process's readers: its output grew, or it ended. */
export function wakeReaders(process: ProcessEntry): void {
  for (const listener of process.listeners) listener();
}

/** Sends a signal to a process that still runs. */
export function signalProcess(process: ProcessEntry, signal: 'TERM' | 'KILL' | 'INT' | 'HUP') {
  if (process.exitCode === null) process.handle?.signal(signal);
}
