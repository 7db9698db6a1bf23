import { type ProcessRunner, type ProcessSpec, resolveInstancePath } from '@x/service-kernel';
import type { FakeInstance } from '../browsers/fake-instance.js';
import { applyFsChange } from '../fs-watch/fake-watcher.js';
import { FakeProcess } from './fake-process.js';

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

/** Commands the fake knows without a script, enough for the contract and for watches to see files. */
function builtInScript(instance: FakeInstance, invocation: ProcessInvocation): ProcessScript {
  const { command, args, cwd } = invocation;
  const name = command.split('/').pop();
  switch (name) {
    case 'echo':
      return { stdout: `${args.join(' ')}\n` };
    case 'cat':
      // With no file, it writes back its input until it is killed (or the test ends it).
      return args.length === 0
        ? { runForMs: Number.POSITIVE_INFINITY }
        : { stderr: `cat: ${args[0]}: No such file or directory\n`, exitCode: 1 };
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
          const known = instance.files.kind(resolved);
          const type = name === 'rm' ? 'DELETE' : name === 'touch' && known ? 'WRITE' : 'CREATE';
          const isDir = name === 'rm' ? known === 'dir' : name === 'mkdir';
          applyFsChange(instance, { type, path: resolved, is_dir: isDir });
        }
        return {};
      } catch {
        // A path outside the home: the command fails as it would without the permission.
        return { stderr: `${name}: permission denied\n`, exitCode: 1 };
      }
    default:
      return { stderr: `${command}: command not found\n`, exitCode: 127 };
  }
}

/** Runs commands by script (or the built-in ones); scripts are by command name. */
export class FakeProcessRunner implements ProcessRunner<FakeInstance> {
  readonly scripts = new Map<string, ProcessScriptSource>();
  #pid = 1000;

  assertAvailable(): void {
    // The fake runs no real process: nothing can be missing.
  }

  start(
    instance: FakeInstance,
    spec: ProcessSpec,
    events: Parameters<ProcessRunner<FakeInstance>['start']>[2],
  ) {
    const invocation: ProcessInvocation = {
      command: spec.command,
      args: spec.args,
      cwd: spec.cwd,
      env: spec.env,
    };
    const source = this.scripts.get(spec.command);
    const script =
      source === undefined
        ? builtInScript(instance, invocation)
        : typeof source === 'function'
          ? source(invocation)
          : source;
    const process = new FakeProcess(
      {
        id: spec.id,
        pid: ++this.#pid,
        browserId: instance.id,
        command: spec.command,
        args: spec.args,
      },
      events,
      { cpuPct: script.cpuPct, memBytes: script.memBytes },
    );
    instance.processes.set(process.id, process);
    if (spec.stdin) process.input = '';
    if (spec.tty) process.terminal = { ...spec.tty };
    process.echoesInput = spec.command.split('/').pop() === 'cat' && spec.args.length === 0;
    process.write('stdout', script.stdout ?? '');
    process.write('stderr', script.stderr ?? '');
    const runForMs = script.runForMs ?? 0;
    if (runForMs === 0) process.exit(script.exitCode ?? 0);
    else if (Number.isFinite(runForMs)) process.endAfter(runForMs, script.exitCode ?? 0);
    return process;
  }
}
