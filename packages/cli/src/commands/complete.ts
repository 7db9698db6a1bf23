import type { ListPage } from '@x/client';
import type { BrowserSession } from '@x/types';
import { resolveSettings } from '../config/settings.js';
import { GLOBAL_FLAGS } from '../global-flags.js';
import type { CliIo } from '../io.js';
import { type CommandSpec, methodOf } from './command.js';
import { findCommand } from './registry.js';

/**
 * The hidden command the completion scripts call: `xb __complete <words after xb>`, the word being
 * completed last (empty when nothing is typed yet). Its first line says what fits there:
 * `browsers`, then the running browsers' ids and names, one a line; or `files`, for the shell to
 * complete file names. It never fails and says nothing on stderr: with no service, no token or a
 * slow answer it offers no browser, within about a second.
 */
export const COMPLETE_COMMAND = '__complete';

/** How long the service may take to list its browsers before completion gives up on them. */
const LIST_TIMEOUT_MS = 1000;

/** The flags the connection comes from, as `resolveSettings` takes them. */
const CONNECTION_FLAGS = {
  'base-url': 'baseUrl',
  token: 'token',
  profile: 'profile',
  project: 'project',
} as const;

type Wanted = 'browsers' | 'files';

/** What the word after `before` (the words after `xb`) is for, in `command`. */
function wantedAt(command: CommandSpec, before: readonly string[]): Wanted {
  const flags = [...command.flags, ...GLOBAL_FLAGS];
  const takesValue = (word: string) => {
    const flag = word.startsWith('--')
      ? flags.find((one) => `--${one.name}` === word)
      : flags.find((one) => one.short !== undefined && `-${one.short}` === word);
    return flag !== undefined && flag.kind !== 'boolean';
  };
  let positional = 0;
  let flagsEnded = false;
  for (let index = 0; index < before.length; index++) {
    const word = before[index] as string;
    if (!flagsEnded && word === '--') flagsEnded = true;
    else if (!flagsEnded && word.startsWith('-') && word !== '-') {
      if (word.includes('=') || !takesValue(word)) continue;
      // The word being completed is this flag's value.
      if (index === before.length - 1) return 'files';
      index++;
    } else positional++;
  }
  const last = command.args.at(-1);
  const arg = command.args[positional] ?? (last?.isVariadic ? last : undefined);
  return arg?.isBrowser ? 'browsers' : 'files';
}

/** The connection flags among `words`: `--token t` and `--token=t` alike. */
function connectionOf(words: readonly string[]): Record<string, string> {
  const connection: Record<string, string> = {};
  for (const [index, word] of words.entries()) {
    for (const [flag, key] of Object.entries(CONNECTION_FLAGS)) {
      if (word.startsWith(`--${flag}=`)) connection[key] = word.slice(flag.length + 3);
      else if (word === `--${flag}` && words[index + 1] !== undefined)
        connection[key] = words[index + 1] as string;
    }
  }
  return connection;
}

/** The running browsers' ids and names, or none when the service cannot say so quickly. */
async function runningBrowsers(words: readonly string[], io: CliIo): Promise<string[]> {
  try {
    const settings = await resolveSettings(connectionOf(words), io.env);
    if (!settings.token) return [];
    const { createClient } = await import('@x/client');
    const client = createClient({
      baseUrl: settings.baseUrl,
      token: settings.token,
      ...(settings.project ? { project: settings.project } : {}),
      ...(io.fetch ? { fetch: io.fetch } : {}),
      timeout: LIST_TIMEOUT_MS,
      maxRetries: 0,
    });
    const page = (await methodOf(client, 'browsers.list')(
      {},
      { signal: AbortSignal.timeout(LIST_TIMEOUT_MS) },
    )) as ListPage<BrowserSession>;
    return page.items.flatMap((session) =>
      session.name ? [session.session_id, session.name] : [session.session_id],
    );
  } catch {
    return [];
  }
}

/** Answers `xb __complete …` on `io`'s stdout; never throws. */
export async function complete(words: readonly string[], io: CliIo): Promise<void> {
  const before = words.slice(0, -1);
  const [group, name] = before;
  const command = group === undefined ? undefined : findCommand(group, name);
  // The group's own command (`xb completion <shell>`) has no name word before its arguments.
  const afterCommand = command === undefined ? [] : before.slice(command.name === '' ? 1 : 2);
  const wanted =
    command === undefined || (command.name !== '' && name === undefined)
      ? 'files'
      : wantedAt(command, afterCommand);
  const candidates = wanted === 'browsers' ? await runningBrowsers(before, io) : [];
  io.stdout.write(`${[wanted, ...candidates].join('\n')}\n`);
}
