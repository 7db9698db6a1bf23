import { createHash } from 'node:crypto';
import { posix } from 'node:path';
import {
  type BrowserInstance,
  type FsChange,
  INSTANCE_HOME,
  InMemoryTabs,
  type KeyInput,
  MemoryFileTree,
  type MouseInput,
  type ProxyRoute,
  type Region,
  type ScreenFrame,
  type ScreenSize,
  type ScreenStream,
  ServiceError,
  SyntheticScreen,
  type WheelInput,
} from '@x/service-kernel';
import { isShortcut, type Viewport } from '@x/types';
import { solidPng } from '../computer/png.js';
import { screenshotOfSize } from '../computer/screenshots.js';
import type { FakeProcess } from '../processes/fake-process.js';

/** Where the browser saves downloads. */
export const DOWNLOADS = `${INSTANCE_HOME}/Downloads`;

/** Most bytes the files of one fake browser may hold: its disk (past it, writes are 507). */
export const FAKE_DISK_BYTES = 256 * 1024 * 1024;

/** Most input events a fake browser keeps. */
const MAX_INPUTS = 10_000;

/** One input event the fake browser received. */
export type FakeInput =
  | ({ readonly kind: 'mouse' } & MouseInput)
  | ({ readonly kind: 'wheel' } & WheelInput)
  | ({ readonly kind: 'key' } & KeyInput);

/** A watch registered on a fake instance: what it covers and where its events go. */
export interface FakeWatchRegistration {
  readonly path: string;
  readonly recursive: boolean;
  readonly change: (change: FsChange) => void;
}

/** Whether a watch sees a change at `path`, as inotify would. */
export function covers(watch: FakeWatchRegistration, path: string): boolean {
  if (watch.recursive) return path.startsWith(`${watch.path}/`);
  return posix.dirname(path) === watch.path;
}

/**
 * A simulated browser: what was typed into it, its instance's files (paths and whether each is a
 * directory), its processes and the watches on its files. Nothing runs; everything is recorded.
 */
export class FakeInstance extends InMemoryTabs implements BrowserInstance {
  readonly id: string;
  /** Its window size: as launched, then as the last update set it. */
  viewport: Viewport;
  /** Everything typed into it, in order. */
  typedText = '';
  /** The mouse, wheel and key events sent to it, in order (typing aside): the newest 10,000. */
  readonly inputs: FakeInput[] = [];
  /** The text on its clipboard. */
  clipboard = '';
  isCursorHidden = false;
  /** Its files (`/home/browser/…`), held in memory; changes made through them reach its watches. */
  readonly files: MemoryFileTree;
  /** Every process it ran, kept after they end (and after the browser does). */
  readonly processes = new Map<string, FakeProcess>();
  readonly watches = new Set<FakeWatchRegistration>();
  isClosed = false;
  /** Where its traffic would go: the proxy it was created with, if any. */
  proxy: ProxyRoute | undefined;
  /** Saves its files into a profile (the engine's store); nothing to save into without one. */
  saveInto: (profileId: string) => void = () => undefined;
  readonly #exitListeners = new Set<() => void>();
  /** Mouse buttons pressed so far (the screen's colour counts them). */
  #clicks = 0;
  /**
   * Its screen, as the live view shows it: one colour, which changes with every character typed
   * and every click (so a UI test sees its input land), at the viewport's aspect ratio.
   */
  readonly screen = new SyntheticScreen((size) => this.#picture(size));

  constructor(id: string, viewport: Viewport, clock: () => Date = () => new Date()) {
    super();
    this.id = id;
    this.viewport = viewport;
    this.files = new MemoryFileTree({ maxBytes: FAKE_DISK_BYTES, clock });
    this.files.makeDirectory(DOWNLOADS);
    this.files.onChange = (change) => {
      for (const watch of this.watches) if (covers(watch, change.path)) watch.change(change);
    };
  }

  async type(text: string): Promise<void> {
    this.typedText += text;
    this.screen.changed();
  }

  async streamScreen(
    size: ScreenSize,
    onFrame: (frame: ScreenFrame) => void,
  ): Promise<ScreenStream> {
    return this.screen.open(size, onFrame);
  }

  /** The colour the screen shows now: a hue from how much was typed and clicked. */
  get screenColour(): readonly [number, number, number] {
    return hueToRgb(([...this.typedText].length * 37 + this.#clicks * 91) % 360);
  }

  #picture(size: ScreenSize): ScreenFrame {
    const { width, height } = this.viewport;
    const scale = Math.min(1, size.maxWidth / width, size.maxHeight / height);
    const data = solidPng(
      Math.max(1, Math.round(width * scale)),
      Math.max(1, Math.round(height * scale)),
      this.screenColour,
    );
    return { data, mime: 'image/png', width, height };
  }

  /** The extensions loaded into it while it ran: each one's id, and the folder it came from. */
  readonly loadedExtensions = new Map<string, string>();

  /**
   * Loads the extension of a folder of its files as a browser would: one without a readable
   * manifest.json is refused; the id is derived from the folder's path, as Chromium derives it
   * (SHA-256 of the path, its first 32 hex digits written with a–p).
   */
  async loadExtension(folder: string): Promise<string> {
    const manifest = this.files.nodes.get(`${folder}/manifest.json`);
    let isManifest = false;
    try {
      isManifest =
        manifest?.kind === 'file' &&
        typeof JSON.parse(new TextDecoder().decode(manifest.content)) === 'object';
    } catch {
      isManifest = false;
    }
    if (!isManifest)
      throw new ServiceError(
        'bad_request',
        `The browser did not load ${folder}: Manifest file is missing or unreadable.`,
      );
    const digest = createHash('sha256').update(folder).digest('hex').slice(0, 32);
    const id = [...digest]
      .map((digit) => String.fromCharCode(97 + Number.parseInt(digit, 16)))
      .join('');
    this.loadedExtensions.set(id, folder);
    return id;
  }

  async unloadExtension(extensionId: string): Promise<void> {
    this.loadedExtensions.delete(extensionId);
  }

  async setProxy(route: ProxyRoute | undefined): Promise<void> {
    this.proxy = route;
  }

  async setViewport(viewport: Viewport): Promise<void> {
    this.viewport = { ...viewport };
    // Its screen is drawn at the new size from the next frame on.
    this.screen.changed();
  }

  async screenshot(region: Region | undefined): Promise<Uint8Array> {
    const { width, height } = region ?? this.viewport;
    return screenshotOfSize(width, height);
  }

  async mouse(event: MouseInput): Promise<void> {
    this.#record({ kind: 'mouse', ...event });
  }

  async wheel(event: WheelInput): Promise<void> {
    this.#record({ kind: 'wheel', ...event });
  }

  /** Keeps an input, dropping the oldest past the bound: a fake that runs for days stays small. */
  #record(input: FakeInput): void {
    if (this.inputs.length >= MAX_INPUTS)
      this.inputs.splice(0, this.inputs.length - MAX_INPUTS + 1);
    this.inputs.push(input);
    if (input.kind === 'mouse' && input.type === 'down') this.#clicks += 1;
    if (input.kind === 'wheel' || (input.kind === 'mouse' && input.type !== 'move'))
      this.screen.changed();
  }

  /** A key typed with no modifier but Shift adds its character to `typedText`, as a page's field would. */
  async key(event: KeyInput): Promise<void> {
    this.#record({ kind: 'key', ...event });
    if (event.type === 'down' && event.key.length === 1 && !isShortcut(event.modifiers))
      this.typedText += event.key;
    this.screen.changed();
  }

  async setCursorHidden(hidden: boolean): Promise<void> {
    this.isCursorHidden = hidden;
  }

  async readClipboard(): Promise<string> {
    return this.clipboard;
  }

  async writeClipboard(text: string): Promise<void> {
    this.clipboard = text;
  }

  /** A simulated home has no links: the model's containment check is the whole of it. */
  stat(instancePath: string): 'dir' | 'file' | undefined {
    return this.files.kind(instancePath);
  }

  async saveProfile(profileId: string): Promise<void> {
    this.saveInto(profileId);
  }

  onExit(listener: () => void): void {
    this.#exitListeners.add(listener);
  }

  /** Ends the browser as a crash would (the test's doing). */
  crash(): void {
    for (const listener of this.#exitListeners) listener();
  }

  async close(): Promise<void> {
    this.isClosed = true;
    this.watches.clear();
  }
}

/** A fully saturated colour of `hue` degrees, as RGB. */
function hueToRgb(hue: number): [number, number, number] {
  const part = (offset: number) => {
    const k = (offset + hue / 60) % 6;
    return Math.round(255 * (1 - Math.max(0, Math.min(k, 4 - k, 1))));
  };
  return [part(5), part(3), part(1)];
}
