import { type BrowserSession, telemetryCategories } from '@x/types';
import type { BrowserInstance } from '../engines.js';
import type { WatchEntry } from '../fs-watch/watch-entry.js';
import { PersonControl } from '../live-view/person-control.js';
import { SessionLog } from '../logs/session-log.js';
import type { ProcessEntry } from '../processes/process-entry.js';
import type { RecordingEntry } from '../replays/recording.js';
import { TelemetryLog } from '../telemetry/telemetry-log.js';

/** One live browser: its record, its instance, and everything that lives on it. */
export interface BrowserEntry<I extends BrowserInstance> {
  record: BrowserSession;
  readonly instance: I;
  readonly processes: Map<string, ProcessEntry>;
  readonly watches: Map<string, WatchEntry>;
  /** Recordings in progress (finished ones are records only). */
  readonly recordings: Map<string, RecordingEntry>;
  /** The replay whose recorder is starting: it holds the one recording slot meanwhile. */
  replayStarting: string | undefined;
  /** Last API or CDP activity, epoch ms of the model's clock: the idle time-out counts from here. */
  lastActivityAt: number;
  /** DevTools and WebDriver BiDi clients connected now: while one is, the browser is in use. */
  clients: number;
  /** When its URLs' jwt expires, epoch seconds. */
  urlExpiresAt: number;
  /** Kept warm by a pool: no idle time-out while nobody holds it. */
  isWarm: boolean;
  /** Serializes input: one call sends input at a time, the next waits for it. */
  input: Promise<void>;
  /** Where the last action left the mouse, and the buttons it left held (bits). */
  pointer: { x: number; y: number; buttons: number };
  /** Whether a person holds control in the live view (the agent's input waits meanwhile). */
  readonly control: PersonControl;
  /** File operations in progress (a streamed read counts until its stream ends). */
  fileOperations: number;
  /** Serializes Playwright code: one run at a time; `waiting` counts the calls in line. */
  playwright: { last: Promise<void>; waiting: number };
  /** Its own service log: what its browser printed and what the service did about it. */
  readonly log: SessionLog;
  /** The events its telemetry keeps (nothing when its record asks for none). */
  readonly telemetry: TelemetryLog;
  /** Log and telemetry streams open on it (a stream of a file also counts as a file operation). */
  logStreams: number;
  /** Aborted once it ends: what streams from it stops. */
  readonly ending: AbortController;
}

/** A live browser's entry as it starts: nothing on it yet, active now by `clock`. */
export function newBrowserEntry<I extends BrowserInstance>(
  record: BrowserSession,
  instance: I,
  clock: () => Date,
): BrowserEntry<I> {
  return {
    record,
    instance,
    processes: new Map(),
    watches: new Map(),
    recordings: new Map(),
    replayStarting: undefined,
    lastActivityAt: clock().getTime(),
    clients: 0,
    urlExpiresAt: 0,
    isWarm: false,
    input: Promise.resolve(),
    pointer: { x: 0, y: 0, buttons: 0 },
    control: new PersonControl(),
    fileOperations: 0,
    playwright: { last: Promise.resolve(), waiting: 0 },
    log: new SessionLog(clock),
    telemetry: new TelemetryLog(telemetryCategories(record.telemetry), clock),
    logStreams: 0,
    ending: new AbortController(),
  };
}
