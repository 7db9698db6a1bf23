import { readFile } from 'node:fs/promises';
import type { EventStream } from '@x/client';
import type { CurlResult, LogEvent, PlaywrightExecuteResult, TelemetryEnvelope } from '@x/types';
import { CliError, usageError } from '../cli-error.js';
import { EXIT_CODES } from '../exit-codes.js';
import { BROWSER_ARG, type CommandSpec } from './command.js';
import { callOperation, follow, listShow, operationCommand } from './define.js';
import { readStdin } from './files.js';
import { telemetryLine, telemetryTable } from './views.js';

const BROWSER = BROWSER_ARG;

/** `xb playwright …`, `xb logs …` and `xb telemetry …`: code against a browser, beside it; what it did. */
export const workbenchCommands: CommandSpec[] = [
  operationCommand<PlaywrightExecuteResult>('playwright', 'exec', 'browsers.playwright.execute', {
    args: [BROWSER, { name: '[code]', field: 'code', isOptional: true }],
    flags: [
      {
        name: 'file',
        kind: 'string',
        short: 'f',
        placeholder: '<path>',
        description: 'read the code from a file (- reads stdin) instead of the argument',
      },
    ],
    example:
      'xb playwright exec br_x7Hq2K9mN4pL \'await page.goto("https://example.com"); return page.title()\'',
    show: () => '',
    run: async (context) => {
      const file = context.flags.file as string | undefined;
      const given = context.input.code as string | undefined;
      if ((file === undefined) === (given === undefined))
        throw usageError('Give the code as the argument, or --file <path> (- reads stdin).');
      if (file !== undefined) {
        try {
          context.input.code =
            file === '-' ? await readStdin(context) : await readFile(file, 'utf8');
        } catch (error) {
          throw usageError(`Cannot read ${file}: ${(error as Error).message}`);
        }
      } else if (given === '-') {
        context.input.code = await readStdin(context);
      }
      const outcome = await callOperation<PlaywrightExecuteResult>(
        context,
        'browsers.playwright.execute',
      );
      if (context.isJson) context.printJson(outcome);
      else {
        // What the code logged, as it logged it; then its result, as JSON.
        if (outcome.stdout) context.io.stdout.write(outcome.stdout);
        if (outcome.stderr) context.io.stderr.write(outcome.stderr);
        if (outcome.success) context.print(JSON.stringify(outcome.result ?? null, null, 2));
      }
      if (!outcome.success)
        throw new CliError(
          `The code failed: ${outcome.error ?? 'no reason given'}`,
          EXIT_CODES.api,
        );
    },
  }),
  operationCommand('logs', 'stream', 'browsers.logs.stream', {
    args: [BROWSER, { name: '[path]', field: 'path', isOptional: true }],
    flags: [
      {
        name: 'timestamps',
        kind: 'boolean',
        short: 't',
        description: 'put the time of each line before it',
      },
    ],
    example: 'xb logs stream br_x7Hq2K9mN4pL /home/browser/app.log',
    show: () => '',
    run: async (context) => {
      // A path names a file; without one, the session's own log.
      context.input.source ??= context.input.path === undefined ? 'supervisor' : 'path';
      const stream = await callOperation<EventStream<LogEvent>>(context, 'browsers.logs.stream');
      const isTimed = context.flags.timestamps === true;
      await follow(context, stream, (event) =>
        context.print(isTimed ? `[${event.timestamp}] ${event.message}` : event.message),
      );
    },
  }),
  operationCommand<TelemetryEnvelope[]>('telemetry', 'events', 'browsers.telemetry.events', {
    args: [BROWSER],
    example: 'xb telemetry events br_x7Hq2K9mN4pL --category console,network --since 10m',
    show: listShow(telemetryTable, 'No events.'),
  }),
  operationCommand('telemetry', 'stream', 'browsers.telemetry.stream', {
    args: [BROWSER],
    example: 'xb telemetry stream br_x7Hq2K9mN4pL --replay all',
    show: () => '',
    run: async (context) => {
      const stream = await callOperation<EventStream<TelemetryEnvelope>>(
        context,
        'browsers.telemetry.stream',
      );
      await follow(context, stream, (envelope) => context.print(telemetryLine(envelope)));
    },
  }),
  operationCommand<CurlResult>('browsers', 'curl', 'browsers.curl', {
    args: [BROWSER, { name: '<url>', field: 'url' }],
    flags: [
      {
        name: 'include',
        kind: 'boolean',
        short: 'i',
        description: 'print the status line and the headers before the body',
      },
    ],
    example:
      'xb browsers curl br_x7Hq2K9mN4pL https://example.com/api --method POST --body \'{"a":1}\' --headers \'{"content-type":"application/json"}\'',
    show: () => '',
    run: async (context) => {
      const answer = await callOperation<CurlResult>(context, 'browsers.curl');
      if (context.isJson) return context.printJson(answer);
      if (context.flags.include === true) {
        const lines = [`HTTP ${answer.status}`];
        for (const [name, values] of Object.entries(answer.headers))
          for (const value of values) lines.push(`${name}: ${value}`);
        context.io.stdout.write(`${lines.join('\n')}\n\n`);
      }
      // The body as it came: bytes stay bytes (base64 is decoded), text is written as it is.
      context.io.stdout.write(
        context.input.response_encoding === 'base64'
          ? Buffer.from(answer.body, 'base64')
          : answer.body,
      );
    },
  }),
];
