import type { CurlResult } from '@x/types';
import { BROWSER_ARG, type CommandSet, type CommandSpec } from './command.js';
import { callOperation, operationCommand } from './define.js';

/** `xb browsers curl`: an HTTP request made through the browser. */
export const curlCommands: CommandSpec[] = [
  operationCommand<CurlResult>('browsers', 'curl', 'browsers.curl', {
    args: [BROWSER_ARG, { name: '<url>', field: 'url' }],
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

/** More commands of `xb browsers`, whose group `browsers.ts` introduces. */
export const curlSet: CommandSet = {
  groups: [],
  commands: curlCommands,
};
