/**
 * The server's app engine: a deployment's archive is kept on disk as it is uploaded, then checked
 * as every upload is, unpacked and installed in a sandbox (AppRunner.install), and its apps found
 * by loading its entrypoint in another (AppRunner.discover). The installed folder stays in the
 * data directory, under deployments/<id>, until the deployment stops.
 */
import { createHash } from 'node:crypto';
import { createWriteStream, mkdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join, posix } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import {
  APP_ARCHIVE,
  type AppEngine,
  DEPLOYS_AT_ONCE,
  type DeployJob,
  type DeployOutcome,
  type FoundApp,
  type InvokeJob,
  type InvokeOutcome,
  ServiceError,
  Slots,
} from '@x/service-kernel';
import type { NetworkEntry } from '@x/types';
import { type CheckedArchive, checkArchive } from '../extensions/archive-store.js';
import { freeBytes } from '../system/free-space.js';
import type { AppRunner } from './app-runner.js';
import type { NpmSetup } from './npm-setup.js';

/** How long an install may take. */
const INSTALL_TIMEOUT_MS = 10 * 60_000;

/** How long loading an entrypoint to find its apps may take. */
const DISCOVER_TIMEOUT_MS = 60_000;

/** The most bytes an installed app may hold (its node_modules included). */
export const MAX_INSTALLED_BYTES = 1024 * 1024 * 1024;

/** Free space on the data disk an install needs to start. */
const INSTALL_FREE_BYTES = 256 * 1024 * 1024;

/** What the app engine is made of. */
export interface SandboxAppEngineOptions {
  /** Undefined on a host without bubblewrap: deploys fail, saying so. */
  readonly runner: AppRunner | undefined;
  readonly dataDir: string;
  readonly npm: NpmSetup;
  /** What installs may reach besides public destinations (the registry, when it is private). */
  readonly installNetworks: () => readonly NetworkEntry[];
  /** What code may reach when it loads (the API, at the server's own port). */
  readonly codeNetworks: () => readonly NetworkEntry[];
  /** The environment the code gets besides its deployment's (the API's address). */
  readonly codeEnv: () => Readonly<Record<string, string>>;
}

/** Whether `entrypoint` names a file inside the app: relative, never climbing out. */
function isInsideApp(entrypoint: string): boolean {
  const normal = posix.normalize(entrypoint.replaceAll('\\', '/'));
  return !posix.isAbsolute(normal) && normal !== '..' && !normal.startsWith('../');
}

export class SandboxAppEngine implements AppEngine {
  readonly #options: SandboxAppEngineOptions;
  readonly #folder: string;

  constructor(options: SandboxAppEngineOptions) {
    this.#options = options;
    this.#folder = join(options.dataDir, 'deployments');
    mkdirSync(this.#folder, { recursive: true, mode: 0o700 });
  }

  /** Where a deployment's installed code is. */
  folderOf(deploymentId: string): string {
    return join(this.#folder, deploymentId);
  }

  #archiveOf(deploymentId: string): string {
    return join(this.#folder, `${deploymentId}.zip`);
  }

  async keep(deploymentId: string, archive: Blob): Promise<{ checksum: string }> {
    const hash = createHash('sha256');
    const path = this.#archiveOf(deploymentId);
    try {
      await pipeline(
        Readable.fromWeb(archive.stream() as NodeReadableStream<Uint8Array>),
        new Transform({
          transform(chunk: Buffer, _encoding, done) {
            hash.update(chunk);
            done(null, chunk);
          },
        }),
        createWriteStream(path, { flags: 'wx', mode: 0o600 }),
      );
    } catch (error) {
      await rm(path, { force: true });
      throw error;
    }
    return { checksum: hash.digest('hex') };
  }

  async deploy(job: DeployJob): Promise<DeployOutcome> {
    const { runner, npm } = this.#options;
    if (!runner) {
      return { ok: false, reason: 'This server cannot run code: bubblewrap is not installed.' };
    }
    if (!isInsideApp(job.entrypoint)) {
      return { ok: false, reason: `The entrypoint ${job.entrypoint} is outside the app.` };
    }
    const target = this.folderOf(job.deploymentId);
    let checked: CheckedArchive | string | undefined;
    let bytes: number | undefined;
    try {
      checked = await checkArchive(this.#archiveOf(job.deploymentId), APP_ARCHIVE).catch(
        (error: unknown) => {
          if (error instanceof ServiceError) return error.message;
          throw error;
        },
      );
      if (typeof checked === 'string') return { ok: false, reason: checked };
      const archive = checked;
      const entrypoint = posix.normalize(job.entrypoint.replaceAll('\\', '/'));
      if (!checked.names.includes(entrypoint)) {
        return { ok: false, reason: `The entrypoint ${job.entrypoint} is not in the archive.` };
      }
      // A data disk nearly full takes no install at all: refused now, not half-way. (The copy
      // kept is checked against its measured size before it is made.)
      const free = freeBytes(this.#folder);
      if (free < INSTALL_FREE_BYTES) {
        return {
          ok: false,
          reason: `The server's data disk has ${free} bytes free, less than an install needs to start (${INSTALL_FREE_BYTES}): deploy again once there is room.`,
        };
      }
      job.onLog(`Unpacking ${checked.names.length} entries and installing the app's dependencies.`);
      const installed = await runner.install({
        id: `${job.deploymentId}-install`,
        unpack: (folder) => archive.unpack(folder),
        target,
        maxBytes: MAX_INSTALLED_BYTES,
        npm,
        timeoutMs: INSTALL_TIMEOUT_MS,
        allowNetworks: this.#options.installNetworks(),
        onLog: (line) => job.onLog(line.message),
        signal: job.signal,
      });
      if (!installed.ok) return installed;
      bytes = installed.bytes;
    } finally {
      if (typeof checked === 'object') checked.close();
      await rm(this.#archiveOf(job.deploymentId), { force: true });
    }
    job.onLog(`Loading ${job.entrypoint} to find its apps.`);
    const found = await runner.discover({
      id: `${job.deploymentId}-discover`,
      folder: target,
      entrypoint: job.entrypoint,
      env: { ...job.env, ...this.#options.codeEnv() },
      timeoutMs: DISCOVER_TIMEOUT_MS,
      allowNetworks: this.#options.codeNetworks(),
      onLog: (line) => job.onLog(line.message),
      signal: job.signal,
    });
    if (!found.ok) {
      await rm(target, { recursive: true, force: true });
      return found;
    }
    return {
      ok: true,
      apps: (found.apps ?? []) as FoundApp[],
      ...(bytes !== undefined && { bytes }),
    };
  }

  readonly active = new Map<string, string>();
  readonly deploySlots = new Slots(DEPLOYS_AT_ONCE);

  /** Runs one action in a sandbox of its own, on the deployment's installed code. */
  async invoke(job: InvokeJob): Promise<InvokeOutcome> {
    const { runner } = this.#options;
    if (!runner) {
      return { ok: false, reason: 'This server cannot run code: bubblewrap is not installed.' };
    }
    const outcome = await runner.invoke(
      {
        id: job.invocationId,
        folder: this.folderOf(job.deploymentId),
        entrypoint: job.entrypoint,
        env: { ...job.env, ...this.#options.codeEnv() },
        timeoutMs: job.timeoutMs,
        allowNetworks: this.#options.codeNetworks(),
        onLog: (line) => job.onLog(line.message),
        signal: job.signal,
      },
      {
        app: job.app,
        action: job.action,
        invocationId: job.invocationId,
        ...(job.payload === undefined ? {} : { payload: job.payload }),
      },
    );
    return outcome.ok ? { ok: true, output: outcome.output } : outcome;
  }

  async remove(deploymentId: string): Promise<void> {
    await rm(this.#archiveOf(deploymentId), { force: true });
    await rm(this.folderOf(deploymentId), { recursive: true, force: true });
  }
}
