import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** The instance's home as processes see it. */
export const INSTANCE_HOME = '/home/browser';

/** Where bubblewrap is, when it is installed. */
export function findBubblewrap(): string | undefined {
  for (const folder of (process.env.PATH ?? '/usr/bin').split(delimiter)) {
    const candidate = join(folder, 'bwrap');
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

/** The parts of /etc a program needs to run (libraries, users, time zone, certificates), no more. */
const ETC_ENTRIES = [
  'ld.so.cache',
  'ld.so.conf',
  'ld.so.conf.d',
  'alternatives',
  'passwd',
  'group',
  'nsswitch.conf',
  'localtime',
  'ssl',
  'ca-certificates',
];

/**
 * bubblewrap's arguments for a command on an instance: the system folders read-only, the
 * instance's home at /home/browser, a private /tmp, /proc and /dev, no network and no other
 * namespace shared, nothing else of the host visible; only the environment given (never the
 * server's own). The command runs in `cwd`, a path under /home/browser.
 */
export function sandboxArgs(
  home: string,
  cwd: string,
  env: Readonly<Record<string, string>>,
  command: string,
  args: readonly string[],
): string[] {
  const environment: Record<string, string> = {
    PATH: '/usr/local/bin:/usr/bin:/bin',
    LANG: 'C.UTF-8',
    ...env,
    HOME: INSTANCE_HOME,
  };
  return [
    '--ro-bind',
    '/usr',
    '/usr',
    '--symlink',
    'usr/bin',
    '/bin',
    '--symlink',
    'usr/sbin',
    '/sbin',
    '--symlink',
    'usr/lib',
    '/lib',
    '--symlink',
    'usr/lib64',
    '/lib64',
    ...ETC_ENTRIES.flatMap((entry) => ['--ro-bind-try', `/etc/${entry}`, `/etc/${entry}`]),
    '--proc',
    '/proc',
    '--dev',
    '/dev',
    '--tmpfs',
    '/tmp',
    '--bind',
    home,
    INSTANCE_HOME,
    '--chdir',
    cwd,
    // Every namespace, the pid one too: /proc shows the sandbox's own processes only.
    '--unshare-all',
    '--die-with-parent',
    '--clearenv',
    ...Object.entries(environment).flatMap(([name, value]) => ['--setenv', name, value]),
    '--',
    command,
    ...args,
  ];
}
