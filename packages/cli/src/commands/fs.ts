import { posix, resolve } from 'node:path';
import type { BinaryBody } from '@x/client';
import type { FileEntry } from '@x/types';
import { usageError } from '../cli-error.js';
import { formatBytes, renderRecord, renderTable } from '../output/format.js';
import { BROWSER_ARG, type CommandContext, type CommandSet, type CommandSpec } from './command.js';
import { callOperation, operationCommand, printResult } from './define.js';
import { OUTPUT_FLAG, outputTarget, type SavedFile, saveBinary } from './files.js';

const BROWSER = BROWSER_ARG;
const PATH = { name: '<path>', field: 'path' } as const;

const done = (context: CommandContext, what: string) =>
  `${context.colors.green('✓')} ${what} on ${context.input.id}.`;

/** A local file as an upload source (read as it is sent); a usage error names a missing one. */
async function localFile(context: CommandContext, path: string): Promise<File> {
  const absolute = resolve(context.io.cwd, path);
  const { fileFromPath } = await import('@x/client/node');
  try {
    return await fileFromPath(absolute);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw usageError(
      `Cannot read ${absolute} (${code ?? 'unreadable'}): name a file you can read.`,
    );
  }
}

/** stdin as a stream of bytes, for `-`. */
function stdinStream(context: CommandContext): ReadableStream<Uint8Array> {
  const iterator = context.io.stdin[Symbol.asyncIterator]();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done: isDone, value } = await iterator.next();
      if (isDone) controller.close();
      else controller.enqueue(typeof value === 'string' ? new TextEncoder().encode(value) : value);
    },
    async cancel() {
      await iterator.return?.();
    },
  });
}

/** One entry as `ls -l` shows it: mode, size, time, name (a directory with a slash). */
function entryRows(entries: readonly FileEntry[]): string[][] {
  return entries.map((entry) => [
    entry.mode,
    entry.is_dir ? '-' : formatBytes(entry.size_bytes),
    entry.mod_time,
    entry.is_dir ? `${entry.name}/` : entry.name,
  ]);
}

/** `xb fs …`: files on a browser's instance (the watches are in processes.ts). */
export const fsCommands: CommandSpec[] = [
  operationCommand<SavedFile>('fs', 'read', 'browsers.fs.readFile', {
    args: [BROWSER, PATH],
    flags: [OUTPUT_FLAG],
    example: 'xb fs read br_x7Hq2K9mN4pL /home/browser/Downloads/report.pdf -o report.pdf',
    show: (context, saved) =>
      `${context.colors.green('✓')} Saved ${context.input.path} to ${saved.path} (${saved.bytes} bytes).`,
    run: async (context, show) => {
      const target = outputTarget(context, posix.basename(String(context.input.path)));
      const body = await callOperation<BinaryBody>(context, 'browsers.fs.readFile');
      const saved = await saveBinary(context, body, target);
      if (target !== '-') printResult(context, saved, show);
    },
  }),
  operationCommand('fs', 'write', 'browsers.fs.writeFile', {
    args: [BROWSER, PATH, { name: '<file>', field: 'content' }],
    example:
      'xb fs write br_x7Hq2K9mN4pL /home/browser/input.csv ./input.csv --mode 600   (- reads stdin)',
    show: (context) => done(context, `Wrote ${context.input.path}`),
    run: async (context, show) => {
      const source = String(context.input.content);
      context.input.content =
        source === '-' ? stdinStream(context) : await localFile(context, source);
      printResult(context, await callOperation(context, 'browsers.fs.writeFile'), show);
    },
  }),
  operationCommand<FileEntry[]>('fs', 'ls', 'browsers.fs.listFiles', {
    args: [BROWSER, PATH],
    example: 'xb fs ls br_x7Hq2K9mN4pL /home/browser/Downloads',
    show: (context, entries) =>
      entries.length === 0
        ? context.colors.dim('Empty.')
        : renderTable(context.colors, ['MODE', 'SIZE', 'MODIFIED', 'NAME'], entryRows(entries)),
  }),
  operationCommand<FileEntry>('fs', 'stat', 'browsers.fs.fileInfo', {
    args: [BROWSER, PATH],
    example: 'xb fs stat br_x7Hq2K9mN4pL /home/browser/Downloads/report.pdf',
    show: (context, entry) => renderRecord(context.colors, { ...entry }),
  }),
  operationCommand('fs', 'mkdir', 'browsers.fs.createDirectory', {
    args: [BROWSER, PATH],
    example: 'xb fs mkdir br_x7Hq2K9mN4pL /home/browser/inputs/2026 --mode 700',
    show: (context) => done(context, `Made ${context.input.path}`),
  }),
  operationCommand('fs', 'rm', 'browsers.fs.deleteFile', {
    args: [BROWSER, PATH],
    example: 'xb fs rm br_x7Hq2K9mN4pL /home/browser/Downloads/old.pdf',
    show: (context) => done(context, `Deleted ${context.input.path}`),
  }),
  operationCommand('fs', 'rmdir', 'browsers.fs.deleteDirectory', {
    args: [BROWSER, PATH],
    example: 'xb fs rmdir br_x7Hq2K9mN4pL /home/browser/inputs   (and all it holds)',
    show: (context) => done(context, `Deleted ${context.input.path} and all it held`),
  }),
  operationCommand('fs', 'mv', 'browsers.fs.move', {
    args: [BROWSER, { name: '<from>', field: 'src_path' }, { name: '<to>', field: 'dest_path' }],
    example: 'xb fs mv br_x7Hq2K9mN4pL /home/browser/Downloads/a.pdf /home/browser/a.pdf',
    show: (context) =>
      done(context, `Moved ${context.input.src_path} to ${context.input.dest_path}`),
  }),
  operationCommand('fs', 'chmod', 'browsers.fs.setFilePermissions', {
    args: [BROWSER, { name: '<mode>', field: 'mode' }, PATH],
    example: 'xb fs chmod br_x7Hq2K9mN4pL 755 /home/browser/run.sh',
    show: (context) => done(context, `Set ${context.input.path} to ${context.input.mode}`),
  }),
  operationCommand('fs', 'upload', 'browsers.fs.upload', {
    args: [BROWSER, { name: '<dir>', field: 'files' }, { name: '<file...>', isVariadic: true }],
    summary: 'Upload local files into a directory of the browser instance (one call).',
    example: 'xb fs upload br_x7Hq2K9mN4pL /home/browser/inputs a.csv b.csv',
    show: (context) =>
      done(context, `Uploaded ${(context.input.files as unknown[]).length} file(s)`),
    run: async (context, show) => {
      const folder = String(context.input.files);
      const paths = (context.args['<file...>'] as string[] | undefined) ?? [];
      if (paths.length === 0) throw usageError('Name at least one local file to upload.');
      context.input.files = await Promise.all(
        paths.map(async (path) => ({
          dest_path: posix.join(folder, posix.basename(path.replaceAll('\\', '/'))),
          file: await localFile(context, path),
        })),
      );
      printResult(context, await callOperation(context, 'browsers.fs.upload'), show);
    },
  }),
  operationCommand('fs', 'upload-zip', 'browsers.fs.uploadZip', {
    args: [BROWSER, { name: '<zip>', field: 'zip_file' }, { name: '<dir>', field: 'dest_path' }],
    example: 'xb fs upload-zip br_x7Hq2K9mN4pL ./fixtures.zip /home/browser/fixtures',
    show: (context) => done(context, `Unpacked the zip into ${context.input.dest_path}`),
    run: async (context, show) => {
      context.input.zip_file = await localFile(context, String(context.input.zip_file));
      printResult(context, await callOperation(context, 'browsers.fs.uploadZip'), show);
    },
  }),
  operationCommand<SavedFile>('fs', 'download-zip', 'browsers.fs.downloadDirZip', {
    args: [BROWSER, PATH],
    flags: [OUTPUT_FLAG],
    example: 'xb fs download-zip br_x7Hq2K9mN4pL /home/browser/Downloads -o downloads.zip',
    show: (context, saved) =>
      `${context.colors.green('✓')} Saved ${context.input.path} as a zip to ${saved.path} (${saved.bytes} bytes).`,
    run: async (context, show) => {
      const target = outputTarget(context, 'folder.zip');
      const body = await callOperation<BinaryBody>(context, 'browsers.fs.downloadDirZip');
      const saved = await saveBinary(context, body, target);
      if (target !== '-') printResult(context, saved, show);
    },
  }),
];

/** `xb fs`: the group and its commands. */
export const fsSet: CommandSet = {
  groups: [{ name: 'fs', summary: 'Read, write, list and watch files on a browser’s instance' }],
  commands: fsCommands,
};
