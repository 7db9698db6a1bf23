import type { ChildProcess } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  lchownSync,
  mkdirSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, posix } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { INSTANCE_HOME, ServiceError } from '@x/service-kernel';
import type { NetworkEntry } from '@x/types';
import type { Logger } from 'pino';
import type { Sandboxing } from '../browsers/chromium-engine.js';
import { makeInstanceRoot, removeInstanceDirectory } from '../browsers/instance-directory.js';
import type { SessionNetwork } from '../network/egress-networks.js';
import {
  baseEnvironment,
  endSandbox,
  type SandboxUser,
  spawnSandbox,
} from '../sandbox/bubblewrap.js';
import type { SessionCgroup } from '../sandbox/cgroups.js';
import { workerScript } from '../sandbox/worker-files.js';
import { type ByteCount, type Overflow, readBoundedRecords } from '../system/bounded-records.js';
import { freeBytes } from '../system/free-space.js';
import { settleInOrder } from '../system/settle-in-order.js';
import { chownTree, copyTree, plainModes, treeBytes } from './app-files.js';
import { lastLines, type NpmSetup, npmFolder, npmReasonOf } from './npm-setup.js';

/** Where a deployment's folder is inside the sandbox, read-only. */
export const APP_INSIDE = '/opt/app';

/** Where the host program and its Node are inside the sandbox. */
const HOST_INSIDE = '/opt/xb';

/** Longest log line kept; the rest of it is cut (as the peer service cuts its lines). */
export const MAX_LOG_LINE_BYTES = 64 * 1024;

/**
 * Longest console line read: a line past it (a writer that never ends one) stops the run, so
 * what the server holds of a line waiting for its end stays this small.
 */
export const MAX_LOG_LINE_READ_BYTES = 1024 * 1024;

/** Most console bytes one run may write, stdout and stderr together; past them it is stopped. */
export const MAX_LOG_BYTES_PER_RUN = 8 * 1024 * 1024;

/** Longest answer the host may send (a 4 Mi-character result and its envelope). */
const MAX_ANSWER_BYTES = 17 * 1024 * 1024;

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;

/** Bytes of stderr kept for the reason a run failed without answering. */
const STDERR_TAIL_BYTES = 4 * 1024;

/** An app as the code defines it. */
export interface DiscoveredApp {
  readonly name: string;
  readonly actions: readonly { readonly name: string }[];
}

/** One line the code wrote to its console. */
export interface AppLogLine {
  readonly stream: 'stdout' | 'stderr';
  readonly message: string;
}

/** What every run in a sandbox is given. */
interface SandboxedRun {
  /** Names its sandbox's resources (cgroup, home, network): an invocation's or deployment's id. */
  readonly id: string;
  /** How long it may run; past it the run ends as failed. */
  readonly timeoutMs: number;
  /** Where it may reach besides public destinations (the egress policy's allow list). */
  readonly allowNetworks: readonly NetworkEntry[];
  /**
   * Each line of its console output, as it comes (bounded, see MAX_LOG_*). What it throws stops
   * the run; it never reaches the process.
   */
  readonly onLog?: (line: AppLogLine) => void;
  /** Aborting it ends the run at once (a cancel): what runs stops for good. */
  readonly signal?: AbortSignal;
}

/** What a run of a deployment's code is asked to do. */
export interface AppRunRequest extends SandboxedRun {
  /** The deployment's folder on the host (its files and its node_modules), bound read-only. */
  readonly folder: string;
  /** The entrypoint, relative to the folder. */
  readonly entrypoint: string;
  /** The code's own environment; PATH, LANG and HOME are the sandbox's. */
  readonly env: Readonly<Record<string, string>>;
}

/** What an install is asked to do. */
export interface AppInstallRequest extends SandboxedRun {
  /** Writes the deployment's files into the folder given (the archive, unpacked). */
  readonly unpack: (folder: string) => Promise<unknown>;
  /** Where the installed folder goes on the host; it must not exist yet. */
  readonly target: string;
  /** The most bytes the installed folder may hold. */
  readonly maxBytes: number;
  readonly npm: NpmSetup;
}

/** How a run ended. */
export type AppRunOutcome =
  | {
      readonly ok: true;
      readonly apps?: readonly DiscoveredApp[];
      readonly output?: string;
      /** For an install: the bytes the installed app takes on disk (its allocated blocks). */
      readonly bytes?: number;
    }
  | { readonly ok: false; readonly reason: string };

/** The answer line the host sends on fd 3. */
interface HostAnswer {
  readonly apps?: DiscoveredApp[];
  readonly output?: string;
  readonly error?: { readonly name: string; readonly message: string };
}

/** How a sandboxed process ended. */
interface Ended {
  readonly code: number | null;
  /** Why it was stopped (its time-out, a cancel, output past its bounds), if it was. */
  readonly stopped?: string;
  /** The line it wrote on fd 3, if it wrote one. */
  readonly answer?: string;
  /** The last lines of its stderr. */
  readonly stderrTail: string;
}

/** A run's sandbox: what it is made of, and how it all goes again. */
interface RunSandbox {
  readonly home: string;
  readonly user: SandboxUser | undefined;
  readonly cgroup: SessionCgroup | undefined;
  readonly network: SessionNetwork | undefined;
  /** Ends every process its user runs (the cgroup's go with the cgroup, on release). */
  readonly kill: () => Promise<void>;
  readonly release: () => Promise<void>;
}

/** The host program's script on the host (`.ts` in tests); undefined when it is missing. */
function hostScript(): string | undefined {
  return workerScript(import.meta.url, 'app-host', 'apps');
}

/**
 * Runs a deployment's code, each run in a sandbox of its own: bubblewrap as a user of its own,
 * its own cgroup (the session limits), a home of its own (a disk of its own where the host has
 * them), the process seccomp filter, and a network namespace of its own under the egress policy
 * (none without it), no host path but what the run needs, read-only. A run installs a
 * deployment's dependencies, discovers the apps and actions its code defines, or invokes one
 * action with a payload. Whatever way it ends (an answer, a throw, a crash, its time-out, a
 * cancel), everything of it goes: its processes, cgroup, network, home and user.
 */
export class AppRunner {
  readonly #bubblewrap: string;
  readonly #dataDir: string;
  readonly #sandboxing: Sandboxing;
  readonly #logger: Logger;

  constructor(bubblewrap: string, dataDir: string, sandboxing: Sandboxing, logger: Logger) {
    this.#bubblewrap = bubblewrap;
    this.#dataDir = dataDir;
    this.#sandboxing = sandboxing;
    this.#logger = logger;
  }

  /**
   * Unpacks a deployment into a sandbox's home and installs its dependencies there with npm
   * (`npm ci` with a lockfile, else `npm install`; dev dependencies left out; package scripts
   * run, in the sandbox), then moves the result to `target` on the host: files of the server's
   * own, links kept as links. Without a package.json there is nothing to install.
   */
  async install(request: AppInstallRequest): Promise<AppRunOutcome> {
    return this.#inSandbox(request, async (sandbox) => {
      const folder = join(sandbox.home, 'app');
      await request.unpack(folder);
      if (sandbox.user) chownTree(folder, sandbox.user);
      if (existsSync(join(folder, 'package.json'))) {
        const hasLock = ['package-lock.json', 'npm-shrinkwrap.json'].some((name) =>
          existsSync(join(folder, name)),
        );
        const { npm } = request;
        // The operator's npm settings, copied into the sandbox's home as its user's: npm saves a
        // user .npmrc 0600, which the install's user (never the server's) could not read bound.
        const settings = join(sandbox.home, '.xb-npm');
        mkdirSync(settings, { mode: 0o700 });
        if (sandbox.user) lchownSync(settings, sandbox.user.uid, sandbox.user.gid);
        const copyConfig = (from: string | undefined, name: string) => {
          const to = join(settings, name);
          // None (or found at start and removed since): an empty file of its own, never
          // /dev/null for both, which npm refuses to load twice.
          if (from && existsSync(from)) copyFileSync(from, to);
          else writeFileSync(to, '');
          if (sandbox.user) lchownSync(to, sandbox.user.uid, sandbox.user.gid);
          return `${INSTANCE_HOME}/.xb-npm/${name}`;
        };
        const userConfig = copyConfig(npm.userConfig, 'npmrc');
        const globalConfig = copyConfig(npm.globalConfig, 'npmrc-global');
        const child = this.#spawnNode(sandbox, {
          env: {
            ...npm.env,
            npm_config_cache: `${INSTANCE_HOME}/.npm`,
            npm_config_userconfig: userConfig,
            npm_config_globalconfig: globalConfig,
            npm_config_update_notifier: 'false',
            npm_config_fund: 'false',
            npm_config_audit: 'false',
          },
          cwd: `${INSTANCE_HOME}/app`,
          binds: [
            [npmFolder(), `${HOST_INSIDE}/npm`],
            ...(npm.files ?? []).map((file): [string, string] => [file, file]),
          ],
          args: [`${HOST_INSIDE}/npm/bin/npm-cli.js`, hasLock ? 'ci' : 'install', '--omit=dev'],
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        const ended = await this.#follow(child, request, 'The install');
        if (ended.stopped) return { ok: false, reason: ended.stopped };
        if (ended.code !== 0) {
          const tail = npmReasonOf(ended.stderrTail);
          return {
            ok: false,
            reason: `npm ${hasLock ? 'ci' : 'install'} failed (${ended.code === null ? 'killed' : `exit code ${ended.code}`})${tail ? `: ${tail}` : '.'}`,
          };
        }
      }
      // Nothing of the sandbox may change the folder while it is measured and moved.
      await sandbox.kill();
      // What a file takes on disk, not what it says it holds: a sparse file costs its blocks.
      const bytes = treeBytes(folder);
      if (bytes > request.maxBytes) {
        return {
          ok: false,
          reason: `The installed app takes ${bytes} bytes on disk, more than ${request.maxBytes}.`,
        };
      }
      const free = freeBytes(dirname(request.target));
      if (free < bytes + INSTALL_FREE_RESERVE_BYTES) {
        return {
          ok: false,
          reason: `The server's data disk has ${free} bytes free, too few to keep an app of ${bytes} bytes: deploy again once there is room.`,
        };
      }
      if (existsSync(request.target)) throw new Error(`${request.target} exists already`);
      try {
        // Copied as it is on disk: holes stay holes, links stay links, modes are kept.
        await copyTree(folder, request.target);
        plainModes(request.target);
      } catch (error) {
        rmSync(request.target, { recursive: true, force: true });
        throw error;
      }
      return { ok: true, bytes: treeBytes(request.target) };
    });
  }

  /** The apps and actions the code defines (loading its entrypoint runs its top level). */
  async discover(request: AppRunRequest): Promise<AppRunOutcome> {
    return this.#runHost(request, { mode: 'discover' });
  }

  /** Runs one action with `payload` (JSON text) for `invocationId`. */
  async invoke(
    request: AppRunRequest,
    call: {
      readonly app: string;
      readonly action: string;
      readonly invocationId: string;
      readonly payload?: string;
    },
  ): Promise<AppRunOutcome> {
    return this.#runHost(request, { mode: 'invoke', ...call });
  }

  async #runHost(request: AppRunRequest, call: Record<string, unknown>): Promise<AppRunOutcome> {
    const hostFile = hostScript();
    if (!hostFile)
      return { ok: false, reason: 'The app host program is missing from this install.' };
    const entrypoint = posix.join(APP_INSIDE, request.entrypoint);
    if (posix.isAbsolute(request.entrypoint) || !entrypoint.startsWith(`${APP_INSIDE}/`)) {
      return { ok: false, reason: `The entrypoint "${request.entrypoint}" is not inside the app.` };
    }
    return this.#inSandbox(request, async (sandbox) => {
      const script = `${HOST_INSIDE}/app-host.${hostFile.endsWith('.ts') ? 'mts' : 'mjs'}`;
      const child = this.#spawnNode(sandbox, {
        env: request.env,
        cwd: APP_INSIDE,
        binds: [
          [hostFile, script],
          [request.folder, APP_INSIDE],
        ],
        args: ['--no-warnings', '--experimental-transform-types', script],
        stdio: ['pipe', 'pipe', 'pipe', 'pipe'],
      });
      const stdin = child.stdin as Writable;
      stdin.on('error', () => undefined); // the host died before reading: its exit says why
      stdin.end(`${JSON.stringify({ ...call, entrypoint })}\n`);
      // The host exits once it has answered: the run is over then (what the code left running
      // in the background ends with the sandbox).
      const ended = await this.#follow(child, request, 'The code');
      if (ended.stopped) return { ok: false, reason: ended.stopped };
      let parsed: HostAnswer;
      try {
        parsed = JSON.parse(ended.answer ?? '') as HostAnswer;
      } catch {
        const tail = lastLines(ended.stderrTail);
        return {
          ok: false,
          reason: `The code exited (${ended.code === null ? 'killed' : `code ${ended.code}`}) without an answer${tail ? `: ${tail}` : '.'}`,
        };
      }
      if (parsed.error) {
        const prefix =
          parsed.error.name && parsed.error.name !== 'Error' ? `${parsed.error.name}: ` : '';
        return { ok: false, reason: `${prefix}${parsed.error.message}` };
      }
      return {
        ok: true,
        ...(parsed.apps ? { apps: parsed.apps } : {}),
        ...(parsed.output === undefined ? {} : { output: parsed.output }),
      };
    });
  }

  /**
   * Starts the server's Node in a run's sandbox (its user, cgroup and network, the process
   * seccomp filter), first on the PATH at /opt/xb/bin, with `binds` read-only besides.
   */
  #spawnNode(
    sandbox: RunSandbox,
    run: {
      readonly env: Readonly<Record<string, string>>;
      readonly cwd: string;
      readonly binds: readonly (readonly [string, string])[];
      readonly args: readonly string[];
      readonly stdio: ('pipe' | 'ignore')[];
    },
  ): ChildProcess {
    const { trust } = this.#sandboxing;
    return spawnSandbox(
      this.#bubblewrap,
      {
        home: sandbox.home,
        env: {
          ...run.env,
          // The operator's authorities (XB_SESSION_CA_FILE), for the code's and npm's TLS.
          ...(trust ? { NODE_EXTRA_CA_CERTS: `${HOST_INSIDE}/trust/ca.pem` } : {}),
          ...baseEnvironment(),
          PATH: `${HOST_INSIDE}/bin:${baseEnvironment().PATH}`,
        },
        // The session network's namespace, joined by nsenter; the host's own where the operator
        // opened every network (XB_ALLOW_NETWORKS=*); none at all otherwise.
        shareNetwork: sandbox.network !== undefined || this.#isNetworkOpen,
        network: sandbox.network?.join,
        user: sandbox.user,
        cgroup: sandbox.cgroup,
        seccomp: 'process',
        cwd: run.cwd,
        readOnlyBinds: [
          [realpathSync(process.execPath), `${HOST_INSIDE}/bin/node`],
          ...run.binds,
          ...(trust ? [[trust.caFile, `${HOST_INSIDE}/trust/ca.pem`] as const] : []),
          // The session network's resolver, as the sandbox's /etc/resolv.conf.
          ...(sandbox.network ? [[sandbox.network.resolvConf, '/etc/resolv.conf'] as const] : []),
        ],
      },
      `${HOST_INSIDE}/bin/node`,
      run.args,
      run.stdio,
    );
  }

  /** Whether runs keep the host's network: the operator accepts an open network. */
  get #isNetworkOpen(): boolean {
    const { egress } = this.#sandboxing;
    return egress !== undefined && 'open' in egress;
  }

  /** Runs `work` in a sandbox made for it, released whatever way it ends. */
  async #inSandbox(
    request: SandboxedRun,
    work: (sandbox: RunSandbox) => Promise<AppRunOutcome>,
  ): Promise<AppRunOutcome> {
    if (request.signal?.aborted) return { ok: false, reason: 'Cancelled.' };
    let sandbox: RunSandbox;
    try {
      sandbox = await this.#prepare(request);
    } catch (error) {
      if (error instanceof ServiceError) throw error;
      // A fault of the host (a tool that failed, a resource another server holds), not of the
      // code: said to the caller as such, the details to the operator's log.
      this.#logger.error(
        { err: error, run: request.id },
        'the sandbox of an app run could not be made',
      );
      return {
        ok: false,
        reason:
          "The server could not make the run's sandbox (its user, disk or network): the server's log says why.",
      };
    }
    try {
      return await work(sandbox);
    } finally {
      await sandbox.release().catch((error: unknown) => {
        this.#logger.error({ err: error, run: request.id }, 'an app run was not cleaned up whole');
      });
    }
  }

  async #prepare(request: SandboxedRun): Promise<RunSandbox> {
    const { users, cgroups, disks, egress } = this.#sandboxing;
    const user = users?.take();
    let cgroup: SessionCgroup | undefined;
    let network: SessionNetwork | undefined;
    let home: string | undefined;
    const kill = async () => {
      if (user) await users?.killAll(user.uid);
    };
    const release = async () => {
      // A step that fails does not keep the next from running; the user is only reused after
      // a clean end.
      const failures = await settleInOrder([
        kill,
        async () => {
          if (cgroup) await cgroups?.remove(request.id);
        },
        async () => {
          await network?.close();
        },
        async () => {
          // A disk whose mount failed half-way may have left its image: it goes the same way.
          if (home && disks) await disks.remove(home);
          else if (home) await removeInstanceDirectory(home);
        },
      ]);
      if (failures.length > 0) throw failures[0];
      if (user) users?.give(user);
    };
    try {
      cgroup = cgroups?.create(request.id);
      home = makeInstanceRoot(this.#dataDir, request.id);
      if (disks) {
        await disks.mount(home, user);
      }
      chmodSync(home, 0o700);
      if (user) lchownSync(home, user.uid, user.gid);
      if (egress && 'networks' in egress) {
        network = await egress.networks.create(request.id, request.allowNetworks, {
          reachesHost: true,
        });
      }
      return { home, user, cgroup, network, kill, release };
    } catch (error) {
      await release().catch((failure: unknown) => {
        this.#logger.error(
          { err: failure, run: request.id },
          'an app run that failed to start was not cleaned up whole',
        );
      });
      throw error;
    }
  }

  /**
   * Reads a sandboxed process's console and fd 3 within bounds, and ends it at its time-out, a
   * cancel, or output past its bounds (its process group killed, the reason kept).
   */
  async #follow(child: ChildProcess, request: SandboxedRun, what: string): Promise<Ended> {
    const [, stdout, stderr, answers] = child.stdio as unknown as [
      unknown,
      Readable,
      Readable,
      Readable | undefined,
    ];
    let stopped: string | undefined;
    const stop = (why: string) => {
      stopped ??= why;
      void endSandbox(child);
    };
    let stderrTail = '';
    const onConsoleOverflow = (overflow: Overflow) => {
      if (overflow.kind === 'fault') {
        this.#logger.error(
          { err: overflow.error, run: request.id },
          "an app run's console could not be kept",
        );
      }
      stop(consoleOverflowReason(overflow, what));
    };
    // stdout and stderr are one writer's: one total bound for both.
    const consoleBytes: ByteCount = { bytes: 0 };
    const readConsole = (stream: 'stdout' | 'stderr', from: Readable) =>
      readBoundedRecords(from, {
        delimiter: NEWLINE,
        maxRecordBytes: MAX_LOG_LINE_READ_BYTES,
        maxTotalBytes: MAX_LOG_BYTES_PER_RUN,
        count: consoleBytes,
        isEndADelimiter: true,
        onRecord: (record) => {
          const message = logLineOf(record);
          if (stream === 'stderr')
            stderrTail = `${stderrTail}${message}\n`.slice(-STDERR_TAIL_BYTES);
          request.onLog?.({ stream, message });
        },
        onOverflow: onConsoleOverflow,
      });
    readConsole('stdout', stdout);
    readConsole('stderr', stderr);
    let answer: string | undefined;
    if (answers) {
      readBoundedRecords(answers, {
        delimiter: NEWLINE,
        maxRecordBytes: MAX_ANSWER_BYTES,
        // The answer and its newline; more is more than an answer.
        maxTotalBytes: MAX_ANSWER_BYTES + 1,
        isEndADelimiter: true,
        // Decoded once it is whole: a character may be split between two reads.
        onRecord: (record) => {
          answer ??= record.toString('utf8');
        },
        onOverflow: () => stop(`${what} answered more than it may.`),
      });
    }
    const timer = setTimeout(
      () => stop(`${what} ran past its time-out of ${Math.round(request.timeoutMs / 1000)} s.`),
      request.timeoutMs,
    );
    const onAbort = () => stop('Cancelled.');
    // A cancel that came while the sandbox was being made stops the run at once: an abort
    // listener added after the abort never hears it.
    if (request.signal?.aborted) onAbort();
    else request.signal?.addEventListener('abort', onAbort, { once: true });
    const code = await new Promise<number | null>((resolve) => {
      child.once('close', (exitCode: number | null) => resolve(exitCode));
    });
    clearTimeout(timer);
    request.signal?.removeEventListener('abort', onAbort);
    return {
      code,
      ...(stopped ? { stopped } : {}),
      ...(answer === undefined ? {} : { answer }),
      stderrTail,
    };
  }
}

/** Free space kept on the data disk beyond an installed app (the server's own records, logs). */
const INSTALL_FREE_RESERVE_BYTES = 256 * 1024 * 1024;

/** A console line as `onLog` hears it: without its carriage return, cut at MAX_LOG_LINE_BYTES. */
function logLineOf(record: Buffer): string {
  const line = record.at(-1) === CARRIAGE_RETURN ? record.subarray(0, -1) : record;
  if (line.length <= MAX_LOG_LINE_BYTES) return line.toString('utf8');
  // Whole characters only: a character cut at the bound is left out.
  return `${new StringDecoder('utf8').write(line.subarray(0, MAX_LOG_LINE_BYTES))}…`;
}

/** Why a run whose console went past its bounds was stopped. */
function consoleOverflowReason(overflow: Overflow, what: string): string {
  switch (overflow.kind) {
    case 'record':
      return `${what} wrote a console line longer than ${MAX_LOG_LINE_READ_BYTES / 1024 / 1024} MiB, and was stopped.`;
    case 'total':
      return `${what} wrote more than ${MAX_LOG_BYTES_PER_RUN / 1024 / 1024} MiB to its console, and was stopped.`;
    case 'fault':
      return `${what} was stopped: the server could not keep its console (the server's log says why).`;
  }
}
