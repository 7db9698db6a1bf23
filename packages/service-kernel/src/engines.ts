import type {
  ApiKey,
  AppVersion,
  AuditLogEntry,
  AuthConnection,
  AuthTimelineEvent,
  BrowserPoolConfig,
  BrowserProxy,
  BrowserSession,
  Credential,
  CredentialProvider,
  Deployment,
  Extension,
  FileEntry,
  Invocation,
  NetworkEntry,
  Profile,
  ProfileArchiveFormat,
  Project,
  ProxyProtocol,
  Replay,
  TelemetryCategory,
  Viewport,
} from '@x/types';
import type { Slots } from './apps/slots.js';
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

/** What a field of a sign-in form asks for, as a sign-in reads it. */
export type SignInFieldKind = 'identifier' | 'password' | 'code' | 'totp_code' | 'text';

/** A field of a sign-in form, as the page shows it. */
export interface SignInField {
  /** A CSS selector that finds it again on this page. */
  readonly selector: string;
  readonly kind: SignInFieldKind;
  /** Its `name` (else `id`): what values are named by. */
  readonly name: string;
  /** Its label (a `<label>`, `aria-label`, or placeholder), for a person. */
  readonly label: string;
  /** Its `type` attribute (text, email, password, tel, number, …). */
  readonly inputType: string;
  readonly placeholder?: string | undefined;
  readonly required: boolean;
}

/** What a page shows, as a sign-in reads it. */
export interface SignInPage {
  readonly url: string;
  /** Still loading, or between two pages: read it again. */
  readonly isLoading: boolean;
  /** The visible fields of its sign-in form (none: no form to fill). */
  readonly fields: readonly SignInField[];
  /** The site's own error message, when one shows (a wrong password). */
  readonly error?: string | undefined;
  /** Something only a person can do, in words (a captcha), when one shows. */
  readonly blocker?: string | undefined;
}

/**
 * Reads and fills sign-in pages in a browser's active tab: the server runs a script in the page
 * (real Chromium); the fake follows a scripted site.
 */
export interface SignInDriver<I extends BrowserInstance> {
  /** Opens `url` in the active tab; resolves once it starts loading. */
  open(instance: I, url: string): Promise<void>;
  /** The page as it is now. */
  read(instance: I): Promise<SignInPage>;
  /**
   * Types each value into its field, as keys a person types, and submits their form; before
   * each key it reads the page's host, and stops (false) when `isAllowedHost` refuses it: what
   * is typed for one site never reaches a page that moved on to another.
   */
  fill(
    instance: I,
    values: readonly { readonly selector: string; readonly value: string }[],
    isAllowedHost: (host: string) => boolean,
  ): Promise<boolean>;
}

/** An auth connection as kept: its settings and last outcome, and its timeline (newest first). */
export interface StoredAuthConnection {
  readonly record: AuthConnection;
  readonly timeline: readonly AuthTimelineEvent[];
  /**
   * Whether an organization-wide caller gave its provider reference: its sign-ins may read that
   * provider's item though the provider is not opened to the project.
   */
  readonly isProviderGranted?: boolean;
}

/** A credential provider's record and its sealed token. */
export interface StoredCredentialProvider {
  readonly record: CredentialProvider;
  readonly sealedToken: string;
}

/** What a credential provider's server answered to a GET. */
export interface ProviderAnswer {
  readonly status: number;
  /** The body parsed as JSON (undefined when it was not JSON). */
  readonly json: unknown;
}

/**
 * Reaches credential providers' servers (1Password Connect) for the service, as the egress
 * policy lets sessions reach (the server pins the address it checked, so a rebinding resolver
 * counts for nothing).
 */
export interface ProviderClient {
  /** Where a provider created without an address answers: the operator's default, if any. */
  readonly defaultUrl?: string | undefined;
  /**
   * GETs `url` with `Authorization: Bearer <token>`; throws an Error saying why when no answer
   * came (refused by the policy, unreachable, too large, too slow).
   */
  get(url: string, token: string): Promise<ProviderAnswer>;
}

/** A proxy's record and its sealed password. */
/**
 * A credential as kept: its record (no secret in it) and its values and TOTP secret, each sealed
 * by the engines' secret box.
 */
export interface StoredCredential {
  readonly record: Credential;
  readonly sealedValues?: string | undefined;
  readonly sealedTotpSecret?: string | undefined;
}

export interface StoredProxy {
  readonly record: BrowserProxy;
  readonly sealedPassword?: string | undefined;
}

/** A deployment as kept: its record and its environment, each value sealed by the secret box. */
export interface StoredDeployment {
  readonly record: Deployment;
  readonly sealedEnv: Readonly<Record<string, string>>;
  /**
   * The API key minted for its deploy (its install and discovery runs; its id, and the key
   * sealed), where keys can be minted: retired once the deploy ends.
   */
  readonly key?: { readonly id: string; readonly sealed: string } | undefined;
  /** The bytes its installed code takes on disk (counted against its project's cap). */
  readonly installedBytes?: number;
  /** Who deployed it: the keys minted for its code work while the deployer's key does. */
  readonly deployer?: { readonly keyId: string; readonly parentKey?: string | undefined };
}

/** An app and its actions as the engine found them in a deployment's code. */
export interface FoundApp {
  readonly name: string;
  readonly actions: readonly { readonly name: string }[];
}

/** A deploy the app engine is asked to run, on the archive it kept for the deployment. */
export interface DeployJob {
  readonly deploymentId: string;
  /** The file to load, relative to the archive's root. */
  readonly entrypoint: string;
  /** The deployment's environment variables, opened, for the code as it loads. */
  readonly env: Readonly<Record<string, string>>;
  /** A line of the install's or the code's output. */
  readonly onLog: (message: string) => void;
  /** Aborted when the deployment is deleted or the service shuts down. */
  readonly signal: AbortSignal;
}

/** How a deploy ended: the apps found, or why it failed (in words for the caller). */
export type DeployOutcome =
  | {
      readonly ok: true;
      readonly apps: readonly FoundApp[];
      /** The bytes its installed code takes on the node's disk, where the engine counts them. */
      readonly bytes?: number;
    }
  | { readonly ok: false; readonly reason: string };

/** An action the app engine is asked to run, in its deployment's installed code. */
export interface InvokeJob {
  readonly deploymentId: string;
  readonly invocationId: string;
  /** The deployment's entrypoint, relative to its folder. */
  readonly entrypoint: string;
  readonly app: string;
  readonly action: string;
  /** The caller's payload, JSON text (checked to parse). */
  readonly payload?: string | undefined;
  /** The deployment's environment variables, opened, its key among them. */
  readonly env: Readonly<Record<string, string>>;
  /** Past it the code is stopped and the run fails, saying so. */
  readonly timeoutMs: number;
  /** A line of the code's console. */
  readonly onLog: (message: string) => void;
  /** Aborted on a cancel: the code is stopped. */
  readonly signal: AbortSignal;
}

/** How a run ended: the action's result (JSON text, if it returned one), or why it failed. */
export type InvokeOutcome =
  | { readonly ok: true; readonly output?: string | undefined }
  | { readonly ok: false; readonly reason: string };

/**
 * What deployments' code is installed and run by: the server in sandboxes, the fake in its own
 * process.
 */
export interface AppEngine {
  /**
   * Keeps a deployment's archive for the deploy to come (the upload is freed once the call is
   * answered); gives its SHA-256 (lowercase hex).
   */
  keep(deploymentId: string, archive: Blob): Promise<{ readonly checksum: string }>;
  /** Checks and unpacks the kept archive, installs its dependencies, finds its apps. */
  deploy(job: DeployJob): Promise<DeployOutcome>;
  /** Removes whatever the deployment has on this node (its archive, its installed code). */
  remove(deploymentId: string): Promise<void>;
  /** Runs one action of a running deployment's code. */
  invoke(job: InvokeJob): Promise<InvokeOutcome>;
  /**
   * The invocations whose code runs on this node now, each with its project (the operator's cap
   * counts them; projects share them fairly).
   */
  readonly active: Map<string, string>;
  /** The places installs take in turn on this node (queued deploys wait for one). */
  readonly deploySlots: Slots;
}

/** Keys a record is found by besides its id. */
export interface RecordKeys {
  /** The record it belongs to (a replay's browser, a browser's invocation). */
  readonly parent?: string | undefined;
  /** Its name, unique among its kind. */
  readonly name?: string | undefined;
  /** Whether it is still open (a browser not deleted, a replay not finished). */
  readonly isOpen?: boolean;
}

/** Which records of a table a list gives. */
export interface RecordFilter {
  readonly parent?: string | undefined;
  readonly isOpen?: boolean | undefined;
}

/**
 * One kind of record, kept in the order first put. Every method answers asynchronously: the
 * store may be a database across the network. A name is unique among the records of a table: a
 * `put` that would give a second record the same name fails with `NameTaken`, whatever raced it.
 */
export interface RecordTable<T> {
  /** The record with this id; with `parent`, only if it belongs to that parent. */
  get(id: string, parent?: string): Promise<T | undefined>;
  byName(name: string): Promise<T | undefined>;
  /** The parent a record is filed under, if any. */
  parentOf(id: string): Promise<string | undefined>;
  /**
   * Adds or replaces a record. A replaced one keeps its place in the order, and every key not
   * given keeps its value.
   */
  put(id: string, record: T, keys?: RecordKeys): Promise<void>;
  delete(id: string): Promise<void>;
  list(filter?: RecordFilter): Promise<T[]>;
}

/** A name another record of its kind holds: what a store throws for a `put` that would repeat it. */
export class NameTaken extends Error {
  override readonly name = 'NameTaken';
  constructor(
    readonly kind: string,
    readonly taken: string,
  ) {
    super(`A ${kind} record named ${JSON.stringify(taken)} exists.`);
  }
}

/** A pool's configuration as kept: its live counts are the model's. */
export interface StoredPool {
  readonly id: string;
  readonly name?: string | undefined;
  readonly created_at: string;
  readonly config: BrowserPoolConfig;
}

/** An extension's record and the key of its archive. */
export interface StoredExtension {
  readonly record: Extension;
  readonly key: string;
}

/** A limit as kept: a number, or null for none. */
export type StoredLimit = number | null;

/** A project's record and its own limits (null: the organization's default). */
export interface StoredProject {
  readonly record: Project;
  readonly limits: {
    readonly max_concurrent_sessions: StoredLimit;
    readonly max_concurrent_invocations: StoredLimit;
  };
}

/** An API key as kept: its record (the key's last characters only) and the key's SHA-256. */
export interface StoredApiKey {
  /** The record without `project_name`, which is read from the project when answered. */
  readonly record: Omit<ApiKey, 'project_name'>;
  /** Hex SHA-256 of the key: what a call's key is looked up by (also the row's name key). */
  readonly digest: string;
  /** When a rotated key stops working, if later than now (a grace period). */
  readonly retiresAt?: string | undefined;
  /**
   * For a key the service minted for deployed code: who deployed the code (a key's id, an
   * operator token's `op_…`). Such a key never deploys or manages keys.
   */
  readonly mintedBy?: string | undefined;
  /** The API key that deployed the code, when one did: the minted key works only while it does. */
  readonly parentKey?: string | undefined;
  /** The key this one was rotated to: a minted key whose parent this is follows it there. */
  readonly rotatedTo?: string | undefined;
}

/** The organization's settings: the defaults of projects' limits. */
export interface StoredOrgSettings {
  readonly default_project_max_concurrent_sessions: StoredLimit;
  readonly default_project_max_concurrent_invocations: StoredLimit;
}

/**
 * The record tables, one per kind. The tables of a project hold its resources; the
 * organization's own records (projects, API keys, settings) are in the organization's scope
 * (`ORG_SCOPE`), whose resource tables stay empty.
 */
export interface RecordTables {
  readonly browsers: RecordTable<BrowserSession>;
  readonly invocations: RecordTable<Invocation>;
  readonly pools: RecordTable<StoredPool>;
  readonly replays: RecordTable<Replay>;
  readonly extensions: RecordTable<StoredExtension>;
  readonly profiles: RecordTable<Profile>;
  readonly proxies: RecordTable<StoredProxy>;
  readonly credentials: RecordTable<StoredCredential>;
  readonly authConnections: RecordTable<StoredAuthConnection>;
  readonly deployments: RecordTable<StoredDeployment>;
  /** App versions, filed under the deployment that brought them; only running ones are kept. */
  readonly appVersions: RecordTable<AppVersion>;
  readonly credentialProviders: RecordTable<StoredCredentialProvider>;
  readonly projects: RecordTable<StoredProject>;
  readonly apiKeys: RecordTable<StoredApiKey>;
  readonly orgSettings: RecordTable<StoredOrgSettings>;
}

/** The kinds of record a project holds: what must be gone before it may be deleted. */
export const PROJECT_RECORD_KINDS = [
  'browsers',
  'invocations',
  'pools',
  'replays',
  'extensions',
  'profiles',
  'proxies',
  'credentials',
  'authConnections',
  'deployments',
  'appVersions',
] as const satisfies readonly (keyof RecordTables)[];

/** Every kind of record, as the tables of a store are named: a project's, then the organization's. */
export const RECORD_KINDS = [
  ...PROJECT_RECORD_KINDS,
  'projects',
  'apiKeys',
  'orgSettings',
  'credentialProviders',
] as const satisfies readonly (keyof RecordTables)[];

/** The scope of the organization's own records; every other scope is a project's id. */
export const ORG_SCOPE = '';

/** A store's tables, one made by `make` for each kind of record. */
export function recordTablesOf(make: (kind: string) => RecordTable<unknown>): RecordTables {
  return Object.fromEntries(
    RECORD_KINDS.map((kind) => [kind, make(kind)]),
  ) as unknown as RecordTables;
}

/**
 * Where records live: memory in the fake, SQLite or PostgreSQL in the server. A store that
 * cannot be reached (a database restarting) throws a ServiceError `unavailable` (503) with
 * `Retry-After`.
 */
export interface RecordStore extends RecordTables {
  /**
   * Runs `work` on tables whose writes land together or not at all: `work` throwing undoes them.
   * Nothing else writes between its reads and its writes.
   */
  transaction<R>(work: (tables: RecordTables) => Promise<R>): Promise<R>;
}

/**
 * Every record the service keeps, in scopes: one per project, and the organization's
 * (`ORG_SCOPE`). A scope sees only its own records; names are unique within a scope and kind;
 * ids are unique everywhere (a record of another scope is simply not found).
 */
export interface RecordStores {
  scope(scope: string): RecordStore;
}

/** Stores of scopes made by `make` when first named, then the same one each time. */
export function scopesOf<S extends RecordStore>(
  make: (scope: string) => S,
): { scope(scope: string): S; clear(): void } {
  const scopes = new Map<string, S>();
  return {
    scope(scope) {
      let store = scopes.get(scope);
      if (!store) {
        store = make(scope);
        scopes.set(scope, store);
      }
      return store;
    },
    clear: () => scopes.clear(),
  };
}

/** Which entries of the audit log a page gives: newest first, before `before` when given. */
export interface AuditQuery {
  /** Inclusive. */
  readonly start: Date;
  /** Exclusive. */
  readonly end: Date;
  readonly method?: string | undefined;
  /** In the path, key id or name, client IP or status, any case. */
  readonly search?: string | undefined;
  /** Only this project's entries. */
  readonly project?: string | undefined;
  /** Go on after this entry (the last of the page before): its time and id. */
  readonly after?: { readonly timestamp: string; readonly id: string } | undefined;
  readonly limit: number;
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

/** Where the audit log is kept: memory in the fake, SQLite or PostgreSQL in the server. */
export interface AuditStore {
  append(entry: AuditLogEntry): Promise<void>;
  /** Entries matching `query`, newest first (by time, then id), at most `query.limit`. */
  page(query: AuditQuery): Promise<AuditLogEntry[]>;
  /** Forgets entries older than `before`; gives how many went. */
  prune(before: Date): Promise<number>;
}

/** Every engine of one implementation. */
export interface ServiceEngines<I extends BrowserInstance> {
  readonly browsers: BrowserEngine<I>;
  readonly processes: ProcessRunner<I>;
  readonly playwright: PlaywrightRunner<I>;
  readonly curl: CurlRunner<I>;
  readonly recorder: Recorder<I>;
  readonly watcher: Watcher<I>;
  readonly files: FileSystem<I>;
  readonly archives: ArchiveStore;
  readonly profiles: ProfileStore;
  readonly proxyChecker: ProxyChecker;
  readonly providers: ProviderClient;
  readonly signIn: SignInDriver<I>;
  readonly secrets: SecretBox;
  readonly records: RecordStore;
  readonly apps: AppEngine;
}
