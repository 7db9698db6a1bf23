import type {
  FileEntry,
  NetworkEntry,
  ProfileArchiveFormat,
  ProxyProtocol,
  TelemetryCategory,
  Viewport,
} from '@x/types';
import type { FsChange } from './fs-watch/fs-change.js';
import type { SessionLogProcess } from './logs/session-log.js';
import type { TelemetryEventInput } from './telemetry/telemetry-log.js';

/**
 * The engines the service model drives. The model holds every rule of the API; an engine only
 * does what it is asked, on real parts (Chromium, bubblewrap, ffmpeg, inotify, SQLite) in the
 * server, on simulated ones in the fake. A new operation needs one method per engine it touches.
 */

/** A rectangle of the page, in CSS pixels. */
export interface Region {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

/** What a browser is launched with, once the model has checked and resolved the request. */
export interface LaunchSpec {
  /** The session id it will be known by. */
  readonly id: string;
  readonly headless: boolean;
  readonly stealth: boolean;
  readonly kioskMode: boolean;
  readonly viewport: { readonly width: number; readonly height: number };
  /** Archive keys (from the archive store) of the extensions it loads, in order. */
  readonly extensions: readonly string[];
  /** The profile whose saved state it starts with (from the profile store), if any. */
  readonly profileId?: string | undefined;
  /** Where its traffic goes, if not directly. */
  readonly proxy?: ProxyRoute | undefined;
  /** Private destinations it may reach besides the public internet (checked by the model). */
  readonly allowNetworks: readonly NetworkEntry[];
  /** The telemetry categories it captures: the engine reports the page's own (console, …). */
  readonly telemetry?: readonly TelemetryCategory[] | undefined;
  /** Whether it is a pool's warm browser (started ahead already, not on a caller's wait). */
  readonly isForPool?: boolean | undefined;
  /** The page its first tab opens once it runs, without waiting for it to load. */
  readonly startUrl?: string | undefined;
  /** Chrome enterprise policies it starts with, by name, as its managed policies. */
  readonly chromePolicy?: Readonly<Record<string, unknown>> | undefined;
}

/** A proxy as an engine connects to it: the password opened, in memory only. */
export interface ProxyTarget {
  readonly protocol: ProxyProtocol;
  readonly host: string;
  readonly port: number;
  readonly username?: string | undefined;
  readonly password?: string | undefined;
}

/** How a browser's traffic is routed: through `target`, except to `bypassHosts`. */
export interface ProxyRoute extends ProxyTarget {
  readonly bypassHosts: readonly string[];
}

/** What a path on an instance is. */
export type InstanceEntryKind = 'dir' | 'file';

/** Mouse buttons as input events name them; `none` for a move with nothing pressed. */
export type InputButton = 'none' | 'left' | 'right' | 'middle' | 'back' | 'forward';

/** One mouse event at a point of the viewport, in CSS pixels. */
export interface MouseInput {
  readonly type: 'move' | 'down' | 'up';
  readonly x: number;
  readonly y: number;
  /** The button that changes (down, up), or `none` for a move. */
  readonly button: InputButton;
  /** Buttons held during the event, as bits: left 1, right 2, middle 4, back 8, forward 16. */
  readonly buttons: number;
  /** Which click of a run this is (2 for the second of a double click); 0 for a move. */
  readonly clickCount: number;
  /** Modifier keys held, as bits: Alt 1, Control 2, Meta 4, Shift 8. */
  readonly modifiers: number;
}

/** One turn of the mouse wheel at a point of the viewport; deltas in CSS pixels. */
export interface WheelInput {
  readonly x: number;
  readonly y: number;
  readonly deltaX: number;
  readonly deltaY: number;
  readonly modifiers: number;
}

/** A key going down or up: `key` is the DOM key value (`a`, `Enter`, `Shift`, `F5`). */
export interface KeyInput {
  readonly type: 'down' | 'up';
  readonly key: string;
  readonly modifiers: number;
}

/** One picture of a browser's screen, as its live view shows it. */
export interface ScreenFrame {
  /** The picture, encoded as `mime` says. */
  readonly data: Uint8Array;
  readonly mime: 'image/jpeg' | 'image/png';
  /** The viewport it shows, in CSS pixels: what input coordinates on it refer to. */
  readonly width: number;
  readonly height: number;
  /** When the browser drew it (ms since the epoch), where the browser says. */
  readonly drawnAt?: number | undefined;
}

/** One tab of a browser, as its live view shows it (never the server's own hidden tabs). */
export interface BrowserTab {
  /** Its DevTools target id. */
  readonly id: string;
  readonly url: string;
  readonly title: string;
  /** The tab the session is on: input, screenshots and the screen go to it. */
  readonly isActive: boolean;
}

/** Where a person sends the session's tab from its live view: an address, or back, forward, reload. */
export type Navigation =
  | { readonly url: string }
  | { readonly action: 'back' | 'forward' | 'reload' };

/** How large a screen stream's pictures need to be, in device pixels (the viewer's canvas). */
export interface ScreenSize {
  readonly maxWidth: number;
  readonly maxHeight: number;
}

/**
 * A stream of a browser's screen: the current picture first, then one each time the screen
 * changes, but never more than one before `next()` is called again. So a consumer that is slow
 * gets fewer frames, never a queue.
 */
export interface ScreenStream {
  /** The last frame is handled: the next change may come. */
  next(): void;
  /** The pictures are needed at this size now. */
  resize(size: ScreenSize): void;
  /** Ends the stream; no frame arrives after. */
  stop(): Promise<void>;
}

/** One running browser and its instance (the files it sees as `/home/browser`). */
export interface BrowserInstance {
  /** Types `text` at once, each character as real key events; the model paces the characters. */
  type(text: string): Promise<void>;
  /** Sends one mouse event to the page, as a person's mouse would. */
  mouse(event: MouseInput): Promise<void>;
  /** Sends one wheel event to the page. */
  wheel(event: WheelInput): Promise<void>;
  /** Sends one key event to the page. */
  key(event: KeyInput): Promise<void>;
  /** Hides or shows the mouse cursor over pages. */
  setCursorHidden(hidden: boolean): Promise<void>;
  /** The text on the browser's clipboard ('' when it holds none). */
  readClipboard(): Promise<string>;
  /** Puts text on the browser's clipboard, as a copy would. */
  writeClipboard(text: string): Promise<void>;
  /** A PNG of the viewport, or of a region of the page. */
  screenshot(region: Region | undefined): Promise<Uint8Array>;
  /**
   * Gives the running browser a new window size: every tab it shows now and every tab it opens
   * later lays its pages out at that size, as `innerWidth` and `innerHeight` report.
   */
  setViewport(viewport: Viewport): Promise<void>;
  /**
   * Loads the unpacked extension in `folder` (a folder of its home) into the running browser,
   * without a restart; gives the id the browser gave it. Throws a ServiceError 400 the browser's
   * words when it refuses the extension.
   */
  loadExtension(folder: string): Promise<string>;
  /** Unloads an extension it loaded (by its id); one already gone is fine. */
  unloadExtension(extensionId: string): Promise<void>;
  /**
   * Sends the browser's new connections through `route` (undefined: direct, as a browser made
   * without a proxy goes); connections open now keep the way they took.
   */
  setProxy(route: ProxyRoute | undefined): Promise<void>;
  /**
   * Streams the screen of the tab the browser shows, following it to a new tab and across
   * navigations, until stopped. Engines share one capture among all their streams.
   */
  streamScreen(size: ScreenSize, onFrame: (frame: ScreenFrame) => void): Promise<ScreenStream>;
  /**
   * What `instancePath` (absolute, inside `/home/browser`) is on the instance, or undefined when
   * nothing is there. Throws the model's `outsideHome` error when links lead outside the home.
   */
  stat(instancePath: string, field: string): InstanceEntryKind | undefined;
  /**
   * Stops the browser (its state written to its disk as on a normal exit), then stores what a
   * profile keeps of it as profile `profileId`'s new version, whole or not at all: a failure
   * leaves the version before. Called once, just before `close`.
   */
  saveProfile(profileId: string): Promise<void>;
  /** Its tabs, oldest first (the session's own first); never the server's own hidden tabs. */
  tabs(): readonly BrowserTab[];
  /** Hears when a tab opens, closes, navigates, changes its title, or becomes the active one. */
  onTabsChanged(listener: () => void): () => void;
  /** Navigates the active tab (`url`: http, https or about:blank only), or goes back, forward, reloads. */
  navigate(navigation: Navigation): Promise<void>;
  /** Makes a tab the active one (brought to the front; input and the screen follow it). */
  activateTab(tabId: string): Promise<void>;
  /** Opens a tab at `url` (as `navigate` takes it); it becomes the active one. */
  openTab(url: string): Promise<void>;
  /** Closes a tab; the session's first tab stays (it is where input goes when no other is open). */
  closeTab(tabId: string): Promise<void>;
  /**
   * Holds (true) or lets go (false) the input its DevTools clients send (Playwright, Puppeteer,
   * WebDriver BiDi, code run beside it): while held, a client's first input command and all it
   * sends after wait, in order, and go on when let go. A person holds the session's control.
   */
  holdClientInput(isHeld: boolean): void;
  /** Hears when the browser ends by itself (a crash, a kill). */
  onExit(listener: () => void): void;
  /**
   * Hears the lines of its own service log as they come: what the browser prints (`browser`) and
   * what the engine does about it (`service`); lines from before the call are given at once.
   * An engine without such lines leaves it out.
   */
  onLog?(
    listener: (line: { readonly process: SessionLogProcess; readonly message: string }) => void,
  ): void;
  /** Reports the telemetry events it sees of the categories it was launched to capture. */
  onTelemetry?(listener: (event: TelemetryEventInput) => void): void;
  /** Ends the browser and frees what it held; resolves once nothing of it runs. */
  close(): Promise<void>;
}

/** Starts browsers. */
export interface BrowserEngine<I extends BrowserInstance> {
  /** Throws what launching this would answer before anything starts (400 headed without a display). */
  check(spec: { readonly headless: boolean }): void;
  /**
   * Starts a browser. An in-memory engine may answer at once (not a promise): then a pool fills
   * in the same turn, as a test expects.
   */
  launch(spec: LaunchSpec): I | Promise<I>;
}

/** The signals a process can be sent. */
export type ProcessSignal = 'TERM' | 'KILL' | 'INT' | 'HUP';

/** What a process is started with, its `cwd` checked to be a directory inside the home. */
export interface ProcessSpec {
  readonly id: string;
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  /** Whether it gets an input the caller can write to (a spawned one does; exec's reads nothing). */
  readonly stdin: boolean;
  /** A terminal of its own of this size, its input, output and controlling terminal; none: pipes. */
  readonly tty?: { readonly rows: number; readonly cols: number } | undefined;
}

/** How a process ended: its exit code, or the signal that ended it (`SIGKILL`, …). */
export interface ProcessEnd {
  readonly code: number | null;
  readonly signal: string | null;
}

/** What a running process reports to the model. */
export interface ProcessEvents {
  output(stream: 'stdout' | 'stderr', bytes: Uint8Array): void;
  /** Called once, after the last output. */
  exit(end: ProcessEnd): void;
}

/** A process the runner started. */
export interface RunningProcess {
  readonly pid: number;
  /** Sends a signal to the command and what it started; a no-op once it has exited. */
  signal(signal: ProcessSignal): void;
  /** CPU (% of one core over the last window) and resident memory now. */
  usage(): { readonly cpuPct: number; readonly memBytes: number };
  /**
   * Writes to its input; gives the bytes taken. 409 when it has no input or has exited, 429 when
   * it has not read what it was given before.
   */
  writeInput(bytes: Uint8Array): number;
  /** Sets its terminal's size; 400 when it has no terminal. */
  resize(rows: number, cols: number): void;
}

/** Runs processes on instances. */
export interface ProcessRunner<I extends BrowserInstance> {
  /** Throws 503 when processes cannot run here (no sandbox to run them in). */
  assertAvailable(): void;
  /** Starts a command; its output and exit arrive through `events` (possibly before this returns). */
  start(instance: I, spec: ProcessSpec, events: ProcessEvents): RunningProcess;
}

/** Playwright code to run against a browser, as the model passes it on. */
export interface PlaywrightRun {
  readonly code: string;
  /** How long the code may run; past it the runner stops it for good. */
  readonly timeoutMs: number;
}

/** What a run of Playwright code came to (a failure of the code is an outcome, not a throw). */
export interface PlaywrightOutcome {
  readonly success: boolean;
  readonly result?: unknown;
  readonly error?: string;
  readonly stdout?: string;
  readonly stderr?: string;
}

/**
 * Runs Playwright code beside a browser, never in the service's own process. The model calls it
 * one run at a time per browser.
 */
export interface PlaywrightRunner<I extends BrowserInstance> {
  /** Throws 503 when code cannot run here (no sandbox to run it in). */
  assertAvailable(): void;
  /**
   * Runs the code; resolves to its outcome, a time-out included (the code is stopped, and the
   * browser is usable right after). `signal` aborts when the caller went away: the run stops.
   */
  run(instance: I, run: PlaywrightRun, signal: AbortSignal): Promise<PlaywrightOutcome>;
}

/** An HTTP request a browser makes for a curl call, checked. */
export interface CurlCall {
  readonly url: string;
  readonly method: string;
  /** Sent over the headers the browser sends by itself (a name given here wins, any case). */
  readonly headers: Readonly<Record<string, string>>;
  /** Sent as UTF-8. */
  readonly body?: string | undefined;
  /** How long the whole request may take, body included. */
  readonly timeoutMs: number;
  /** Most bytes of body taken; past them the outcome is `tooLarge`. */
  readonly maxBodyBytes: number;
}

/** What a curl call came to: the target's answer, or why there is none. */
export type CurlOutcome =
  | {
      readonly kind: 'response';
      readonly status: number;
      /** Every header as it came, in order (a name may repeat). */
      readonly headers: readonly (readonly [string, string])[];
      readonly body: Uint8Array;
    }
  /** No answer: the network failed it (refused, no such host, egress policy, TLS). */
  | { readonly kind: 'failed'; readonly reason: string }
  | { readonly kind: 'timedOut' }
  | { readonly kind: 'tooLarge' };

/** Makes HTTP requests through a browser's own network stack: its cookies, proxy, policy. */
export interface CurlRunner<I extends BrowserInstance> {
  /** Makes the request; `signal` aborts when the caller went away (the request stops). */
  fetch(instance: I, call: CurlCall, signal: AbortSignal): Promise<CurlOutcome>;
}

/** A recording in progress. */
export interface RecordingHandle {
  /** Stops it and finalizes the video; resolves once it is playable (or known to be lost). */
  finish(): Promise<void>;
}

/** Records browsers' screens as MP4 videos. */
export interface Recorder<I extends BrowserInstance> {
  /** Throws 503 when nothing can record here. */
  assertAvailable(): void;
  /**
   * Starts recording. `ended` is called if the recording stops by itself (the encoder died): the
   * model then finishes the replay with the video there is.
   */
  start(
    instance: I,
    spec: { readonly browserId: string; readonly replayId: string; readonly framerate: number },
    events: { ended(): void },
  ): Promise<RecordingHandle>;
  /** A finished recording's video; undefined when it was lost (the encoder failed). */
  video(browserId: string, replayId: string): Promise<Blob | Uint8Array | undefined>;
  /**
   * After a crash: when the video of a recording the earlier run left open was last written to,
   * or undefined when there is no usable video of it (an unusable file is removed).
   */
  recordedUntil(browserId: string, replayId: string): Date | undefined;
}

/** What a watch reports. */
export interface WatchEvents {
  change(change: FsChange): void;
  /** The watch cannot go on (the directory went away): the model ends it. */
  error(): void;
}

/**
 * Watches directories on instances. `watch` resolves once the watch is in place (a change made
 * after that is reported); it may refuse with a ServiceError (the path turned out not to be a
 * directory inside the home, the watch would take more than the instance may hold).
 */
export interface Watcher<I extends BrowserInstance> {
  watch(
    instance: I,
    spec: { readonly path: string; readonly recursive: boolean },
    events: WatchEvents,
  ): Promise<{ close(): void }>;
}

/**
 * Files on instances. Every path is absolute and inside `/home/browser` once `..` is resolved
 * (the model checked); links are the engine's to follow, and one that leads outside the home is a
 * FileFailure `outside`. A change is whole or not at all: a write that fails or is cut short leaves
 * no partial file. Failures are thrown as FileFailure; the model words the answer.
 */
export interface FileSystem<I extends BrowserInstance> {
  /** A file's bytes, streamed, and its size. */
  read(
    instance: I,
    path: string,
  ): Promise<{ readonly stream: ReadableStream<Uint8Array>; readonly size: number }>;
  /** Writes a file from a stream (its missing parents made), replacing one that is there. */
  write(
    instance: I,
    path: string,
    content: ReadableStream<Uint8Array>,
    mode: number,
  ): Promise<void>;
  /** Writes many files, each as `write` does; each is written whole or not at all. */
  writeMany(
    instance: I,
    files: readonly { readonly path: string; readonly content: Blob }[],
  ): Promise<void>;
  /** The entries of a directory, at most `max` (more: FileFailure `tooMany`). */
  list(instance: I, path: string, max: number): Promise<FileEntry[]>;
  info(instance: I, path: string): Promise<FileEntry>;
  /** Makes a directory and its missing parents; one already there is fine. */
  makeDirectory(instance: I, path: string, mode: number): Promise<void>;
  /** Removes a file or a link (not what it names). */
  removeFile(instance: I, path: string): Promise<void>;
  /** Removes a directory and everything in it. */
  removeDirectory(instance: I, path: string): Promise<void>;
  /** Renames; the destination must not exist and its parent must. */
  move(instance: I, from: string, to: string): Promise<void>;
  setMode(instance: I, path: string, mode: number): Promise<void>;
  /**
   * Unpacks a zip into a directory (made if missing), after checking it by the archive rules
   * (`checkArchiveEntries`); an existing file it would replace is replaced.
   */
  unpack(instance: I, path: string, zip: Blob): Promise<void>;
  /** A directory as a zip, streamed; at most `max` entries (more: FileFailure `tooMany`). */
  zip(instance: I, path: string, max: number): Promise<ReadableStream<Uint8Array>>;
  /**
   * A file's bytes as a log is read: `fromEnd`, what is written to it from now on, never ending
   * (a file replaced under its name, or cut shorter, is read again from its start); otherwise its
   * bytes from the start, ending at its end. Cancelling the stream stops it.
   */
  follow(instance: I, path: string, fromEnd: boolean): Promise<ReadableStream<Uint8Array>>;
}

/** Keeps extension archives, checked as the contract says. */
export interface ArchiveStore {
  /**
   * Checks and keeps an archive; throws 400/413 for one the contract refuses, keeping nothing.
   * Gives its key, its size and the SHA-256 of its bytes (lowercase hex).
   */
  store(
    file: Blob,
  ): Promise<{ readonly key: string; readonly sizeBytes: number; readonly sha256: string }>;
  /** The archive as it was uploaded. */
  open(key: string): Promise<Blob | Uint8Array>;
  /** Lets an archive go (no extension refers to it any more). */
  remove(key: string): void | Promise<void>;
}

/** Keeps the saved state of profiles; browsers load from it and save into it. */
export interface ProfileStore {
  /** A profile's saved data, as a tar (or zstd-compressed tar), streamed; empty before a save. */
  download(profileId: string, format: ProfileArchiveFormat): Promise<ReadableStream<Uint8Array>>;
  /** Forgets a profile's data (it was deleted). */
  remove(profileId: string): Promise<void>;
}

/** What a proxy check found. */
export interface ProxyCheckResult {
  readonly isAvailable: boolean;
  /** The address a site saw the request come from, when it got through. */
  readonly ipAddress?: string | undefined;
  /** Why it is unavailable, for the log: refused, a 407, a time-out. */
  readonly reason?: string | undefined;
}

/** Reaches a site through a proxy, to tell whether it works and what address it exits from. */
export interface ProxyChecker {
  check(target: ProxyTarget): Promise<ProxyCheckResult>;
}

/**
 * Seals secrets kept in records (proxy passwords) so that the records alone do not reveal them:
 * the server encrypts with a key kept outside its data directory.
 */
export interface SecretBox {
  seal(plain: string): string;
  open(sealed: string): string;
}

/** A node of a cluster as the others know it: from the store, as of its last heartbeat. */
export interface NodeFacts {
  readonly id: string;
  /** Where the other nodes reach it. */
  readonly url: string;
  readonly state: 'up' | 'draining' | 'lost';
  /** The browsers it runs at most. */
  readonly capacity: number;
  /** The browsers it ran at its last heartbeat. */
  readonly running: number;
}

/**
 * The nodes of a cluster, as this node knows them (a server alone has none: it is its only
 * node, `local`).
 */
export interface NodeDirectory {
  /** This node's id. */
  readonly self: string;
  /** Every node the store knows, this one and lost ones included. */
  members(): readonly NodeFacts[];
  /**
   * Tells the other nodes that this one drains: no browser is placed on it any more. This
   * node's own placements leave it out from the call on, before its answer.
   */
  drain(): Promise<void>;
}
