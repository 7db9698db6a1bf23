import type { BinaryBody } from '@x/client';
import type { BrowserProxy, Profile } from '@x/types';
import type { CommandContext, CommandSet, CommandSpec } from './command.js';
import { callOperation, listShow, operationCommand, printResult } from './define.js';
import { OUTPUT_FLAG, outputTarget, readStdin, type SavedFile, saveBinary } from './files.js';
import { profileTable, profileView, proxyTable, proxyView } from './views.js';

const PROFILE = { name: '<id-or-name>', field: 'id_or_name' } as const;
const PROXY = { name: '<id>', field: 'id' } as const;

/** `--password -` reads the proxy's password from stdin, out of the shell's history. */
async function passwordFromStdin(context: CommandContext): Promise<void> {
  const config = context.input.config as Record<string, unknown> | undefined;
  if (config?.password === '-') config.password = (await readStdin(context)).replace(/\r?\n$/, '');
}

/** `xb profiles …` and `xb proxies …`. */
export const profileCommands: CommandSpec[] = [
  operationCommand<Profile>('profiles', 'create', 'profiles.create', {
    example: 'xb profiles create --name shop-login',
    show: (context, profile) =>
      `${context.colors.green('✓')} Created profile ${context.colors.cyan(profile.id)}${profile.name ? ` (${profile.name})` : ''}. Load it with xb browsers create --profile-name ${profile.name ?? profile.id} --save-changes`,
  }),
  operationCommand<Profile[]>('profiles', 'list', 'profiles.list', {
    example: 'xb profiles list --query shop --limit 50',
    show: listShow(profileTable, 'No profiles.'),
  }),
  operationCommand<Profile>('profiles', 'get', 'profiles.get', {
    args: [PROFILE],
    example: 'xb profiles get shop-login',
    show: (context, profile) => profileView(context.colors, profile),
  }),
  operationCommand<Profile>('profiles', 'update', 'profiles.update', {
    args: [PROFILE],
    example: 'xb profiles update shop-login --name shop',
    show: (context, profile) => profileView(context.colors, profile),
  }),
  operationCommand('profiles', 'delete', 'profiles.delete', {
    args: [PROFILE],
    example: 'xb profiles delete shop-login',
    show: (context) => `${context.colors.green('✓')} Deleted profile ${context.input.id_or_name}.`,
  }),
  operationCommand<SavedFile>('profiles', 'download', 'profiles.download', {
    args: [PROFILE],
    flags: [OUTPUT_FLAG],
    example: 'xb profiles download shop-login --format tar.zst -o shop-login.tar.zst',
    show: (context, saved) =>
      `${context.colors.green('✓')} Saved the profile to ${saved.path} (${saved.bytes} bytes).`,
    run: async (context, show) => {
      const target = outputTarget(context, `profile.${(context.input.format as string) ?? 'tar'}`);
      const body = await callOperation<BinaryBody>(context, 'profiles.download');
      const saved = await saveBinary(context, body, target);
      if (target !== '-') printResult(context, saved, show);
    },
  }),
  operationCommand<BrowserProxy>('proxies', 'create', 'proxies.create', {
    example:
      'xb proxies create --type custom --host proxy.example.com --port 3128 --username agent --password - < password.txt --bypass-hosts \'["localhost"]\'',
    show: (context, proxy) => proxyView(context.colors, proxy),
    run: async (context, show) => {
      await passwordFromStdin(context);
      printResult(context, await callOperation<BrowserProxy>(context, 'proxies.create'), show);
    },
  }),
  operationCommand<BrowserProxy[]>('proxies', 'list', 'proxies.list', {
    example: 'xb proxies list',
    show: listShow(proxyTable, 'No proxies.'),
  }),
  operationCommand<BrowserProxy>('proxies', 'get', 'proxies.get', {
    args: [PROXY],
    example: 'xb proxies get px_4HkP0qL2',
    show: (context, proxy) => proxyView(context.colors, proxy),
  }),
  operationCommand<BrowserProxy>('proxies', 'update', 'proxies.update', {
    args: [PROXY],
    example: 'xb proxies update px_4HkP0qL2 --port 3129',
    show: (context, proxy) => proxyView(context.colors, proxy),
    run: async (context, show) => {
      await passwordFromStdin(context);
      printResult(context, await callOperation<BrowserProxy>(context, 'proxies.update'), show);
    },
  }),
  operationCommand('proxies', 'delete', 'proxies.delete', {
    args: [PROXY],
    example: 'xb proxies delete px_4HkP0qL2 --force',
    show: (context) => `${context.colors.green('✓')} Deleted proxy ${context.input.id}.`,
  }),
  operationCommand<BrowserProxy>('proxies', 'check', 'proxies.check', {
    args: [PROXY],
    example: 'xb proxies check px_4HkP0qL2',
    show: (context, proxy) => proxyView(context.colors, proxy),
  }),
];

/** `xb profiles` and `xb proxies`: the groups and their commands. */
export const profileSet: CommandSet = {
  groups: [
    {
      name: 'profiles',
      summary: 'Keep logins and site state from one browser session to the next',
    },
    { name: 'proxies', summary: 'Route browsers through your proxies; check them' },
  ],
  commands: profileCommands,
};
