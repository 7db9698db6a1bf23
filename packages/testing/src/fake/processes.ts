import {
  eventStreamBody,
  followProcessOutput,
  notFound,
  ServiceError,
  wakeOrAbort,
} from '@x/service-kernel';
import { formatTimestamp, type ProcessCommandBodySchema } from '@x/types';
import type { InferOutput } from 'valibot';
import { findBrowser } from './browsers.js';
import type { HandlerTable } from './handler-types.js';
import { resolveInstancePath } from './instance-paths.js';
import type { FakeRuntime } from './runtime.js';
import type { FakeBrowser, FakeProcess } from './state.js';
import { applyFsChange } from './watches.js';

/** How a command behaves in the fake: what it writes, how long it runs, how it exits. */
export interface ProcessScript {
  /** Written to stdout as the process starts. */
  readonly stdout?: string;
  /** Written to stderr as the process starts. */
  readonly stderr?: string;
  /** Exit code when it ends by itself; default 0. */
  readonly exitCode?: number;
  /** How long it runs, in milliseconds; default 0. `Infinity` runs until killed or ended by the test. */
  readonly runForMs?: number;
  /** What status reports while it runs; default 0.5 % and 4 MiB. */
  readonly cpuPct?: number;
  readonly memBytes?: number;
}

/** What a command was started with, for scripts that depend on it. */
export interface ProcessInvocation {
  readonly command: string;
  readonly args: readonly string[];
  /** Working directory on the instance. */
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
}

/** A script, or a function that picks one from the invocation. */
export type ProcessScriptSource =
  | ProcessScript
  | ((invocation: ProcessInvocation) => ProcessScript);

/** Exit codes of the signals a process can be sent: 128 + the signal's number. */
const SIGNAL_EXIT_CODES = { HUP: 129, INT: 130, KILL: 137, TERM: 143 } as const;

const encodeBase64 = (text: string) => Buffer.from(text).toString('base64');

/** Commands the fake knows without a script, enough for the contract and for watches to see files. */
function builtInScript(
  runtime: FakeRuntime,
  browser: FakeBrowser,
  invocation: ProcessInvocation,
): ProcessScript {
  const { command, args, cwd } = invocation;
  const name = command.split('/').pop();
  const change = (type: 'CREATE' | 'WRITE' | 'DELETE', path: string, isDir: boolean) =>
    applyFsChange(runtime, browser, {
      type,
      path: resolveInstancePath('path', path, cwd),
      is_dir: isDir,
    });
  switch (name) {
    case 'echo':
      return { stdout: `${args.join(' ')}\n` };
    case 'true':
      return {};
    case 'false':
      return { exitCode: 1 };
    case 'sleep': {
      const seconds = Number(args[0]);
      if (!Number.isFinite(seconds) || seconds < 0)
        return { stderr: 'sleep: invalid time interval\n', exitCode: 1 };
      return { runForMs: seconds * 1000 };
    }
    case 'touch':
    case 'mkdir':
    case 'rm':
      try {
        for (const path of args.filter((arg) => !arg.startsWith('-'))) {
          const resolved = resolveInstancePath('path', path, cwd);
          if (name === 'rm') change('DELETE', resolved, browser.files.get(resolved) === 'dir');
          else
            change(
              name === 'mkdir' ? 'CREATE' : browser.files.has(resolved) ? 'WRITE' : 'CREATE',
              resolved,
              name === 'mkdir',
            );
        }
        return {};
      } catch {
        return { stderr: `${name}: permission denied\n`, exitCode: 1 };
      }
    default:
      return { stderr: `${command}: command not found\n`, exitCode: 127 };
  }
}

/** Ends a running process with `exitCode`; its output stream then ends. */
export function endProcess(process: FakeProcess, exitCode: number): void {
  if (process.state === 'exited') return;
  for (const timer of process.timers) clearTimeout(timer);
  process.timers.clear();
  process.state = 'exited';
  process.exitCode = exitCode;
  process.cpuPct = 0;
  process.memBytes = 0;
  process.output.push({ type: 'exit', exit_code: exitCode });
  for (const listener of process.listeners) listener();
}

/** Adds output to a running process. */
export function writeOutput(process: FakeProcess, stream: 'stdout' | 'stderr', text: string): void {
  if (process.state === 'exited' || text === '') return;
  process.output.push({ type: stream, data_b64: encodeBase64(text) });
  for (const listener of process.listeners) listener();
}

/** What spawn and exec ask for, validated. */
type ProcessCommand = InferOutput<typeof ProcessCommandBodySchema>;

function startProcess(runtime: FakeRuntime, browserId: string, body: ProcessCommand): FakeProcess {
  if (!runtime.settings.isProcessExecutionEnabled) {
    throw new ServiceError('forbidden', 'Process execution is turned off on this service.');
  }
  const browser = findBrowser(runtime, browserId);
  const cwd = resolveInstancePath('cwd', body.cwd ?? '/home/browser');
  if (browser.files.get(cwd) !== 'dir')
    throw new ServiceError('bad_request', `cwd ${cwd} is not a directory on the instance.`);
  const invocation: ProcessInvocation = {
    command: body.command,
    args: body.args,
    cwd,
    env: body.env,
  };
  const source = runtime.scripts.get(body.command);
  const script =
    source === undefined
      ? builtInScript(runtime, browser, invocation)
      : typeof source === 'function'
        ? source(invocation)
        : source;
  const process: FakeProcess = {
    id: runtime.nextId('proc'),
    pid: runtime.nextPid(),
    browserId: browser.session.session_id,
    command: body.command,
    args: body.args,
    startedAt: runtime.clock().getTime(),
    state: 'running',
    exitCode: null,
    cpuPct: script.cpuPct ?? 0.5,
    memBytes: script.memBytes ?? 4 * 1024 * 1024,
    output: [],
    listeners: new Set(),
    timers: new Set(),
  };
  browser.processes.set(process.id, process);
  writeOutput(process, 'stdout', script.stdout ?? '');
  writeOutput(process, 'stderr', script.stderr ?? '');
  const runForMs = script.runForMs ?? 0;
  if (body.timeout_sec !== undefined && body.timeout_sec * 1000 < runForMs) {
    // Past its time-out the process is killed, as `timeout_sec` asks.
    const timer = setTimeout(
      () => endProcess(process, SIGNAL_EXIT_CODES.KILL),
      body.timeout_sec * 1000,
    );
    timer.unref();
    process.timers.add(timer);
  } else if (runForMs === 0) {
    endProcess(process, script.exitCode ?? 0);
  } else if (Number.isFinite(runForMs)) {
    const timer = setTimeout(() => endProcess(process, script.exitCode ?? 0), runForMs);
    timer.unref();
    process.timers.add(timer);
  }
  return process;
}

/** Waits until the process has exited, or the signal aborts. */
function exited(process: FakeProcess, signal: AbortSignal): Promise<void> {
  if (process.state === 'exited') return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      if (process.state !== 'exited' && !signal.aborted) return;
      process.listeners.delete(done);
      signal.removeEventListener('abort', done);
      resolve();
    };
    process.listeners.add(done);
    signal.addEventListener('abort', done, { once: true });
  });
}

function findProcess(runtime: FakeRuntime, browserId: string, processId: string): FakeProcess {
  if (!runtime.settings.isProcessExecutionEnabled) {
    throw new ServiceError('forbidden', 'Process execution is turned off on this service.');
  }
  const process = findBrowser(runtime, browserId).processes.get(processId);
  if (!process) throw notFound('process', processId);
  return process;
}

const decodeOutput = (process: FakeProcess, stream: 'stdout' | 'stderr') =>
  Buffer.concat(
    process.output.flatMap((event) =>
      event.type === stream ? [Buffer.from(event.data_b64, 'base64')] : [],
    ),
  ).toString('base64');

/** Handlers of the process operations. */
export const processHandlers: Pick<
  HandlerTable,
  | 'browsers.process.spawn'
  | 'browsers.process.exec'
  | 'browsers.process.kill'
  | 'browsers.process.status'
  | 'browsers.process.output'
> = {
  'browsers.process.spawn': ({ runtime, params, body }) => {
    const process = startProcess(runtime, params.id as string, body);
    return {
      status: 200,
      json: {
        process_id: process.id,
        pid: process.pid,
        started_at: formatTimestamp(new Date(process.startedAt)),
      },
    };
  },
  'browsers.process.exec': async ({ runtime, params, body, signal }) => {
    const started = performance.now();
    const process = startProcess(runtime, params.id as string, body);
    await exited(process, signal);
    // A caller who went away takes its command with it.
    endProcess(process, SIGNAL_EXIT_CODES.KILL);
    return {
      status: 200,
      json: {
        exit_code: process.exitCode as number,
        stdout_b64: decodeOutput(process, 'stdout'),
        stderr_b64: decodeOutput(process, 'stderr'),
        duration_ms: Math.round(performance.now() - started),
      },
    };
  },
  'browsers.process.kill': ({ runtime, params, body }) => {
    const process = findProcess(runtime, params.id as string, params.process_id as string);
    endProcess(process, SIGNAL_EXIT_CODES[body.signal]);
    return { status: 200, json: { ok: true } };
  },
  'browsers.process.status': ({ runtime, params }) => {
    const process = findProcess(runtime, params.id as string, params.process_id as string);
    return {
      status: 200,
      json: {
        state: process.state,
        exit_code: process.exitCode,
        cpu_pct: process.cpuPct,
        mem_bytes: process.memBytes,
      },
    };
  },
  'browsers.process.output': ({ runtime, params }) => {
    const process = findProcess(runtime, params.id as string, params.process_id as string);
    return {
      status: 200,
      events: eventStreamBody((signal) => followProcessOutput(process, signal)),
    };
  },
};
