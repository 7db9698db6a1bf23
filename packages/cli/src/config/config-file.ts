import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { usageError } from '../cli-error.js';

/** The settings a profile can hold. */
export const CONFIG_KEYS = ['base_url', 'token', 'project'] as const;

/** A key of a profile. */
export type ConfigKey = (typeof CONFIG_KEYS)[number];

/** One named profile. */
export type Profile = Partial<Record<ConfigKey, string>>;

/** The config file: named profiles. */
export interface ConfigFile {
  profiles: Record<string, Profile>;
}

/** `$XDG_CONFIG_HOME/xb/config.json`, or `~/.config/xb/config.json`. */
export function configPath(env: Readonly<Record<string, string | undefined>>): string {
  const base = env.XDG_CONFIG_HOME || join(env.HOME ?? '.', '.config');
  return join(base, 'xb', 'config.json');
}

/** Reads the config file; a missing file is an empty config. */
export async function readConfig(path: string): Promise<ConfigFile> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { profiles: {} };
    throw usageError(`Cannot read the config file ${path}: ${(error as Error).message}.`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw usageError(`The config file ${path} is not valid JSON: fix it or delete it.`);
  }
  const profiles = (parsed as { profiles?: unknown })?.profiles;
  if (typeof profiles !== 'object' || profiles === null || Array.isArray(profiles)) {
    throw usageError(`The config file ${path} has no "profiles" object: fix it or delete it.`);
  }
  return { profiles: profiles as Record<string, Profile> };
}

/**
 * Writes the config file readable by its owner only (0600, in a 0700 folder): it holds tokens.
 * It is written to a temporary file and renamed, so a failed write never leaves half a file.
 */
export async function writeConfig(path: string, config: ConfigFile): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  await chmod(temporary, 0o600);
  await rename(temporary, path);
}
