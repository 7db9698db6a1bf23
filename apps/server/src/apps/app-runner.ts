import type { ChildProcess } from 'node:child_process';
import { chmodSync, lchownSync, realpathSync } from 'node:fs';
import { posix } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import type { NetworkEntry } from '@x/types';
import type { Logger } from 'pino';
import type { Sandboxing } from '../browsers/chromium-engine.js';
import { makeInstanceRoot, removeInstanceDirectory } from '../browsers/instance-directory.js';
import type { SessionNetwork } from '../network/session-networks.js';
import {
  baseEnvironment,
  endSandbox,
  type SandboxUser,
  spawnSandbox,
} from '../sandbox/bubblewrap.js';
import type { SessionCgroup } from '../sandbox/cgroups.js';
import { workerScript } from '../sandbox/worker-files.js';

/** Where a deployment's folder is inside the sandbox, read-only. */
export const APP_INSIDE = '/opt/app';

/** Where the host program and its Node are inside the sandbox. */
const HOST_INSIDE = '/opt/xb';

/** Longest log line kept; the rest of it is cut (as the peer service cuts its lines). */
export const MAX_LOG_LINE_BYTES = 64 * 1024;

/** Most log bytes one run keeps; past them its output is read and dropped, once said. */
export const MAX_LOG_BYTES_PER_RUN = 8 * 1024 * 1024;

/** Longest answer the host may send (a 4 Mi-character result and its envelope). */
const MAX_ANSWER_BYTES = 17 * 1024 * 1024;

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

/** What a run of a deployment's code is asked to do. */
export interface AppRunRequest {
  /** Names its sandbox's resources (cgroup, home, network): an invocation's or deployment's id. */
  readonly id: string;
  /** The deployment's folder on the host (its files and its node_modules), bound read-only. */
  readonly folder: string;
  /** The entrypoint, relative to the folder. */
  readonly entrypoint: string;
  /** The whole environment of the code, besides PATH, LANG and HOME. */
  readonly env: Readonly<Record<string, string>>;
  /** How long the code may run; past it the run ends as failed. */
  readonly timeoutMs: number;
  /** Where the code may reach besides public destinations (the egress policy's allow list). */
  readonly allowNetworks: readonly NetworkEntry[];
  /** Each line of its console output, as it comes (bounded, see MAX_LOG_*). */
  readonly onLog?: (line: AppLogLine) => void;
  /** Aborting it ends the run at once (a cancel): the code stops for good. */
  readonly signal?: AbortSignal;
}

/** How a run ended. */
export type AppRunOutcome =
  | { readonly ok: true; readonly apps?: readonly DiscoveredApp[]; readonly output?: string }
  | { readonly ok: false; readonly reason: string };

/** The answer line the host sends on fd 3. */
interface HostAnswer {
  readonly apps?: DiscoveredApp[];
  readonly output?: string;
  readonly error?: { readonly name: string; readonly message: string };
}

/** The files the host runs from, on the host; undefined when the script is missing. */
function hostFiles(): { readonly node: string; readonly script: string } | undefined {
  const script = workerScript(import.meta.url, 'app-host', 'apps');
  return script === undefined ? undefined : { node: realpathSync(process.execPath), script };
}

/**
 * Runs a deployment's code, each run in a sandbox of its own: bubblewrap as a user of its own,
 * its own cgroup (the session limits), a home of its own (a disk of its own where the host has
 * them), the deployment's folder read-only at /opt/app, no host path besides, the process seccomp
 * filter, and a network namespace of its own under the egress policy (none without it). A run
 * discovers the apps and actions the code defines, or invokes one action with a payload. Whatever
 * way it ends (an answer, a throw, a crash, its time-out, a cancel), everything of it goes: its
 * processes, cgroup, network, home and user.
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

  /** The apps and actions the code defines (loading its entrypoint runs its top level). */
  async discover(request: AppRunRequest): Promise<AppRunOutcome> {
    return this.#run(request, { mode: 'discover' });
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
    return this.#run(request, { mode: 'invoke', ...call });
  }

  async #run(request: AppRunRequest, call: Record<string, unknown>): Promise<AppRunOutcome> {
    const files = hostFiles();
    if (!files) return { ok: false, reason: 'The app host program is missing from this install.' };
    const entrypoint = posix.join(APP_INSIDE, request.entrypoint);
    const sandbox = await this.#prepare(request);
    try {
      if (request.signal?.aborted) return { ok: false, reason: 'Cancelled.' };
      const script = `${HOST_INSIDE}/app-host.${files.script.endsWith('.ts') ? 'mts' : 'mjs'}`;
      const child = spawnSandbox(
        this.#bubblewrap,
        {
          home: sandbox.home,
          env: { ...request.env, ...baseEnvironment() },
          shareNetwork: false,
          network: sandbox.network?.join,
          user: sandbox.user,
          cgroup: sandbox.cgroup,
          seccomp: 'process',
          cwd: APP_INSIDE,
          readOnlyBinds: [
            [files.node, `${HOST_INSIDE}/bin/node`],
            [files.script, script],
            [request.folder, APP_INSIDE],
          ],
        },
        `${HOST_INSIDE}/bin/node`,
        ['--no-warnings', '--experimental-transform-types', script],
        ['pipe', 'pipe', 'pipe', 'pipe'],
      );
      return await this.#follow(child, request, { ...call, entrypoint });
    } finally {
      await sandbox.release().catch((error: unknown) => {
        this.#logger.error({ err: error, run: request.id }, 'an app run was not cleaned up whole');
      });
    }
  }

  /** What the run's sandbox is made of, and how it all goes again. */
  async #prepare(request: AppRunRequest): Promise<{
    home: string;
    user: SandboxUser | undefined;
    cgroup: SessionCgroup | undefined;
    network: SessionNetwork | undefined;
    release: () => Promise<void>;
  }> {
    const { users, cgroups, disks, egress } = this.#sandboxing;
    const user = users?.take();
    let cgroup: SessionCgroup | undefined;
    let network: SessionNetwork | undefined;
    let home: string | undefined;
    let isMounted = false;
    const release = async () => {
      if (user) await users?.killAll(user.uid);
      if (cgroup) await cgroups?.remove(request.id);
      await network?.close();
      if (home && isMounted) await disks?.remove(home);
      else if (home) removeInstanceDirectory(home);
      if (user) users?.give(user);
    };
    try {
      cgroup = cgroups?.create(request.id);
      home = makeInstanceRoot(this.#dataDir, request.id);
      if (disks) {
        await disks.mount(home, user);
        isMounted = true;
      }
      chmodSync(home, 0o700);
      if (user) lchownSync(home, user.uid, user.gid);
      if (egress && 'networks' in egress) {
        network = await egress.networks.create(request.id, request.allowNetworks, {
          reachesHost: true,
        });
      }
      return { home, user, cgroup, network, release };
    } catch (error) {
      await release().catch(() => undefined);
      throw error;
    }
  }

  /** Feeds the request, reads the console and the answer, and ends the run at its time-out. */
  async #follow(
    child: ChildProcess,
    request: AppRunRequest,
    call: Record<string, unknown>,
  ): Promise<AppRunOutcome> {
    const stdin = child.stdin as Writable;
    const [, stdout, stderr, answers] = child.stdio as unknown as [
      unknown,
      Readable,
      Readable,
      Readable,
    ];
    stdin.on('error', () => undefined); // the host died before reading: its exit says why
    stdin.end(`${JSON.stringify(call)}\n`);
    const log = new RunLog(request.onLog);
    let stderrTail = '';
    stdout.on('data', (chunk: Buffer) => log.add('stdout', chunk));
    stderr.on('data', (chunk: Buffer) => {
      log.add('stderr', chunk);
      stderrTail = (stderrTail + chunk.toString()).slice(-STDERR_TAIL_BYTES);
    });
    let answer = '';
    let isAnswerTooLarge = false;
    answers.on('data', (chunk: Buffer) => {
      if (answer.length + chunk.length > MAX_ANSWER_BYTES) isAnswerTooLarge = true;
      else answer += chunk.toString();
    });

    let stopped: string | undefined;
    const stop = (why: string) => {
      stopped ??= why;
      void endSandbox(child);
    };
    const timer = setTimeout(
      () => stop(`The code ran past its time-out of ${Math.round(request.timeoutMs / 1000)} s.`),
      request.timeoutMs,
    );
    const onAbort = () => stop('Cancelled.');
    request.signal?.addEventListener('abort', onAbort, { once: true });
    const exited = new Promise<number | null>((resolve) => {
      child.once('close', (code: number | null) => resolve(code));
    });
    // The host exits once it has answered: the run is over then (what the code left running
    // in the background ends with the sandbox).
    const code = await exited;
    clearTimeout(timer);
    request.signal?.removeEventListener('abort', onAbort);
    log.flush();
    if (stopped) return { ok: false, reason: stopped };
    if (isAnswerTooLarge) return { ok: false, reason: 'The code answered more than it may.' };
    let parsed: HostAnswer;
    try {
      parsed = JSON.parse(answer) as HostAnswer;
    } catch {
      const tail = stderrTail.trim().split('\n').slice(-3).join(' ').slice(-500);
      return {
        ok: false,
        reason: `The code exited (${code === null ? 'killed' : `code ${code}`}) without an answer${tail ? `: ${tail}` : '.'}`,
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
  }
}

/** A run's console, cut into lines for `onLog`: each line and the whole bounded. */
class RunLog {
  readonly #onLog: ((line: AppLogLine) => void) | undefined;
  readonly #streams = {
    stdout: { decoder: new StringDecoder('utf8'), partial: '', isSkipping: false },
    stderr: { decoder: new StringDecoder('utf8'), partial: '', isSkipping: false },
  };
  #bytes = 0;
  #isCut = false;

  constructor(onLog: ((line: AppLogLine) => void) | undefined) {
    this.#onLog = onLog;
  }

  add(stream: 'stdout' | 'stderr', chunk: Buffer): void {
    if (this.#isCut || !this.#onLog) return;
    const state = this.#streams[stream];
    this.#bytes += chunk.length;
    if (this.#bytes > MAX_LOG_BYTES_PER_RUN) {
      this.#isCut = true;
      this.flush();
      this.#onLog({
        stream: 'stderr',
        message: `(the log is cut here: past ${MAX_LOG_BYTES_PER_RUN} bytes a run keeps no more)`,
      });
      return;
    }
    let text = state.decoder.write(chunk);
    if (state.isSkipping) {
      // The rest of a line already cut.
      const end = text.indexOf('\n');
      if (end === -1) return;
      text = text.slice(end + 1);
      state.isSkipping = false;
    }
    const lines = (state.partial + text).split('\n');
    state.partial = lines.pop() ?? '';
    for (const line of lines) this.#emit(stream, line);
    if (state.partial.length > MAX_LOG_LINE_BYTES) {
      this.#emit(stream, state.partial);
      state.partial = '';
      state.isSkipping = true;
    }
  }

  /** Passes on what is left of unfinished lines. */
  flush(): void {
    for (const stream of ['stdout', 'stderr'] as const) {
      const state = this.#streams[stream];
      const rest = state.partial + state.decoder.end();
      if (rest && !state.isSkipping) this.#emit(stream, rest);
      state.partial = '';
    }
  }

  #emit(stream: 'stdout' | 'stderr', line: string): void {
    const message = line.endsWith('\r') ? line.slice(0, -1) : line;
    const bytes = Buffer.from(message);
    this.#onLog?.({
      stream,
      message:
        bytes.length > MAX_LOG_LINE_BYTES
          ? `${new StringDecoder('utf8').write(bytes.subarray(0, MAX_LOG_LINE_BYTES))}…`
          : message,
    });
  }
}
