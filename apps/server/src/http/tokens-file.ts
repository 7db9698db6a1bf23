import { type FSWatcher, readFileSync, watch } from 'node:fs';
import { basename, dirname } from 'node:path';
import type { Logger } from 'pino';

/** The tokens a tokens file grants. */
export interface FileTokens {
  readonly tokens: readonly string[];
  readonly readOnlyTokens: readonly string[];
}

/** Longest token a tokens file may hold, in characters. */
const MAX_TOKEN_LENGTH = 512;
/** Most tokens a tokens file may hold. */
const MAX_TOKENS = 10_000;

/**
 * Reads a tokens file: one token per line, `read-only <token>` for one that may only read;
 * blank lines and `#` comments are skipped. A token is printable ASCII without spaces. Throws,
 * naming the line, on anything else: a file half understood is not taken.
 */
export function parseTokensFile(text: string): FileTokens {
  const tokens: string[] = [];
  const readOnlyTokens: string[] = [];
  const lines = text.split(/\r?\n/);
  for (const [index, raw] of lines.entries()) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const words = line.split(/\s+/);
    const [first, second] = words;
    const isReadOnly = first === 'read-only' && words.length === 2;
    const token = isReadOnly ? second : first;
    if (
      (words.length !== 1 && !isReadOnly) ||
      (first === 'read-only' && !isReadOnly) ||
      token === undefined ||
      token.length > MAX_TOKEN_LENGTH ||
      !/^[\x21-\x7e]+$/.test(token)
    ) {
      throw new Error(
        `line ${index + 1} is not a token or "read-only <token>" (printable ASCII, no spaces, ≤ ${MAX_TOKEN_LENGTH} characters)`,
      );
    }
    (isReadOnly ? readOnlyTokens : tokens).push(token);
    if (tokens.length + readOnlyTokens.length > MAX_TOKENS)
      throw new Error(`it holds more than ${MAX_TOKENS} tokens`);
  }
  return { tokens, readOnlyTokens };
}

/** The token sets the server checks calls against, changed in place as the file changes. */
export interface LiveTokenSets {
  readonly tokens: Set<string>;
  readonly readOnlyTokens: Set<string>;
}

/**
 * Keeps `sets` in step with a tokens file, on top of the tokens the environment gives: re-read
 * when the file changes (written in place or replaced by a rename, as editors and config tools
 * do) and on SIGHUP. A removed token stops working with the next call. A file that cannot be read
 * or parsed later is logged and the tokens in force are kept, so a half-written file never locks
 * everyone out; at start it is an error that names the problem. Gives `reload` (what SIGHUP
 * does) and `stop`.
 */
export function followTokensFile(
  path: string,
  sets: LiveTokenSets,
  fixed: FileTokens,
  logger: Logger,
): { reload: () => boolean; stop: () => void } {
  const take = (found: FileTokens) => {
    replaceAll(sets.tokens, [...fixed.tokens, ...found.tokens]);
    replaceAll(sets.readOnlyTokens, [...fixed.readOnlyTokens, ...found.readOnlyTokens]);
    // Counts only: a token is never logged.
    logger.info(
      { file: path, tokens: sets.tokens.size, readOnlyTokens: sets.readOnlyTokens.size },
      'tokens file read',
    );
  };
  try {
    take(parseTokensFile(readFileSync(path, 'utf8')));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new Error(
      `the tokens file ${path} cannot be used: ${code ? `it cannot be read (${code})` : (error as Error).message}`,
    );
  }
  const reload = (): boolean => {
    let found: FileTokens;
    try {
      found = parseTokensFile(readFileSync(path, 'utf8'));
    } catch (error) {
      logger.error(
        { file: path, reason: (error as Error).message },
        'tokens file not taken: the tokens in force stay',
      );
      return false;
    }
    take(found);
    return true;
  };
  const onHangUp = () => {
    reload();
  };
  process.on('SIGHUP', onHangUp);
  // The folder is watched, not the file: a file replaced by a rename keeps being followed.
  let watcher: FSWatcher | undefined;
  let timer: NodeJS.Timeout | undefined;
  try {
    watcher = watch(dirname(path), (_event, name) => {
      if (name !== null && name !== basename(path)) return;
      // A burst of events (truncate, write, rename) is read once, when it settles.
      clearTimeout(timer);
      timer = setTimeout(reload, 50);
    });
    watcher.on('error', (error) =>
      logger.warn({ file: path, err: error }, 'tokens file no longer watched: SIGHUP re-reads it'),
    );
  } catch (error) {
    logger.warn({ file: path, err: error }, 'tokens file not watched: SIGHUP re-reads it');
  }
  return {
    reload,
    stop: () => {
      process.off('SIGHUP', onHangUp);
      clearTimeout(timer);
      watcher?.close();
    },
  };
}

function replaceAll(set: Set<string>, values: readonly string[]): void {
  set.clear();
  for (const value of values) set.add(value);
}
