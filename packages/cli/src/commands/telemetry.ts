import type { EventStream } from '@x/client';
import type { TelemetryEnvelope } from '@x/types';
import { BROWSER_ARG, type CommandSet, type CommandSpec } from './command.js';
import { callOperation, follow, listShow, operationCommand } from './define.js';
import { telemetryLine, telemetryTable } from './views.js';

/** `xb telemetry …`: what a session did, as its telemetry kept it. */
export const telemetryCommands: CommandSpec[] = [
  operationCommand<TelemetryEnvelope[]>('telemetry', 'events', 'browsers.telemetry.events', {
    args: [BROWSER_ARG],
    example: 'xb telemetry events br_x7Hq2K9mN4pL --category console,network --since 10m',
    show: listShow(telemetryTable, 'No events.'),
  }),
  operationCommand('telemetry', 'stream', 'browsers.telemetry.stream', {
    args: [BROWSER_ARG],
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
];

/** `xb telemetry`: the group and its commands. */
export const telemetrySet: CommandSet = {
  groups: [
    {
      name: 'telemetry',
      summary: 'Read and follow what a browser’s pages and clients did: console, network, calls',
    },
  ],
  commands: telemetryCommands,
};
