import type { CallPromise, Client } from '@x/client';
import type { OperationName } from '@x/types';
import type { ConnectionFlags } from '../config/settings.js';
import type { CliIo } from '../io.js';
import type { Colors } from '../output/colors.js';

/** A positional argument and the input field it fills. */
export interface ArgSpec {
  /** As help shows it: `<browser>`. */
  readonly name: string;
  /** Input field it fills; none when the command reads it itself. */
  readonly field?: string;
  readonly isOptional?: boolean;
  /** Takes every remaining argument. */
  readonly isVariadic?: boolean;
  /** Read as a number (a coordinate), not text. */
  readonly isNumber?: boolean;
  /**
   * Names a running browser: its session id or its name. A name is resolved to the id before the
   * call, and shell completion offers the running browsers here.
   */
  readonly isBrowser?: boolean;
}

/** The `<browser>` argument: a running browser's session id or name, filling `id`. */
export const BROWSER_ARG: ArgSpec = { name: '<browser>', field: 'id', isBrowser: true };

/** How a flag's value becomes an input value. */
export type FlagKind = 'boolean' | 'number' | 'string' | 'json';

/** A flag of a command. */
export interface FlagSpec {
  /** Long name without dashes: `delay`, `acquire-timeout-seconds`. */
  readonly name: string;
  readonly kind: FlagKind;
  readonly description: string;
  readonly short?: string;
  /** Input field it fills; none when the command reads it itself. */
  readonly field?: string;
  /** Value shown in help: `<ms>`. */
  readonly placeholder?: string;
}

/** What a command gets to do its work. */
export interface CommandContext {
  readonly io: CliIo;
  /** Positional arguments by ArgSpec name. */
  readonly args: Readonly<Record<string, string | string[] | undefined>>;
  /** Flag values by FlagSpec name, already converted. */
  readonly flags: Readonly<Record<string, unknown>>;
  /** The operation's input: positionals and flags that name fields. */
  readonly input: Record<string, unknown>;
  /** `--json`: exactly one JSON document on stdout (one per line for streams), nothing else there. */
  readonly isJson: boolean;
  /** Colors for stdout and for stderr. */
  readonly colors: Colors;
  readonly errorColors: Colors;
  /** Whether progress bars and spinners may draw on stderr. */
  readonly showsProgress: boolean;
  readonly signal: AbortSignal;
  /** What `--base-url`, `--token` and `--profile` say. */
  readonly connection: ConnectionFlags;
  /** The client, created on first use (and only then is the token required). */
  client(): Promise<Client>;
  /** Writes a line to stdout. */
  print(text: string): void;
  /** Writes one JSON document (or stream event) as one line to stdout. */
  printJson(value: unknown): void;
}

/** One command of `xb`: `xb <group> <name> …`. */
export interface CommandSpec {
  readonly group: string;
  readonly name: string;
  /** One sentence for help. */
  readonly summary: string;
  /** The operation it calls, when it calls exactly one: its flags come from the catalog. */
  readonly operation?: OperationName;
  /** Other operations it serves (the events of a watch it starts), so none is derived for them. */
  readonly alsoServes?: readonly OperationName[];
  readonly args: readonly ArgSpec[];
  readonly flags: readonly FlagSpec[];
  readonly example: string;
  run(context: CommandContext): Promise<void>;
}

/** A group of `xb`'s commands (`xb <group> <command>`): its name, and what it is for in help. */
export interface CommandGroup {
  readonly name: string;
  readonly summary: string;
}

/**
 * What one file of commands adds to `xb`: the groups it introduces (in help order) and its
 * commands, each of a group some file introduces. `registry.ts` lists every file's set.
 */
export interface CommandSet {
  readonly groups: readonly CommandGroup[];
  readonly commands: readonly CommandSpec[];
}

/** Calls a client method by the operation's dotted name. */
export function methodOf(
  client: Client,
  operation: OperationName,
): (input?: unknown, options?: unknown) => CallPromise<unknown> {
  let target: unknown = client;
  for (const part of operation.split('.')) target = (target as Record<string, unknown>)[part];
  return target as (input?: unknown, options?: unknown) => CallPromise<unknown>;
}
