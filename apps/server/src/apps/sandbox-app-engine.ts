/**
 * DRAFT (not wired yet): the server's AppEngine: a deploy's archive is checked as every upload is,
 * unpacked and installed in a sandbox (AppRunner.install), and its apps found by loading its
 * entrypoint in another (AppRunner.discover); the installed folder stays in the data directory,
 * under deployments/<id>, until the deployment is deleted.
 */
import { randomUUID } from 'node:crypto';
import { createWriteStream, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import type { AppEngine, ArchiveKind, DeployJob, DeployOutcome, FoundApp } from '@x/service-kernel';
import { ServiceError } from '@x/service-kernel';
import type { NetworkEntry } from '@x/types';
import { checkArchive } from '../extensions/archive-store.js';
import type { AppRunner, NpmSetup } from './app-runner.js';

/** An app's archive, for the errors about it. */
export const APP_ARCHIVE: ArchiveKind = {
  noun: 'app archive',
  part: 'file',
  root: 'the app folder',
};

/** How long an install may take. */
const INSTALL_TIMEOUT_MS = 10 * 60_000;

/** How long loading an entrypoint to find its apps may take. */
const DISCOVER_TIMEOUT_MS = 60_000;

/** The most bytes an installed app may hold (its node_modules included). */
const MAX_INSTALLED_BYTES = 1024 * 1024 * 1024;

export class SandboxAppEngine implements AppEngine {
  readonly #runner: AppRunner;
  readonly #folder: string;
  readonly #npm: NpmSetup;
  readonly #allowNetworks: () => readonly NetworkEntry[];

  constructor(options: {
    readonly runner: AppRunner;
    readonly dataDir: string;
    readonly npm: NpmSetup;
    /** What installs and code may reach besides public destinations (the registry, the API). */
    readonly allowNetworks: () => readonly NetworkEntry[];
  }) {
    this.#runner = options.runner;
    this.#folder = join(options.dataDir, 'deployments');
    this.#npm = options.npm;
    this.#allowNetworks = options.allowNetworks;
    mkdirSync(this.#folder, { recursive: true, mode: 0o700 });
  }

  /** Where a deployment's installed folder is. */
  folderOf(deploymentId: string): string {
    return join(this.#folder, deploymentId);
  }

  async deploy(job: DeployJob): Promise<DeployOutcome> {
    const spooled = join(this.#folder, `.upload-${randomUUID()}`);
    try {
      await pipeline(
        Readable.fromWeb(job.archive.stream() as NodeReadableStream<Uint8Array>),
        createWriteStream(spooled, { flags: 'wx', mode: 0o600 }),
      );
      let checked: Awaited<ReturnType<typeof checkArchive>>;
      try {
        checked = await checkArchive(spooled, APP_ARCHIVE);
      } catch (error) {
        return {
          ok: false,
          reason: error instanceof ServiceError ? error.message : 'The archive cannot be read.',
        };
      }
      const target = this.folderOf(job.deploymentId);
      try {
        const installed = await this.#runner.install({
          id: `${job.deploymentId}-install`,
          unpack: (folder) => checked.unpack(folder),
          target,
          maxBytes: MAX_INSTALLED_BYTES,
          npm: this.#npm,
          timeoutMs: INSTALL_TIMEOUT_MS,
          allowNetworks: this.#allowNetworks(),
          onLog: (line) => job.onLog(line.message),
          signal: job.signal,
        });
        if (!installed.ok) return installed;
      } finally {
        checked.close();
      }
      const found = await this.#runner.discover({
        id: `${job.deploymentId}-discover`,
        folder: target,
        entrypoint: job.entrypoint,
        // TODO(next): the deployment's minted key and the API's URL, as invocations get them.
        env: { KERNEL_API_KEY: 'discovery', XB_TOKEN: 'discovery' },
        timeoutMs: DISCOVER_TIMEOUT_MS,
        allowNetworks: [],
        onLog: (line) => job.onLog(line.message),
        signal: job.signal,
      });
      if (!found.ok) {
        rmSync(target, { recursive: true, force: true });
        return found;
      }
      return { ok: true, apps: (found.apps ?? []) as FoundApp[] };
    } finally {
      rmSync(spooled, { force: true });
    }
  }

  async remove(deploymentId: string): Promise<void> {
    rmSync(this.folderOf(deploymentId), { recursive: true, force: true });
  }
}
