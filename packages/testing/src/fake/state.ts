import type { EventBuffer, Waiter } from '@x/service-kernel';
import type {
  BrowserPoolConfig,
  BrowserSession,
  Extension,
  Invocation,
  ProcessOutputEvent,
  Replay,
  WatchEvent,
} from '@x/types';

/** A recording of a browser's screen. */
export interface FakeReplay {
  record: Replay;
  /** Milliseconds after which it stops by itself, from `max_duration_in_seconds`. */
  maxDurationMs: number | undefined;
}

/** A process on a browser's instance, following the lifecycle its script or the test gives it. */
export interface FakeProcess {
  readonly id: string;
  readonly pid: number;
  readonly browserId: string;
  readonly command: string;
  readonly args: readonly string[];
  readonly startedAt: number;
  state: 'running' | 'exited';
  exitCode: number | null;
  cpuPct: number;
  memBytes: number;
  /** Everything it wrote, then its exit: what an output stream replays and follows. */
  readonly output: ProcessOutputEvent[];
  /** Called after each new output event. */
  readonly listeners: Set<() => void>;
  /** Timers of its script and its `timeout_sec`, cleared when it ends. */
  readonly timers: Set<ReturnType<typeof setTimeout>>;
}

/** A directory watch and the events waiting for its reader. */
export interface FakeWatch {
  readonly id: string;
  readonly path: string;
  readonly recursive: boolean;
  /** Its events waiting for the reader, with OVERFLOW for what a slow reader lost. */
  readonly events: EventBuffer<WatchEvent>;
}

/** One browser session and what lives on its instance. */
export interface FakeBrowser {
  session: BrowserSession;
  /** Everything typed into it, in order. */
  typedText: string;
  readonly replays: Map<string, FakeReplay>;
  readonly processes: Map<string, FakeProcess>;
  readonly watches: Map<string, FakeWatch>;
  /** Paths on the instance (`/home/browser/…`) and whether each is a directory or a file. */
  readonly files: Map<string, 'dir' | 'file'>;
  /** Last API call that touched it, in epoch milliseconds: the idle time-out counts from here. */
  lastActivityAt: number;
  /** Serializes typing: one input at a time per browser. */
  typing: Promise<void>;
}

/** A pool and the browsers it holds. */
export interface FakePool {
  readonly id: string;
  name: string | undefined;
  readonly createdAt: string;
  /** Where its browsers' URLs point: the origin the pool was created through. */
  readonly origin: string;
  config: BrowserPoolConfig;
  /** Warm browsers waiting to be acquired, oldest first. */
  readonly idle: string[];
  readonly acquired: Set<string>;
  /** Acquire calls waiting for a browser, first come first served. */
  readonly waiters: Waiter<string>[];
}

/** An uploaded extension: its record and its archive. */
export interface FakeExtension {
  record: Extension;
  readonly archive: Uint8Array;
}

/**
 * Everything the fake holds. Tests read it freely (`fake.state`); they change it through
 * `fake.seed()` and the fake's other methods, which keep its parts consistent.
 */
export interface FakeState {
  readonly browsers: Map<string, FakeBrowser>;
  readonly pools: Map<string, FakePool>;
  readonly extensions: Map<string, FakeExtension>;
  readonly invocations: Map<string, Invocation>;
}

/** An empty state. */
export function createState(): FakeState {
  return { browsers: new Map(), pools: new Map(), extensions: new Map(), invocations: new Map() };
}

/** Finds a record by id first, then by name, as `{id_or_name}` paths do. */
export function findByIdOrName<T>(
  records: Map<string, T>,
  idOrName: string,
  nameOf: (record: T) => string | undefined,
): T | undefined {
  const byId = records.get(idOrName);
  if (byId) return byId;
  for (const record of records.values()) if (nameOf(record) === idOrName) return record;
  return undefined;
}
