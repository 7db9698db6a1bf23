import { resolve } from 'node:path';
import type { BinaryBody } from '@x/client';
import { usageError } from '../cli-error.js';
import type { CommandContext, FlagSpec } from './command.js';

/** `-o, --output <file>`: where a download goes (`-` for stdout). */
export const OUTPUT_FLAG: FlagSpec = {
  name: 'output',
  short: 'o',
  kind: 'string',
  placeholder: '<file>',
  description: 'file to save it to (- for stdout)',
};

/**
 * The `-o` target: the file given, `-` for stdout; without `-o`, stdout when it is redirected
 * to a file or a pipe (`xb fs read … > out.pdf`), else a usage error that says how to give one.
 */
export function outputTarget(context: CommandContext, example: string): string {
  const given = context.flags.output as string | undefined;
  const output = given || (!context.io.stdout.isTTY && !context.isJson ? '-' : undefined);
  if (!output)
    throw usageError(`Say where to save it: -o ${example} (or redirect stdout: > ${example}).`);
  if (output === '-' && context.io.stdout.isTTY)
    throw usageError('Refusing to write binary data to a terminal: use -o <file>, or pipe stdout.');
  if (output === '-' && context.isJson)
    throw usageError('--json prints a JSON document on stdout: save the file with -o <file>.');
  return output;
}

/** Where a download was saved and how big it is. */
export interface SavedFile {
  readonly path: string;
  readonly bytes: number;
}

/**
 * Saves a download to `target` (relative to the CLI's working directory) as it arrives, with no
 * partial file left on failure; `-` writes it to stdout. Returns the path and size.
 */
export async function saveBinary(
  context: CommandContext,
  body: BinaryBody,
  target: string,
): Promise<SavedFile> {
  if (target === '-') {
    let bytes = 0;
    for await (const chunk of body.stream as unknown as AsyncIterable<Uint8Array>) {
      bytes += chunk.byteLength;
      context.io.stdout.write(chunk);
    }
    return { path: '-', bytes };
  }
  const path = resolve(context.io.cwd, target);
  const { saveToFile } = await import('@x/client/node');
  try {
    return { path, bytes: await saveToFile(body, path) };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'EACCES' || code === 'EISDIR' || code === 'ENOTDIR') {
      throw usageError(
        `Cannot write ${path} (${code}): choose a file in a folder you can write to.`,
      );
    }
    throw error;
  }
}

/** Reads all of stdin as UTF-8 text (for `-` arguments). */
export async function readStdin(context: CommandContext): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of context.io.stdin)
    chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk));
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Replaces an input field given as `-` with what stdin holds; with `trimNewline`, less the one
 * line ending `echo` and most programs put at its end (as a shell's `$(…)` drops it): typed, it
 * would press Enter.
 */
export async function stdinForDash(
  context: CommandContext,
  field: string,
  options: { readonly trimNewline?: boolean } = {},
): Promise<void> {
  if (context.input[field] !== '-') return;
  const text = await readStdin(context);
  context.input[field] = options.trimNewline ? text.replace(/\r?\n$/, '') : text;
}
