import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, parse, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { format } from 'node:util';
import {
  APP_ARCHIVE,
  type AppEngine,
  type ArchiveEntry,
  checkZipEntries,
  DEPLOYS_AT_ONCE,
  type DeployJob,
  type DeployOutcome,
  type FoundApp,
  type InvokeJob,
  type InvokeOutcome,
  ServiceError,
  Slots,
} from '@x/service-kernel';
import { unzipSync } from 'fflate';

/**
 * An action as either app framework keeps it. The fake's context carries `signal` besides the
 * invocation's id: aborted when the invocation is cancelled or runs past its time-out (code in
 * the fake's own process cannot be killed, only told).
 */
export type FakeActionHandler = (
  context: { invocation_id: string; signal?: AbortSignal },
  payload?: unknown,
) => unknown;

/** An app a fake deployment's code defined, with its handlers (run in this process). */
export interface FakeApp {
  readonly name: string;
  readonly actions: ReadonlyMap<string, FakeActionHandler>;
}

/** Where the console of the action running in this async context goes. */
const consoleOfRun = new AsyncLocalStorage<(line: string) => void>();

/** Marks the console as captured once per process (several fakes may run in it). */
const CAPTURED = Symbol.for('@x/testing.fake-console');

/**
 * Sends what an action writes to the console to its invocation's log instead: the console's
 * methods are wrapped once, and a call made outside any action goes where it always went.
 */
function captureConsole(): void {
  const holder = console as unknown as Record<symbol, boolean>;
  if (holder[CAPTURED]) return;
  holder[CAPTURED] = true;
  for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) {
    const original = console[method].bind(console);
    console[method] = (...args: unknown[]) => {
      const log = consoleOfRun.getStore();
      if (log) for (const line of format(...args).split('\n')) log(line);
      else original(...args);
    };
  }
}

/** The global registry `@x/client/apps`' `defineApp` keeps its apps in. */
const CLIENT_APPS = Symbol.for('@x/client.apps');

interface KernelRegistry {
  getApps(): { name: string; actions: Map<string, { handler: FakeActionHandler }> }[];
}

/** The folder `node_modules` of the project the fake runs in: what deployed code imports from. */
function projectModules(from: string): string | undefined {
  for (let folder = resolve(from); ; folder = dirname(folder)) {
    const candidate = join(folder, 'node_modules');
    if (existsSync(candidate)) return candidate;
    if (folder === parse(folder).root) return undefined;
  }
}

function failure(reason: string): DeployOutcome {
  return { ok: false, reason };
}

/**
 * The fake's app engine: a deployment's code runs in the fake's own process. The archive is
 * checked as the server checks it (the same entry rules), unpacked into a temporary folder whose
 * `node_modules` is the project's own (nothing is installed: the packages the code imports must
 * be the test's), and its entrypoint imported to find the apps it defines, with either framework
 * (`@onkernel/sdk`'s `kernel.app()` or `@x/client/apps`' `defineApp()`). TypeScript entrypoints
 * load as Node strips their types.
 */
export class FakeAppEngine implements AppEngine {
  readonly #archives = new Map<string, Uint8Array>();
  readonly #apps = new Map<string, readonly FakeApp[]>();
  readonly #folders = new Map<string, string>();
  readonly #modules: string | undefined;
  #root: Promise<string> | undefined;
  /** Code runs one at a time: each sees its own deployment's environment in process.env. */
  #turn: Promise<unknown> = Promise.resolve();
  /** The invocations whose code runs now. */
  readonly active = new Map<string, string>();
  readonly deploySlots = new Slots(DEPLOYS_AT_ONCE);
  /** Where deployed code reaches the API (KERNEL_BASE_URL, XB_BASE_URL), once known. */
  apiUrl: () => string | undefined = () => undefined;

  constructor(options: { readonly projectFolder?: string } = {}) {
    this.#modules = projectModules(options.projectFolder ?? process.cwd());
  }

  async keep(deploymentId: string, archive: Blob): Promise<{ checksum: string }> {
    const bytes = new Uint8Array(await archive.arrayBuffer());
    this.#archives.set(deploymentId, bytes);
    return { checksum: createHash('sha256').update(bytes).digest('hex') };
  }

  /** The apps a running deployment's code defined, with their handlers. */
  appsOf(deploymentId: string): readonly FakeApp[] {
    return this.#apps.get(deploymentId) ?? [];
  }

  async deploy(job: DeployJob): Promise<DeployOutcome> {
    const archive = this.#archives.get(job.deploymentId);
    if (!archive) return failure('The archive is gone.');
    this.#archives.delete(job.deploymentId);
    const entries: ArchiveEntry[] = [];
    try {
      unzipSync(archive, {
        filter(file) {
          entries.push({ name: file.name, uncompressedSize: file.originalSize });
          return false;
        },
      });
    } catch {
      return failure('The app archive is invalid: it is not a zip archive, or it is truncated.');
    }
    try {
      checkZipEntries(entries, APP_ARCHIVE);
    } catch (error) {
      return failure(error instanceof ServiceError ? error.message : String(error));
    }
    const entrypoint = job.entrypoint.replaceAll('\\', '/');
    if (!entries.some((entry) => entry.name === entrypoint)) {
      return failure(`The entrypoint ${job.entrypoint} is not in the archive.`);
    }
    this.#root ??= mkdtemp(join(tmpdir(), 'xb-fake-apps-'));
    const folder = join(await this.#root, job.deploymentId);
    this.#folders.set(job.deploymentId, folder);
    const files = unzipSync(archive);
    for (const [name, bytes] of Object.entries(files)) {
      if (name.endsWith('/')) continue;
      const target = resolve(folder, name);
      if (!target.startsWith(folder + sep)) continue;
      await mkdir(dirname(target), { recursive: true });
      await writeFile(target, bytes);
    }
    if (this.#modules && !existsSync(join(folder, 'node_modules'))) {
      await symlink(this.#modules, join(folder, 'node_modules'), 'dir');
    }
    job.onLog(
      `Unpacked ${Object.keys(files).length} entries; the fake installs nothing (the code's packages are the project's).`,
    );
    try {
      const apps = await this.#withEnv(job.env, () => this.#load(join(folder, entrypoint)));
      this.#apps.set(job.deploymentId, apps);
      const found: FoundApp[] = apps.map((app) => ({
        name: app.name,
        actions: [...app.actions.keys()].map((name) => ({ name })),
      }));
      return { ok: true, apps: found };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return failure(`The entrypoint cannot be loaded: ${message}`);
    }
  }

  /**
   * Runs `work` in its turn with the deployment's environment in process.env (and the API's
   * address), as the server gives a sandbox its own; process.env is put back after.
   */
  #withEnv<T>(env: Readonly<Record<string, string>>, work: () => Promise<T>): Promise<T> {
    const api = this.apiUrl();
    const given = { ...env, ...(api ? { KERNEL_BASE_URL: api, XB_BASE_URL: api } : {}) };
    const run = this.#turn.then(async () => {
      const saved = Object.fromEntries(Object.keys(given).map((name) => [name, process.env[name]]));
      Object.assign(process.env, given);
      try {
        return await work();
      } finally {
        for (const [name, value] of Object.entries(saved)) {
          if (value === undefined) delete process.env[name];
          else process.env[name] = value;
        }
      }
    });
    // The caller hears of the failure through `run`; the next turn only waits for this one.
    this.#turn = run.catch(() => undefined);
    return run;
  }

  /** Imports the entrypoint and gives the apps it defined (those it defined alone). */
  async #load(entrypoint: string): Promise<FakeApp[]> {
    const holder = globalThis as Record<symbol, unknown>;
    const kernel = await this.#kernelRegistry(entrypoint);
    const before = new Set(kernel?.getApps() ?? []);
    // A registry of its own while it loads: two deployments may define the same app.
    const outer = holder[CLIENT_APPS];
    const defined = new Map<string, FakeApp>();
    holder[CLIENT_APPS] = defined;
    try {
      await import(pathToFileURL(entrypoint).href);
    } finally {
      holder[CLIENT_APPS] = outer;
    }
    const apps = new Map<string, FakeApp>();
    for (const app of kernel?.getApps() ?? []) {
      if (before.has(app) || apps.has(app.name)) continue;
      const actions = new Map<string, FakeActionHandler>();
      for (const [name, action] of app.actions) actions.set(name, action.handler);
      apps.set(app.name, { name: app.name, actions });
    }
    for (const app of defined.values()) if (!apps.has(app.name)) apps.set(app.name, app);
    return [...apps.values()];
  }

  /** The Kernel SDK's app registry the entrypoint would register with, if it can reach one. */
  async #kernelRegistry(entrypoint: string): Promise<KernelRegistry | undefined> {
    let main: string;
    try {
      main = createRequire(entrypoint).resolve('@onkernel/sdk');
    } catch {
      return undefined;
    }
    for (let folder = dirname(main); folder !== dirname(folder); folder = dirname(folder)) {
      const framework = join(folder, 'core', 'app-framework.mjs');
      if (existsSync(framework)) {
        const module = (await import(pathToFileURL(framework).href)) as {
          appRegistry?: KernelRegistry;
        };
        return module.appRegistry;
      }
    }
    return undefined;
  }

  /**
   * Runs an action in this process: its payload parsed, its result as JSON text; a throw or a
   * rejection is the failure with its message. A cancel or the time-out ends the run at once
   * (the handler is told through `context.signal`, and whatever it does after counts for
   * nothing). The deployment's environment was in process.env while its code loaded, not while
   * an action runs: runs overlap. What the action writes to the console (in its own async
   * context) is its invocation's log.
   */
  async invoke(job: InvokeJob): Promise<InvokeOutcome> {
    // Cancelled before it started: an abort listener added now would never hear it.
    if (job.signal.aborted) return failure('Cancelled.');
    const app = this.appsOf(job.deploymentId).find((each) => each.name === job.app);
    const handler = app?.actions.get(job.action);
    if (!handler) {
      return failure(`The code defines no action "${job.action}" of app "${job.app}".`);
    }
    const controller = new AbortController();
    const stop = () => controller.abort();
    job.signal.addEventListener('abort', stop, { once: true });
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stopped = new Promise<InvokeOutcome>((resolve) => {
      timer = setTimeout(() => {
        controller.abort();
        resolve(
          failure(`The code ran past its time-out of ${Math.round(job.timeoutMs / 1000)} s.`),
        );
      }, job.timeoutMs);
      job.signal.addEventListener('abort', () => resolve(failure('Cancelled.')), { once: true });
    });
    captureConsole();
    const ran = consoleOfRun.run(job.onLog, async (): Promise<InvokeOutcome> => {
      try {
        const payload = job.payload === undefined ? undefined : JSON.parse(job.payload);
        const result = await handler(
          { invocation_id: job.invocationId, signal: controller.signal },
          payload,
        );
        return { ok: true, output: result === undefined ? undefined : JSON.stringify(result) };
      } catch (error) {
        if (!(error instanceof Error)) return failure(String(error));
        return failure(
          error.name && error.name !== 'Error' ? `${error.name}: ${error.message}` : error.message,
        );
      }
    });
    try {
      return await Promise.race([ran, stopped]);
    } finally {
      clearTimeout(timer);
      job.signal.removeEventListener('abort', stop);
    }
  }

  async remove(deploymentId: string): Promise<void> {
    this.#archives.delete(deploymentId);
    this.#apps.delete(deploymentId);
    const folder = this.#folders.get(deploymentId);
    this.#folders.delete(deploymentId);
    if (folder) await rm(folder, { recursive: true, force: true });
  }

  /** Removes every deployment's folder (the fake's close). */
  async close(): Promise<void> {
    this.#archives.clear();
    this.#apps.clear();
    this.#folders.clear();
    const root = await this.#root;
    this.#root = undefined;
    if (root) await rm(root, { recursive: true, force: true });
  }
}
