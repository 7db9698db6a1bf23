import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { packageFolder } from '../sandbox/worker-files.js';

/** npm as deployments' installs run it: its folder, the settings it is given, why it failed. */

/** How npm is set up for installs: what the operator gives the server (see npmSetupOf). */
export interface NpmSetup {
  /** The user .npmrc (registry, auth), bound read-only as npm's user configuration. */
  readonly userConfig?: string | undefined;
  /** The global npmrc (a CA file, a proxy), bound read-only as npm's global configuration. */
  readonly globalConfig?: string | undefined;
  /** Environment npm honours besides (proxies, a CA file), passed on as it is. */
  readonly env?: Readonly<Record<string, string>>;
  /** Host files the configuration names (CA files), bound read-only at their own paths. */
  readonly files?: readonly string[];
}

/** The variables of the server's environment an install passes on to npm. */
const NPM_ENVIRONMENT = [
  'HTTP_PROXY',
  'HTTPS_PROXY',
  'NO_PROXY',
  'http_proxy',
  'https_proxy',
  'no_proxy',
  'NODE_EXTRA_CA_CERTS',
];

/**
 * The npm set-up of the server's own user, as npm itself would find it: its user .npmrc
 * (`npm_config_userconfig`, else ~/.npmrc), its global npmrc (`npm_config_globalconfig`, else
 * /etc/npmrc or /usr/etc/npmrc), the proxy variables and NODE_EXTRA_CA_CERTS (whose file is bound
 * in). The machine's settings are the installs' settings.
 */
export function npmSetupOf(env: NodeJS.ProcessEnv = process.env): NpmSetup {
  const first = (paths: (string | undefined)[]) =>
    paths.find((path): path is string => path !== undefined && existsSync(path));
  const passed = Object.fromEntries(
    NPM_ENVIRONMENT.flatMap((name) => (env[name] ? [[name, env[name] as string]] : [])),
  );
  const caFile = env.NODE_EXTRA_CA_CERTS;
  return {
    userConfig: first([env.npm_config_userconfig, join(homedir(), '.npmrc')]),
    globalConfig: first([env.npm_config_globalconfig, '/etc/npmrc', '/usr/etc/npmrc']),
    env: passed,
    files: caFile && existsSync(caFile) && !caFile.startsWith('/etc/ssl/') ? [caFile] : [],
  };
}

/** npm's folder, shipped with the server. */
export function npmFolder(): string {
  return packageFolder('npm', createRequire(import.meta.url));
}

/** The last lines of a stderr tail, for a reason. */
export function lastLines(tail: string): string {
  return tail.trim().split('\n').slice(-3).join(' ').slice(-500);
}

/** npm's lines that are only its boilerplate, not why it failed. */
const NPM_BOILERPLATE =
  /^(?:\d{3})?$|^(?:\d{3} )?(?:Note that you can also install from a|tarball, folder, http url, or git url\.)|^A complete log of this run/;

/**
 * Why npm failed, from its stderr: its first `npm error` lines that say something (the code, the
 * package and what the registry answered), else the last lines.
 */
export function npmReasonOf(tail: string): string {
  const said = tail
    .split('\n')
    .filter((line) => line.startsWith('npm error') || line.startsWith('npm ERR!'))
    .map((line) => line.replace(/^npm (?:error|ERR!)\s?/, '').trim())
    .filter((line) => !NPM_BOILERPLATE.test(line));
  return said.length > 0 ? said.slice(0, 4).join(' ').slice(0, 500) : lastLines(tail);
}
