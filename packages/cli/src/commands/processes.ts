import type { EventStream } from '@x/client';
import type {
  ExecResult,
  ProcessOutputEvent,
  ProcessStatus,
  SpawnedProcess,
  WatchEvent,
} from '@x/types';
import { BROWSER_ARG, type CommandContext, type CommandSet, type CommandSpec } from './command.js';
import { callOperation, follow, operationCommand, pause, printResult } from './define.js';
import { processStatusLine } from './views.js';

const BROWSER = BROWSER_ARG;
const PROCESS = { name: '<process>', field: 'process_id' } as const;
const COMMAND_ARGS = [
  BROWSER,
  { name: '<command>', field: 'command' },
  { name: '[args...]', field: 'args', isOptional: true, isVariadic: true },
] as const;

const decode = (base64: string) => Buffer.from(base64, 'base64');

/** The key that detaches `xb process attach` (Ctrl-], as telnet's). */
const DETACH = 0x1d;

/**
 * `xb process attach`: a person's terminal on a process's terminal. Keys go through raw (Ctrl-C
 * included, to the process), in order; its output comes back; the size follows the window.
 * Ends when the process exits or at Ctrl-].
 */
async function attach(context: CommandContext): Promise<void> {
  const where = { id: context.input.id, process_id: context.input.process_id };
  const terminal = context.io.terminal;
  const stream = await callOperation<EventStream<ProcessOutputEvent>>(
    context,
    'browsers.process.output',
    where,
  );
  let sending = Promise.resolve();
  const send = (bytes: Uint8Array) => {
    sending = sending.then(async () => {
      await callOperation(context, 'browsers.process.stdin', {
        ...where,
        data_b64: Buffer.from(bytes).toString('base64'),
      });
    });
    sending.catch(() => void stream.close());
  };
  const resize = () => {
    if (!terminal) return;
    const { rows, cols } = terminal.size();
    void callOperation(context, 'browsers.process.resize', { ...where, rows, cols }).catch(
      () => undefined, // a process without a terminal: its output still comes
    );
  };
  const stopResizing = terminal?.onResize(resize);
  resize();
  terminal?.setRawMode(true);
  let isDetached = false;
  const keys = context.io.stdin[Symbol.asyncIterator]();
  const typing = (async () => {
    for (;;) {
      const { value: chunk, done } = await keys.next();
      if (done) return;
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      const detachAt = bytes.indexOf(DETACH);
      if (detachAt !== -1) {
        if (detachAt > 0) send(bytes.subarray(0, detachAt));
        isDetached = true;
        void stream.close();
        return;
      }
      send(bytes);
    }
  })();
  let exitCode: number | undefined;
  try {
    for await (const event of stream) {
      if (event.type === 'stdout' || event.type === 'stderr')
        context.io.stdout.write(decode(event.data_b64));
      else if (event.type === 'exit') exitCode = event.exit_code;
    }
  } finally {
    terminal?.setRawMode(false);
    stopResizing?.();
  }
  // Keys that could not be sent closed the stream: the attach fails with why, unless it ended
  // otherwise (the process exited, or the person detached).
  const unsent = await sending.then(
    () => undefined,
    (error: unknown) => ({ error }),
  );
  // Stops reading the keyboard (the stream it reads is closed, so the CLI can exit).
  await keys.return?.();
  // The read cut short just above may fail; no key is lost, as the attach is over.
  await typing.catch(() => undefined);
  if (isDetached) context.io.stderr.write(`${context.errorColors.dim('detached')}\n`);
  else if (exitCode !== undefined)
    context.io.stderr.write(`${context.errorColors.dim(`exited ${exitCode}`)}\n`);
  else if (unsent) throw unsent.error;
}

/** `xb process …` and `xb fs …`. */
export const processCommands: CommandSpec[] = [
  operationCommand<SpawnedProcess>('process', 'spawn', 'browsers.process.spawn', {
    args: COMMAND_ARGS,
    example: 'xb process spawn br_x7Hq2K9mN4pL sleep 30 --timeout-sec 60',
    show: (context, spawned) =>
      `${context.colors.green('✓')} Started process ${context.colors.cyan(spawned.process_id)} (pid ${spawned.pid}).`,
  }),
  operationCommand<ExecResult>('process', 'exec', 'browsers.process.exec', {
    args: COMMAND_ARGS,
    example: 'xb process exec br_x7Hq2K9mN4pL ls -- -la /home/browser/Downloads',
    show: () => '',
    run: async (context) => {
      const result = await callOperation<ExecResult>(context, 'browsers.process.exec');
      if (context.isJson) {
        context.printJson(result);
        return;
      }
      // The command's own output, as it wrote it; its exit code is reported, not passed on.
      context.io.stdout.write(decode(result.stdout_b64));
      context.io.stderr.write(decode(result.stderr_b64));
      if (result.dropped_bytes !== undefined)
        context.io.stderr.write(
          `${context.errorColors.yellow(`the first ${result.dropped_bytes} bytes of output were dropped (the service keeps the newest)`)}\n`,
        );
      if (result.exit_code !== 0)
        context.io.stderr.write(`${context.errorColors.yellow(`exit code ${result.exit_code}`)}\n`);
    },
  }),
  operationCommand('process', 'kill', 'browsers.process.kill', {
    args: [BROWSER, PROCESS],
    example: 'xb process kill br_x7Hq2K9mN4pL proc_3JkQ9s --signal KILL',
    show: (context) =>
      `${context.colors.green('✓')} Sent ${(context.input.signal as string | undefined) ?? 'TERM'} to process ${context.input.process_id}.`,
  }),
  operationCommand<ProcessStatus>('process', 'status', 'browsers.process.status', {
    args: [BROWSER, PROCESS],
    flags: [
      {
        name: 'watch',
        kind: 'boolean',
        short: 'w',
        description: 'print the status every second until the process exits',
      },
    ],
    example: 'xb process status br_x7Hq2K9mN4pL proc_3JkQ9s --watch',
    show: (context, status) => processStatusLine(context.colors, status),
    run: async (context, show) => {
      for (;;) {
        const status = await callOperation<ProcessStatus>(context, 'browsers.process.status');
        printResult(context, status, show);
        if (!context.flags.watch || status.state === 'exited') return;
        await pause(context, 1000);
      }
    },
  }),
  operationCommand('process', 'output', 'browsers.process.output', {
    args: [BROWSER, PROCESS],
    example: 'xb process output br_x7Hq2K9mN4pL proc_3JkQ9s',
    show: () => '',
    run: async (context) => {
      const stream = await callOperation<EventStream<ProcessOutputEvent>>(
        context,
        'browsers.process.output',
      );
      await follow(context, stream, (event) => {
        if (event.type === 'stdout') context.io.stdout.write(decode(event.data_b64));
        else if (event.type === 'stderr') context.io.stderr.write(decode(event.data_b64));
        else if (event.type === 'overflow')
          context.io.stderr.write(
            `${context.errorColors.yellow(`… ${event.lost_bytes} bytes of output dropped …`)}\n`,
          );
        else context.io.stderr.write(`${context.errorColors.dim(`exited ${event.exit_code}`)}\n`);
      });
    },
  }),
  operationCommand('process', 'resize', 'browsers.process.resize', {
    args: [BROWSER, PROCESS],
    example: 'xb process resize br_x7Hq2K9mN4pL proc_3JkQ9s --rows 50 --cols 160',
    show: (context) =>
      `${context.colors.green('✓')} Resized the terminal of ${context.input.process_id} to ${context.input.rows}×${context.input.cols}.`,
  }),
  {
    group: 'process',
    name: 'attach',
    summary:
      'Attach this terminal to a process spawned with --allocate-tty: keys go to it, its output comes here (Ctrl-] detaches).',
    operation: 'browsers.process.stdin',
    args: [BROWSER, PROCESS],
    flags: [],
    example:
      'xb process spawn br_x7Hq2K9mN4pL bash --allocate-tty --json; xb process attach br_x7Hq2K9mN4pL proc_3JkQ9s',
    run: (context) => attach(context),
  },
  operationCommand('fs', 'watch', 'browsers.fs.watch.start', {
    summary: 'Watch a directory on the browser instance and print its changes until Ctrl-C.',
    alsoServes: ['browsers.fs.watch.events'],
    args: [BROWSER, { name: '<path>', field: 'path' }],
    example: 'xb fs watch br_x7Hq2K9mN4pL /home/browser/Downloads --recursive',
    show: () => '',
    run: async (context) => {
      const { watch_id } = await callOperation<{ watch_id: string }>(
        context,
        'browsers.fs.watch.start',
      );
      const where = { id: context.input.id, watch_id };
      if (!context.isJson)
        context.io.stderr.write(
          context.errorColors.dim(
            `Watching ${context.input.path} (watch ${watch_id}); Ctrl-C to stop.\n`,
          ),
        );
      try {
        const stream = await callOperation<EventStream<WatchEvent>>(
          context,
          'browsers.fs.watch.events',
          where,
        );
        await follow(context, stream, (event) =>
          context.print(
            event.type === 'OVERFLOW'
              ? context.colors.yellow(`OVERFLOW  ${event.lost} events lost`)
              : `${context.colors.cyan(event.type.padEnd(6))}  ${event.path}`,
          ),
        );
      } finally {
        // However the stream ended (Ctrl-C included), the watch is stopped on the service too.
        await callOperation(context, 'browsers.fs.watch.stop', where, { signal: undefined }).catch(
          () => undefined,
        );
      }
    },
  }),
  operationCommand('fs', 'unwatch', 'browsers.fs.watch.stop', {
    args: [BROWSER, { name: '<watch>', field: 'watch_id' }],
    example: 'xb fs unwatch br_x7Hq2K9mN4pL watch_8sKq2L',
    show: (context) => `${context.colors.green('✓')} Stopped watch ${context.input.watch_id}.`,
  }),
];

/** `xb process`: the group and its commands. */
export const processSet: CommandSet = {
  groups: [{ name: 'process', summary: 'Run and watch processes on a browser’s instance' }],
  commands: processCommands,
};
