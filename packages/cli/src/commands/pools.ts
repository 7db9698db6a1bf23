import type { BrowserPool, BrowserSession } from '@x/types';
import { CliError } from '../cli-error.js';
import { EXIT_CODES } from '../exit-codes.js';
import { startSpinner } from '../output/progress.js';
import type { CommandSet, CommandSpec } from './command.js';
import { callOperation, listShow, operationCommand, printResult } from './define.js';
import { browserView, poolTable, poolView } from './views.js';

const POOL = { name: '<id-or-name>', field: 'id_or_name' } as const;

/** `xb pools …`. */
export const poolCommands: CommandSpec[] = [
  operationCommand<BrowserPool>('pools', 'create', 'browserPools.create', {
    args: [{ name: '[name]', field: 'name', isOptional: true }],
    example: 'xb pools create checkout --size 4 --fill-rate-per-minute 25',
    show: (context, pool) => poolView(context.colors, pool),
  }),
  operationCommand<BrowserPool[]>('pools', 'list', 'browserPools.list', {
    example: 'xb pools list',
    show: listShow(poolTable, 'No pools.'),
  }),
  operationCommand<BrowserPool>('pools', 'get', 'browserPools.get', {
    args: [POOL],
    example: 'xb pools get checkout',
    show: (context, pool) => poolView(context.colors, pool),
  }),
  operationCommand<BrowserPool>('pools', 'update', 'browserPools.update', {
    args: [POOL],
    example: 'xb pools update checkout --size 8',
    show: (context, pool) => poolView(context.colors, pool),
  }),
  operationCommand('pools', 'delete', 'browserPools.delete', {
    args: [POOL],
    example: 'xb pools delete checkout --force',
    show: (context) => `${context.colors.green('✓')} Deleted pool ${context.input.id_or_name}.`,
  }),
  operationCommand<BrowserSession>('pools', 'acquire', 'browserPools.acquire', {
    args: [POOL],
    example: 'xb pools acquire checkout --acquire-timeout-seconds 60 --json',
    show: (context, session) => browserView(context.colors, session),
    run: async (context, show) => {
      const spinner = startSpinner(
        context.io.stderr,
        context.showsProgress,
        `Waiting for a browser of pool ${context.input.id_or_name}…`,
      );
      let outcome: { status: number; value: unknown };
      try {
        outcome = await callOperation(context, 'browserPools.acquire');
      } finally {
        spinner.stop();
      }
      if (outcome.status === 204) {
        const seconds = (context.input.acquire_timeout_seconds as number | undefined) ?? 30;
        throw new CliError(
          `No browser of pool ${context.input.id_or_name} came free within ${seconds} s (the service answered 204).`,
          EXIT_CODES.api,
        );
      }
      printResult(context, outcome.value as BrowserSession, show);
    },
  }),
  operationCommand('pools', 'release', 'browserPools.release', {
    args: [POOL, { name: '<session>', field: 'session_id', isBrowser: true }],
    example: 'xb pools release checkout br_x7Hq2K9mN4pL --no-reuse',
    show: (context) =>
      `${context.colors.green('✓')} Released ${context.input.session_id} to pool ${context.input.id_or_name}.`,
  }),
  operationCommand('pools', 'flush', 'browserPools.flush', {
    args: [POOL],
    example: 'xb pools flush checkout',
    show: (context) =>
      `${context.colors.green('✓')} Flushed the idle browsers of pool ${context.input.id_or_name}.`,
  }),
];

/** `xb pools`: the group and its commands. */
export const poolSet: CommandSet = {
  groups: [{ name: 'pools', summary: 'Keep pools of warm browsers; acquire and release them' }],
  commands: poolCommands,
};
