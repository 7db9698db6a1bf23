import { readFile } from 'node:fs/promises';
import type { PlaywrightExecuteResult } from '@x/types';
import { CliError, usageError } from '../cli-error.js';
import { EXIT_CODES } from '../exit-codes.js';
import { BROWSER_ARG, type CommandSet, type CommandSpec } from './command.js';
import { callOperation, operationCommand } from './define.js';
import { readStdin } from './files.js';

/** `xb playwright exec`: Playwright code run against a browser, beside it. */
export const playwrightCommands: CommandSpec[] = [
  operationCommand<PlaywrightExecuteResult>('playwright', 'exec', 'browsers.playwright.execute', {
    args: [BROWSER_ARG, { name: '[code]', field: 'code', isOptional: true }],
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
];

/** `xb playwright`: the group and its commands. */
export const playwrightSet: CommandSet = {
  groups: [{ name: 'playwright', summary: 'Run Playwright code beside a browser, on its page' }],
  commands: playwrightCommands,
};
