import type { BinaryBody, UploadProgress } from '@x/client';
import type { Extension, Invocation, InvocationBrowsers, LoadedExtensions } from '@x/types';
import { usageError } from '../cli-error.js';
import { createProgressBar } from '../output/progress.js';
import { BROWSER_ARG, type CommandSet, type CommandSpec } from './command.js';
import { callOperation, listShow, operationCommand, printResult } from './define.js';
import { extensionFolderName, uploadArchive } from './extension-archive.js';
import { OUTPUT_FLAG, outputTarget, type SavedFile, saveBinary } from './files.js';
import {
  browserTable,
  extensionTable,
  extensionView,
  invocationTable,
  invocationView,
} from './views.js';

const EXTENSION = { name: '<id-or-name>', field: 'id_or_name' } as const;
const INVOCATION = { name: '<id>', field: 'id' } as const;

/** `xb extensions …` and `xb invocations …`. */
export const extensionCommands: CommandSpec[] = [
  operationCommand<Extension>('extensions', 'upload', 'extensions.upload', {
    summary: 'Upload a browser extension: a .zip as it is, or a folder zipped on the fly.',
    args: [{ name: '<path>' }],
    flags: [
      {
        name: 'include-hidden',
        kind: 'boolean',
        description:
          'zip a folder whole: keep .git, node_modules, .DS_Store and .env* (left out by default)',
      },
    ],
    example: 'xb extensions upload ./my-extension --name adblock',
    show: (context, extension) =>
      `${context.colors.green('✓')} Uploaded extension ${context.colors.cyan(extension.id)}${extension.name ? ` (${extension.name})` : ''}, ${extension.size_bytes} bytes.`,
    run: async (context, show) => {
      const archive = await uploadArchive(
        context.io.cwd,
        context.args['<path>'] as string,
        context.flags['include-hidden'] === true,
      );
      const bar = createProgressBar(context.io.stderr, context.showsProgress);
      const extension = await callOperation<Extension>(
        context,
        'extensions.upload',
        { ...context.input, file: archive.file },
        {
          onUploadProgress: (progress: UploadProgress) =>
            bar.update(progress.transferredBytes, archive.size),
        },
      );
      bar.finish();
      printResult(context, extension, show);
    },
  }),
  operationCommand<Extension[]>('extensions', 'list', 'extensions.list', {
    example: 'xb extensions list',
    show: listShow(extensionTable, 'No extensions.'),
  }),
  operationCommand<SavedFile>('extensions', 'download', 'extensions.download', {
    args: [EXTENSION],
    flags: [OUTPUT_FLAG],
    example: 'xb extensions download adblock -o adblock.zip',
    show: (context, saved) =>
      `${context.colors.green('✓')} Saved the extension to ${saved.path} (${saved.bytes} bytes).`,
    run: async (context, show) => {
      const target = outputTarget(context, 'extension.zip');
      const saved = await saveBinary(
        context,
        await callOperation<BinaryBody>(context, 'extensions.download'),
        target,
      );
      if (target !== '-') printResult(context, saved, show);
    },
  }),
  operationCommand<LoadedExtensions>('extensions', 'load', 'browsers.loadExtensions', {
    summary:
      'Load extensions into a running browser (folders zipped on the fly, or .zip files), without a restart.',
    args: [BROWSER_ARG, { name: '<path...>', field: 'extensions', isVariadic: true }],
    flags: [
      {
        name: 'include-hidden',
        kind: 'boolean',
        description:
          'zip a folder whole: keep .git, node_modules, .DS_Store and .env* (left out by default)',
      },
    ],
    example: 'xb extensions load br_x7Hq2K9mN4pL ./my-extension ./other.zip',
    show: (context, loaded) =>
      loaded.extensions
        .map(
          (one) =>
            `${context.colors.green('✓')} Loaded ${one.name} (${context.colors.cyan(one.extension_id)}).`,
        )
        .join('\n'),
    run: async (context, show) => {
      const paths = (context.input.extensions as string[] | undefined) ?? [];
      if (paths.length === 0) throw usageError('Name at least one extension folder or .zip.');
      context.input.extensions = await Promise.all(
        paths.map(async (path) => ({
          name: extensionFolderName(path),
          zip_file: (
            await uploadArchive(context.io.cwd, path, context.flags['include-hidden'] === true)
          ).file,
        })),
      );
      printResult(
        context,
        await callOperation<LoadedExtensions>(context, 'browsers.loadExtensions'),
        show,
      );
    },
  }),
  operationCommand<Extension>('extensions', 'get', 'extensions.metadata', {
    args: [EXTENSION],
    example: 'xb extensions get adblock   (size and SHA-256, without downloading it)',
    show: (context, extension) => extensionView(context.colors, extension),
  }),
  operationCommand('extensions', 'delete', 'extensions.delete', {
    args: [EXTENSION],
    example: 'xb extensions delete adblock',
    show: (context) =>
      `${context.colors.green('✓')} Deleted extension ${context.input.id_or_name}.`,
  }),
  operationCommand<Invocation>('invocations', 'create', 'invocations.create', {
    args: [
      { name: '<app>', field: 'app_name' },
      { name: '<action>', field: 'action_name' },
    ],
    example: 'xb invocations create shop-agent checkout --payload \'{"cart":42}\' --async',
    show: (context, invocation) => invocationView(context.colors, invocation),
    // Sync or async, the answer is the invocation (200 ended, 202 queued).
    run: async (context, show) => {
      const { value } = await callOperation<{ value: Invocation }>(context, 'invocations.create');
      printResult(context, value, show);
    },
  }),
  operationCommand<Invocation>('invocations', 'get', 'invocations.get', {
    args: [INVOCATION],
    example: 'xb invocations get inv_4HkP0qL2',
    show: (context, invocation) => invocationView(context.colors, invocation),
  }),
  operationCommand<Invocation>('invocations', 'update', 'invocations.update', {
    args: [INVOCATION],
    example: 'xb invocations update inv_4HkP0qL2 --status succeeded',
    show: (context, invocation) => invocationView(context.colors, invocation),
  }),
  operationCommand<Invocation[]>('invocations', 'list', 'invocations.list', {
    example: 'xb invocations list --status running --app-name shop-agent --all',
    show: listShow(invocationTable, 'No invocations.'),
  }),
  operationCommand('invocations', 'delete-browsers', 'invocations.deleteBrowsers', {
    args: [INVOCATION],
    example: 'xb invocations delete-browsers inv_4HkP0qL2',
    show: (context) =>
      `${context.colors.green('✓')} Deleted every browser of invocation ${context.input.id}.`,
  }),
  operationCommand<InvocationBrowsers>('invocations', 'browsers', 'invocations.listBrowsers', {
    args: [INVOCATION],
    example: 'xb invocations browsers inv_4HkP0qL2',
    show: (context, { browsers }) =>
      browsers.length
        ? browserTable(context.colors, browsers)
        : context.colors.dim('No active browsers.'),
  }),
];

/** `xb extensions` and `xb invocations`: the groups and their commands. */
export const extensionSet: CommandSet = {
  groups: [
    { name: 'extensions', summary: 'Upload, list, download and delete browser extensions' },
    {
      name: 'invocations',
      summary: 'Invoke actions, follow and end invocations; list their browsers',
    },
  ],
  commands: extensionCommands,
};
