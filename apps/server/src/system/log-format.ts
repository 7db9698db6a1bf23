import type { DestinationStream } from 'pino';

/** How the server writes its log: JSON lines (for collectors), or lines for a person. */
export type LogFormat = 'json' | 'pretty';

/** Names of pino's levels, by number. */
const LEVELS: Readonly<Record<number, string>> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: 'INFO',
  40: 'WARN',
  50: 'ERROR',
  60: 'FATAL',
};

/** ANSI colours of the levels a person should notice. */
const COLOURS: Readonly<Record<number, string>> = {
  40: '\u001b[33m',
  50: '\u001b[31m',
  60: '\u001b[31m',
};

/** Fields every line has, shown in its head rather than among the rest. */
const HEAD_FIELDS = new Set(['level', 'time', 'msg', 'pid', 'hostname']);

/** A value as `key=value` shows it: strings bare unless they hold a space or a quote. */
function shown(value: unknown): string {
  if (typeof value === 'string')
    return /[\s"=]/.test(value) || value === '' ? JSON.stringify(value) : value;
  if (value instanceof Object && 'stack' in value && typeof value.stack === 'string')
    return JSON.stringify(value.stack);
  return JSON.stringify(value);
}

/**
 * One pino JSON line as a person reads it: `12:04:05 INFO listening url=http://… dataDir=…`, an
 * error's stack on the lines after it. A line that is not JSON is given as it is.
 */
export function prettyLine(line: string, colour: boolean): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line.endsWith('\n') ? line : `${line}\n`;
  }
  const level = typeof entry.level === 'number' ? entry.level : 30;
  const time = new Date(typeof entry.time === 'number' ? entry.time : Date.now())
    .toISOString()
    .slice(11, 19);
  const name = (LEVELS[level] ?? String(level)).padEnd(5);
  const paint = colour ? COLOURS[level] : undefined;
  const head = `${time} ${paint ? `${paint}${name}\u001b[0m` : name} ${String(entry.msg ?? '')}`;
  const rest: string[] = [];
  let stack = '';
  for (const [key, value] of Object.entries(entry)) {
    if (HEAD_FIELDS.has(key) || value === undefined) continue;
    const error = value as { stack?: unknown; message?: unknown };
    if (key === 'err' && typeof error?.stack === 'string') {
      stack = `\n  ${error.stack.split('\n').join('\n  ')}`;
      rest.push(`err=${shown(error.message ?? '')}`);
      continue;
    }
    rest.push(`${key}=${shown(value)}`);
  }
  return `${head}${rest.length > 0 ? ` ${rest.join(' ')}` : ''}${stack}\n`;
}

/** A pino destination that writes each line to `out` as `prettyLine` shows it. */
export function prettyDestination(
  out: NodeJS.WritableStream & { readonly isTTY?: boolean },
): DestinationStream {
  return { write: (line: string) => void out.write(prettyLine(line, out.isTTY === true)) };
}

/** The format asked for (`XB_LOG_FORMAT`), else pretty on a terminal and JSON elsewhere. */
export function logFormatOf(asked: string | undefined, isTerminal: boolean): LogFormat {
  if (asked === 'json' || asked === 'pretty') return asked;
  if (asked) throw new Error(`XB_LOG_FORMAT must be json or pretty, got "${asked}"`);
  return isTerminal ? 'pretty' : 'json';
}
