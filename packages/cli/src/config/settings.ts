import { usageError } from '../cli-error.js';
import { configPath, type Profile, readConfig } from './config-file.js';

/** Where the CLI connects when nothing says otherwise: the self-hosted server's default. */
export const DEFAULT_BASE_URL = 'http://127.0.0.1:8080';

/** The profile used when none is named. */
export const DEFAULT_PROFILE = 'default';

/** What the global flags say about the connection. */
export interface ConnectionFlags {
  readonly baseUrl?: string | undefined;
  readonly token?: string | undefined;
  readonly profile?: string | undefined;
  readonly project?: string | undefined;
}

/** Where each setting came from, for `xb config list`. */
export type SettingSource = 'flag' | 'env' | 'config' | 'default';

/** The connection settings in force, with where they came from. */
export interface Settings {
  readonly profile: string;
  readonly baseUrl: string;
  readonly token: string | undefined;
  /** The project calls act in; undefined: the token's own, else the service's default. */
  readonly project: string | undefined;
  readonly sources: {
    readonly baseUrl: SettingSource;
    readonly token: SettingSource | undefined;
    readonly project: SettingSource | undefined;
  };
}

/** The profile named by `--profile`, else `XB_PROFILE`, else `default`. */
export function profileName(
  flags: ConnectionFlags,
  env: Readonly<Record<string, string | undefined>>,
): string {
  return flags.profile || env.XB_PROFILE || DEFAULT_PROFILE;
}

/**
 * Resolves settings: flags, then `XB_BASE_URL` / `XB_TOKEN` / `XB_PROJECT`, then the profile,
 * then defaults.
 */
export async function resolveSettings(
  flags: ConnectionFlags,
  env: Readonly<Record<string, string | undefined>>,
): Promise<Settings> {
  const profile = profileName(flags, env);
  const file = await readConfig(configPath(env));
  const stored: Profile = file.profiles[profile] ?? {};
  if (flags.profile && !file.profiles[profile]) {
    throw usageError(
      `No profile "${profile}" in ${configPath(env)}: create it with \`xb config set base_url <url> --profile ${profile}\`.`,
    );
  }
  const pick = (
    flag: string | undefined,
    variable: string | undefined,
    saved: string | undefined,
  ) =>
    flag
      ? { value: flag, source: 'flag' as const }
      : variable
        ? { value: variable, source: 'env' as const }
        : saved
          ? { value: saved, source: 'config' as const }
          : undefined;
  const baseUrl = pick(flags.baseUrl, env.XB_BASE_URL, stored.base_url) ?? {
    value: DEFAULT_BASE_URL,
    source: 'default' as const,
  };
  const token = pick(flags.token, env.XB_TOKEN, stored.token);
  const project = pick(flags.project, env.XB_PROJECT, stored.project);
  if (!URL.canParse(baseUrl.value)) {
    throw usageError(
      `The base URL "${baseUrl.value}" (from ${baseUrl.source}) is not a URL: use e.g. http://127.0.0.1:8080.`,
    );
  }
  return {
    profile,
    baseUrl: baseUrl.value,
    token: token?.value,
    project: project?.value,
    sources: { baseUrl: baseUrl.source, token: token?.source, project: project?.source },
  };
}
