import type { EventStream, ListPage } from '@x/client';
import type { OperationName } from '@x/types';
import { operationByName } from '@x/types';
import {
  type ArgSpec,
  type CommandContext,
  type CommandSpec,
  type FlagSpec,
  methodOf,
} from './command.js';
import { operationFlags } from './schema-flags.js';

/** Calls the command's operation (or `operation`) with the context's input and signal. */
export async function callOperation<T = unknown>(
  context: CommandContext,
  operation: OperationName,
  input: Record<string, unknown> = context.input,
  options: Record<string, unknown> = {},
): Promise<T> {
  const method = methodOf(await context.client(), operation);
  return (await method(input, { signal: context.signal, ...options })) as T;
}

/** What a command built on one operation is made of. */
export interface OperationCommandOptions<T> {
  readonly args?: readonly ArgSpec[];
  /** Flags of its own, besides those the catalog gives. */
  readonly flags?: readonly FlagSpec[];
  readonly example: string;
  /** What a person sees; `--json` prints the result itself (`{}` when there is none). */
  readonly show: (context: CommandContext, result: T) => string;
  /** Replaces the default run (call, then show or print JSON); gets `show` to print with. */
  readonly run?: (
    context: CommandContext,
    show: (context: CommandContext, result: T) => string,
  ) => Promise<void>;
  /** Overrides the catalog's summary. */
  readonly summary?: string;
  /** Other operations the command serves besides its own (see `CommandSpec.alsoServes`). */
  readonly alsoServes?: readonly OperationName[];
}

/** Prints a command's result: one JSON document with `--json`, else what `show` makes of it. */
export function printResult<T>(
  context: CommandContext,
  result: T,
  show: (context: CommandContext, result: T) => string,
): void {
  if (context.isJson) context.printJson(result ?? {});
  else context.print(show(context, result));
}

/** `--all` of a list command: every page, not only the first. */
const ALL_FLAG: FlagSpec = {
  name: 'all',
  kind: 'boolean',
  description: 'every page of the list, not only the first (--limit records at a time)',
};

/**
 * Runs a list: one page (`--limit`, `--offset`), or with `--all` every record of every page. When
 * more follow one page, stderr says how to get them, so stdout stays the records alone.
 */
async function runList<T>(
  context: CommandContext,
  operation: OperationName,
  show: (context: CommandContext, result: T) => string,
): Promise<void> {
  const page = await callOperation<ListPage<unknown>>(context, operation);
  let items = page.items;
  if (context.flags.all === true) {
    items = [];
    for await (const item of page) items.push(item);
  } else if (page.hasMore) {
    const next =
      page.nextPageToken !== undefined
        ? `--page-token ${page.nextPageToken}`
        : `--offset ${page.nextOffset}`;
    context.io.stderr.write(`More follow: ${next} for the next page, or --all for every page.\n`);
  }
  printResult(context, items as T, show);
}

/** What a list command shows: the records as `table` lays them out, or `none` when there are none. */
export function listShow<T>(
  table: (colors: CommandContext['colors'], records: readonly T[]) => string,
  none: string,
): (context: CommandContext, records: T[]) => string {
  return (context, records) =>
    records.length ? table(context.colors, records) : context.colors.dim(none);
}

/** A command that calls one operation: summary and flags come from the catalog. */
export function operationCommand<T = unknown>(
  group: string,
  name: string,
  operation: OperationName,
  options: OperationCommandOptions<T>,
): CommandSpec {
  const args = options.args ?? [];
  const isList = 'paginated' in operationByName(operation);
  return {
    group,
    name,
    summary: options.summary ?? operationByName(operation).summary,
    operation,
    ...(options.alsoServes ? { alsoServes: options.alsoServes } : {}),
    args,
    flags: [
      ...operationFlags(operation, args),
      ...(isList ? [ALL_FLAG] : []),
      ...(options.flags ?? []),
    ],
    example: options.example,
    run: async (context) => {
      if (options.run) await options.run(context, options.show);
      else if (isList) await runList(context, operation, options.show);
      else printResult(context, await callOperation<T>(context, operation), options.show);
    },
  };
}

/** Waits `ms`; Ctrl-C ends the wait by throwing the abort reason. */
export function pause(context: CommandContext, ms: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    context.signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(context.signal.reason);
      },
      { once: true },
    );
  });
}

/** Prints each event of a stream as it comes: a JSON line each with `--json`, else as `show` says. */
export async function follow<T>(
  context: CommandContext,
  stream: EventStream<T>,
  show: (event: T) => void,
): Promise<void> {
  const stop = () => void stream.close();
  context.signal.addEventListener('abort', stop, { once: true });
  try {
    for await (const event of stream) {
      if (context.isJson) context.printJson(event);
      else show(event);
    }
  } finally {
    context.signal.removeEventListener('abort', stop);
  }
  context.signal.throwIfAborted();
}
