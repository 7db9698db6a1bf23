import type { Viewport } from '@x/types';
import { ScriptedSignInDriver } from '../auth/scripted-sign-in.js';
import { FetchProviderClient } from '../credentials/fetch-provider-client.js';
import type {
  BrowserEngine,
  BrowserInstance,
  KeyInput,
  LaunchSpec,
  MouseInput,
  ProcessEvents,
  ProxyRoute,
  ScreenFrame,
  ScreenSize,
  WheelInput,
} from '../engines.js';
import { MemoryFileTree, memoryFileSystem } from '../files/memory-file-system.js';
import { createIdGenerator } from '../ids.js';
import { SyntheticScreen } from '../live-view/synthetic-screen.js';
import { InMemoryTabs } from '../live-view/tab-list.js';
import {
  type BrowserLimits,
  DEFAULT_BROWSER_LIMITS,
  type ModelSettings,
  type PoolPeers,
} from '../model-context.js';
import { MemoryProfileStore } from '../profiles/memory-profile-store.js';
import { createMemoryRecordStore } from '../records/memory-record-store.js';
import type { ServiceEngines } from '../service-engines.js';
import { ServiceModel } from '../service-model.js';
import { ScriptedAppEngine } from './scripted-app-engine.js';

/** One input event a RecordingInstance received, with when (performance.now()). */
export type RecordedInput =
  | ({ kind: 'mouse'; at: number } & MouseInput)
  | ({ kind: 'wheel'; at: number } & WheelInput)
  | ({ kind: 'key'; at: number } & KeyInput);

/** A browser that only records: what was typed and sent (with when) and whether it is closed. */
export class RecordingInstance extends InMemoryTabs implements BrowserInstance {
  readonly typed: { text: string; at: number }[] = [];
  readonly inputs: RecordedInput[] = [];
  clipboard = '';
  isCursorHidden = false;
  readonly directories = new Set(['/home/browser']);
  readonly files = new MemoryFileTree({ maxBytes: 1024 * 1024, clock: () => new Date() });
  isClosed = false;
  /** Where `saveProfile` saves (the engines' store). */
  profileStore: MemoryProfileStore | undefined;
  /** Set to make `saveProfile` fail, as a full disk would. */
  saveFailure: Error | undefined;
  readonly #exit = new Set<() => void>();
  /** Its screen: a one-byte picture of what it counts as its colour. */
  colour = 0;
  readonly screen = new SyntheticScreen(() => ({
    data: new Uint8Array([this.colour]),
    mime: 'image/png',
    width: 1280,
    height: 720,
  }));

  async streamScreen(size: ScreenSize, onFrame: (frame: ScreenFrame) => void) {
    return this.screen.open(size, onFrame);
  }

  /** The page changes colour. */
  repaint(colour: number): void {
    this.colour = colour;
    this.screen.changed();
  }

  /** Set to hold `saveProfile` until it settles, as a large profile on a slow disk would. */
  saveGate: Promise<void> | undefined;

  async saveProfile(profileId: string): Promise<void> {
    await this.saveGate;
    if (this.saveFailure) throw this.saveFailure;
    this.profileStore?.save(profileId, this.files);
  }

  async type(text: string): Promise<void> {
    this.typed.push({ text, at: performance.now() });
  }
  async screenshot(): Promise<Uint8Array> {
    return new Uint8Array([1]);
  }
  /** The window sizes it was given while it ran, in order. */
  readonly viewports: Viewport[] = [];
  async setViewport(viewport: Viewport): Promise<void> {
    this.viewports.push({ ...viewport });
  }
  /** The folders of the extensions loaded into it while it ran, by the id each got. */
  readonly extensions = new Map<string, string>();
  async loadExtension(folder: string): Promise<string> {
    const id = `ext${this.extensions.size}`;
    this.extensions.set(id, folder);
    return id;
  }
  async unloadExtension(extensionId: string): Promise<void> {
    this.extensions.delete(extensionId);
  }
  /** The proxies it was switched to while it ran (undefined: direct), in order. */
  readonly proxies: (ProxyRoute | undefined)[] = [];
  async setProxy(route: ProxyRoute | undefined): Promise<void> {
    this.proxies.push(route);
  }
  async mouse(event: MouseInput): Promise<void> {
    this.inputs.push({ kind: 'mouse', at: performance.now(), ...event });
  }
  async wheel(event: WheelInput): Promise<void> {
    this.inputs.push({ kind: 'wheel', at: performance.now(), ...event });
  }
  async key(event: KeyInput): Promise<void> {
    this.inputs.push({ kind: 'key', at: performance.now(), ...event });
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
  stat(path: string) {
    return this.directories.has(path) ? ('dir' as const) : undefined;
  }
  onExit(listener: () => void): void {
    this.#exit.add(listener);
  }
  crash(): void {
    for (const listener of this.#exit) listener();
  }
  async close(): Promise<void> {
    this.isClosed = true;
  }
}

/** In-memory engines for the model's own tests; `launch` answers at once unless `async`. */
export function memoryEngines(options: { async?: boolean } = {}) {
  const instances = new Map<string, RecordingInstance>();
  const processes: {
    spec: { id: string; command: string };
    events: ProcessEvents;
    signals: string[];
  }[] = [];
  const finished: string[] = [];
  const profiles = new MemoryProfileStore();
  const launches: LaunchSpec[] = [];
  const browsers: BrowserEngine<RecordingInstance> = {
    check: () => undefined,
    launch(spec: LaunchSpec) {
      const instance = new RecordingInstance();
      instance.profileStore = profiles;
      if (spec.profileId !== undefined) profiles.load(spec.profileId, instance.files);
      launches.push(spec);
      instances.set(spec.id, instance);
      return options.async ? Promise.resolve(instance) : instance;
    },
  };
  const signIn = new ScriptedSignInDriver<RecordingInstance>();
  const apps = new ScriptedAppEngine();
  const engines: ServiceEngines<RecordingInstance> = {
    browsers,
    files: memoryFileSystem(),
    processes: {
      assertAvailable: () => undefined,
      start(_instance, spec, events) {
        const entry = { spec, events, signals: [] as string[] };
        processes.push(entry);
        return {
          pid: 42,
          signal: (signal) => {
            entry.signals.push(signal);
            events.exit({ code: null, signal: `SIG${signal}` });
          },
          usage: () => ({ cpuPct: 1, memBytes: 2 }),
          writeInput: (bytes) => bytes.byteLength,
          resize: () => undefined,
        };
      },
    },
    playwright: {
      assertAvailable: () => undefined,
      run: async (_instance, run) => ({ success: true, result: run.code }),
    },
    curl: {
      fetch: async (_instance, call) => ({
        kind: 'response',
        status: 200,
        headers: [['content-type', 'text/plain']],
        body: new TextEncoder().encode(`${call.method} ${call.url}`),
      }),
    },
    recorder: {
      assertAvailable: () => undefined,
      async start(_instance, spec) {
        return { finish: async () => void finished.push(spec.replayId) };
      },
      async video() {
        return new Uint8Array([0]);
      },
      recordedUntil: () => undefined,
    },
    watcher: { watch: async () => ({ close: () => undefined }) },
    archives: {
      store: async (file) => ({ key: 'k', sizeBytes: file.size, sha256: '0'.repeat(64) }),
      open: async () => new Uint8Array(),
      remove: () => undefined,
    },
    profiles,
    proxyChecker: {
      check: async (target) =>
        target.host === 'down.test'
          ? { isAvailable: false, reason: 'connection refused' }
          : { isAvailable: true, ipAddress: '192.0.2.7' },
    },
    providers: new FetchProviderClient(),
    signIn,
    secrets: { seal: (plain) => `sealed:${plain}`, open: (sealed) => sealed.slice(7) },
    records: createMemoryRecordStore(),
    apps,
  };
  return { engines, instances, processes, finished, profiles, launches, signIn, apps };
}

/** A model on memory engines, with a clock the test moves. */
export function testModel(
  options: {
    maxBrowsers?: number;
    async?: boolean;
    fillRate?: boolean;
    limits?: Partial<BrowserLimits>;
    /** A node of a cluster: the tag its ids carry, what it holds, whether lists are shared. */
    node?: { tag: string; owns: (id: string) => boolean; poolPeers?: PoolPeers };
    engines?: ReturnType<typeof memoryEngines>;
  } = {},
) {
  let now = Date.parse('2026-11-22T10:00:00.000Z');
  const parts = options.engines ?? memoryEngines(options);
  const model = new ServiceModel<RecordingInstance>({
    engines: parts.engines,
    settings: {
      maxBrowsers: options.maxBrowsers ?? 10,
      isProcessExecutionEnabled: true,
      watchBufferSize: 4,
      jwtSecret: 'secret',
      isFillRateLimited: options.fillRate ?? false,
      limits: { ...DEFAULT_BROWSER_LIMITS, ...options.limits },
      ...(options.node
        ? { owns: options.node.owns, isShared: true, poolPeers: options.node.poolPeers }
        : {}),
    },
    clock: () => new Date(now),
    ...(options.node ? { nextId: createIdGenerator(undefined, options.node.tag) } : {}),
  });
  return {
    ...parts,
    model,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

export const BROWSER = { headless: true, stealth: false, kiosk_mode: false, timeout_seconds: 60 };

/** A test model with one live browser: its id and its recording instance. */
export async function newTestBrowser() {
  const test = testModel();
  const entry = await test.model.browsers.create(BROWSER, 'http://localhost');
  const instance = test.instances.get(entry.record.session_id);
  if (!instance) throw new Error('no instance');
  return { ...test, id: entry.record.session_id, instance };
}

/** The settings of a test's organization: `maxBrowsers` browsers, no fill rate, the default limits. */
export function orgSettings(maxBrowsers = 4): ModelSettings {
  return {
    maxBrowsers,
    isProcessExecutionEnabled: true,
    watchBufferSize: 4,
    jwtSecret: 'secret',
    isFillRateLimited: false,
    limits: DEFAULT_BROWSER_LIMITS,
  };
}
