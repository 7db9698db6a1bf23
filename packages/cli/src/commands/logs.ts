import type { EventStream } from '@x/client';
import type { LogEvent } from '@x/types';
import { BROWSER_ARG, type CommandSet, type CommandSpec } from './command.js';
import { callOperation, follow, operationCommand } from './define.js';

/** `xb logs stream`: the lines of a file on the instance, or of the session's own log. */
export const logCommands: CommandSpec[] = [
  operationCommand('logs', 'stream', 'browsers.logs.stream', {
    args: [BROWSER_ARG, { name: '[path]', field: 'path', isOptional: true }],
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
];

/** `xb logs`: the group and its commands. */
export const logSet: CommandSet = {
  groups: [
    {
      name: 'logs',
      summary: 'Follow a log file on a browser’s instance, or the session’s own log',
    },
  ],
  commands: logCommands,
};
