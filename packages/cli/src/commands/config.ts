import { usageError } from '../cli-error.js';
import {
  CONFIG_KEYS,
  type ConfigKey,
  configPath,
  readConfig,
  writeConfig,
} from '../config/config-file.js';
import { profileName, resolveSettings } from '../config/settings.js';
import type { CommandSet, CommandSpec } from './command.js';
import { readStdin } from './files.js';

/** What `config` prints for a token: never the token itself. */
const HIDDEN = '(set, hidden)';

function configKey(value: string | undefined): ConfigKey {
  const key = value?.replaceAll('-', '_');
  if (!CONFIG_KEYS.includes(key as ConfigKey)) {
    throw usageError(`Unknown config key "${value}": use one of ${CONFIG_KEYS.join(', ')}.`);
  }
  return key as ConfigKey;
}

/** `xb config set/get/list`: named profiles in the config file. */
export const configCommands: CommandSpec[] = [
  {
    group: 'config',
    name: 'set',
    summary:
      'Save a setting (base_url, token or project) in a profile of the config file (mode 0600).',
    args: [{ name: '<key>' }, { name: '<value>' }],
    flags: [],
    example:
      'xb config set base_url http://127.0.0.1:8080 --profile local   (token: xb config set token - < token.txt)',
    async run(context) {
      const key = configKey(context.args['<key>'] as string);
      let value = context.args['<value>'] as string;
      if (value === '-') value = (await readStdin(context)).trim();
      if (value === '') throw usageError(`Give a value for ${key}.`);
      if (key === 'base_url' && !URL.canParse(value))
        throw usageError(`"${value}" is not a URL: use e.g. http://127.0.0.1:8080.`);
      const path = configPath(context.io.env);
      const config = await readConfig(path);
      const profile = profileName(context.connection, context.io.env);
      config.profiles[profile] = { ...config.profiles[profile], [key]: value };
      await writeConfig(path, config);
      if (context.isJson) context.printJson({ profile, key, path });
      else
        context.print(`${context.colors.green('✓')} Saved ${key} in profile ${profile} (${path}).`);
    },
  },
  {
    group: 'config',
    name: 'get',
    summary: 'Print one setting of the profile in force (the token shows only as set or not).',
    args: [{ name: '<key>' }],
    flags: [],
    example: 'xb config get base_url',
    async run(context) {
      const key = configKey(context.args['<key>'] as string);
      const settings = await resolveSettings(context.connection, context.io.env);
      const value =
        key === 'token'
          ? settings.token
            ? HIDDEN
            : undefined
          : key === 'project'
            ? settings.project
            : settings.baseUrl;
      if (context.isJson) context.printJson({ key, value: value ?? null });
      else context.print(value ?? context.colors.dim('(not set)'));
    },
  },
  {
    group: 'config',
    name: 'list',
    summary:
      'Print the settings in force, where each comes from, and the profiles of the config file.',
    args: [],
    flags: [],
    example: 'xb config list',
    async run(context) {
      const path = configPath(context.io.env);
      const settings = await resolveSettings(context.connection, context.io.env);
      const config = await readConfig(path);
      const summary = {
        path,
        profile: settings.profile,
        base_url: { value: settings.baseUrl, from: settings.sources.baseUrl },
        token: settings.token ? { value: HIDDEN, from: settings.sources.token } : null,
        project: settings.project
          ? { value: settings.project, from: settings.sources.project }
          : null,
        profiles: Object.keys(config.profiles),
      };
      if (context.isJson) {
        context.printJson(summary);
        return;
      }
      const { dim } = context.colors;
      context.print(`${dim('config file')}  ${path}`);
      context.print(`${dim('profile    ')}  ${settings.profile}`);
      context.print(
        `${dim('base_url   ')}  ${settings.baseUrl} ${dim(`(${settings.sources.baseUrl})`)}`,
      );
      context.print(
        `${dim('token      ')}  ${settings.token ? `${HIDDEN} ${dim(`(${settings.sources.token})`)}` : dim('(not set)')}`,
      );
      context.print(
        `${dim('project    ')}  ${settings.project ? `${settings.project} ${dim(`(${settings.sources.project})`)}` : dim('(the key’s own, else default)')}`,
      );
      context.print(`${dim('profiles   ')}  ${summary.profiles.join(', ') || dim('(none)')}`);
    },
  },
];

/** `xb config`: the group and its commands. */
export const configSet: CommandSet = {
  groups: [{ name: 'config', summary: 'Save the base URL and token in named profiles' }],
  commands: configCommands,
};
