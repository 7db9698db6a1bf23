import { type ChildProcess, spawn } from 'node:child_process';

/**
 * Runs the short-lived system tools a browser's start and end need (`mount`, `mkfs.ext4`, `ip`,
 * `nft`, …) from a small helper process instead of the server's own.
 *
 * Node starts a process by forking the whole server (hundreds of megabytes of page tables to
 * copy, then copy-on-write faults for every page it touches) and its event loop waits until the
 * child has replaced itself: each of a dozen tools a browser's start and end run held the loop
 * 5 to 20 ms on a busy host, and every session's proxied DevTools traffic with it. The helper is
 * a bare Node of a few dozen megabytes that does nothing else; the server only sends it the
 * command over a pipe and hears the result back.
 *
 * One helper serves the whole process, started at the first command and again after it ended
 * for any reason (whatever was running in it then fails, as a tool that failed). It keeps nothing
 * alive: it leaves when the server's process does, and holds the server's event loop only while
 * a command runs.
 */

/** What a tool printed; a failure carries the same on the error (`stderr`, `code`, `signal`). */
export interface ToolOutput {
  readonly stdout: string;
  readonly stderr: string;
}

/** A tool that failed: exited with a status other than 0, was killed, or could not start. */
export class ToolFailed extends Error {
  readonly stdout: string;
  readonly stderr: string;
  /** Its exit status, or the start's error code (`ENOENT`). */
  readonly code: number | string | undefined;
  readonly signal: string | undefined;

  constructor(
    message: string,
    output: Partial<ToolOutput>,
    code?: number | string,
    signal?: string,
  ) {
    super(message);
    this.name = 'ToolFailed';
    this.stdout = output.stdout ?? '';
    this.stderr = output.stderr ?? '';
    this.code = code;
    this.signal = signal ?? undefined;
  }
}

export interface ToolOptions {
  /** Written to its standard input, which is then closed (empty when not given). */
  readonly input?: string;
  /** Killed (SIGTERM) past this many milliseconds; none when not given. */
  readonly timeoutMs?: number;
}

/** Every tool runs with this environment only: the system's programs, the C locale's messages. */
const TOOL_ENV = { PATH: '/usr/sbin:/usr/bin:/sbin:/bin' };

/** What one tool may print on each stream before it is killed (a table listing, at most). */
const MAX_OUTPUT_BYTES = 16 * 1024 * 1024;

/**
 * The helper's whole program (CommonJS, given to `node -e`): it runs each command it is sent
 * and sends back what came of it, and leaves as soon as the server's end of the pipe closes.
 */
const HELPER_SOURCE = `
const { execFile } = require('node:child_process');
process.on('disconnect', () => process.exit(0));
process.on('message', (m) => {
  let child;
  try {
    // Its own environment (the tools') is theirs.
    child = execFile(m.file, m.args, { timeout: m.timeoutMs, maxBuffer: m.maxBuffer }, (error, stdout, stderr) => {
      // A failure sends back only the end of what it printed: enough to say why.
      const end = (text) => (error ? String(text).slice(-65536) : text);
      process.send({ id: m.id, stdout: end(stdout), stderr: end(stderr), error: error ? { message: error.message, code: error.code, signal: error.signal } : undefined });
    });
  } catch (error) {
    process.send({ id: m.id, stdout: '', stderr: '', error: { message: String(error && error.message), code: error && error.code } });
    return;
  }
  child.stdin.on('error', () => {});
  child.stdin.end(m.input ?? '');
});
`;

interface Reply {
  readonly id: number;
  readonly stdout: string;
  readonly stderr: string;
  readonly error?: { message: string; code?: number | string; signal?: string };
}

interface Pending {
  readonly command: string;
  readonly resolve: (output: ToolOutput) => void;
  readonly reject: (error: Error) => void;
}

let helper: ChildProcess | undefined;
const pending = new Map<number, Pending>();
let nextId = 1;

function startHelper(): ChildProcess {
  const child = spawn(process.execPath, ['-e', HELPER_SOURCE], {
    stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
    // Nothing of the server's environment (its Node options, its secrets) is the helper's or
    // its tools': they run with the system's programs and the C locale's messages only.
    env: TOOL_ENV,
  });
  const end = (reason: string) => {
    if (helper !== child) return;
    helper = undefined;
    const failed = [...pending.values()];
    pending.clear();
    for (const request of failed)
      request.reject(new ToolFailed(`${request.command}: ${reason}`, {}, 'EHELPER'));
  };
  child.on('message', (reply: Reply) => {
    const request = pending.get(reply.id);
    if (!request) return;
    pending.delete(reply.id);
    holdLoop(child);
    if (!reply.error) {
      request.resolve({ stdout: reply.stdout, stderr: reply.stderr });
      return;
    }
    const said = reply.stderr.trim() || reply.error.message;
    request.reject(
      new ToolFailed(
        `${request.command}: ${said}`,
        reply,
        // A time-out's status is null (a signal ended it): no code then, only the signal.
        reply.error.code ?? undefined,
        reply.error.signal ?? undefined,
      ),
    );
  });
  child.on('error', (error) => end(`the tool runner failed: ${error.message}`));
  child.on('exit', (code, signal) => end(`the tool runner ended (${signal ?? code})`));
  child.unref();
  return child;
}

/** The helper keeps the process alive only while a command of it runs. */
function holdLoop(child: ChildProcess): void {
  if (pending.size > 0) child.channel?.ref();
  else child.channel?.unref();
}

/**
 * Runs `file` with `args` in the helper and resolves with what it printed; rejects with a
 * `ToolFailed` whose message is the command and its stderr's (or the failure's) words.
 */
export function runTool(
  file: string,
  args: readonly string[],
  options: ToolOptions = {},
): Promise<ToolOutput> {
  const command = `${file} ${args.join(' ')}`;
  helper ??= startHelper();
  const child = helper;
  const id = nextId++;
  return new Promise<ToolOutput>((resolve, reject) => {
    pending.set(id, { command, resolve, reject });
    holdLoop(child);
    child.send(
      {
        id,
        file,
        args,
        input: options.input,
        timeoutMs: options.timeoutMs ?? 0,
        maxBuffer: MAX_OUTPUT_BYTES,
      },
      (error) => {
        if (!error || !pending.has(id)) return;
        pending.delete(id);
        holdLoop(child);
        reject(
          new ToolFailed(`${command}: the tool runner is gone (${error.message})`, {}, 'EHELPER'),
        );
      },
    );
  });
}
