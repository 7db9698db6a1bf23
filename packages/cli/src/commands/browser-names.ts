import { BrowserNameSchema, type BrowserSession } from '@x/types';
import { is } from 'valibot';
import type { CommandContext, CommandSpec } from './command.js';
import { callOperation } from './define.js';

/** A session id as the service makes them (`br_` and 12 letters or digits); a name never looks so. */
const SESSION_ID = /^br_[A-Za-z0-9]{12}$/;

/** Whether `value` is shaped like a session id rather than a browser's name. */
export function isSessionId(value: string): boolean {
  return SESSION_ID.test(value);
}

/**
 * Puts the session id in place of every running browser's name the command was given, so each
 * command that takes a browser takes its name too (the service looks names up in
 * `GET /browsers/{id}` only). A name no browser runs under is the service's 404, as an unknown id
 * is; what is neither an id nor a name is left for the input checks to refuse (exit 2). `browsers
 * get` is the lookup itself: it sends what it was given.
 */
export async function resolveBrowserNames(
  command: CommandSpec,
  context: CommandContext,
  args: Record<string, string | string[] | undefined>,
): Promise<void> {
  if (command.operation === 'browsers.get') return;
  for (const arg of command.args) {
    const value = args[arg.name];
    if (!arg.isBrowser || typeof value !== 'string' || isSessionId(value)) continue;
    if (!is(BrowserNameSchema, value)) continue;
    const session = await callOperation<BrowserSession>(context, 'browsers.get', { id: value });
    args[arg.name] = session.session_id;
    if (arg.field) context.input[arg.field] = session.session_id;
  }
}
