import { type ChildProcess, type StdioOptions, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import { type IPty, spawn as spawnPty } from '@lydell/node-pty';
import { INSTANCE_HOME } from '@x/service-kernel';
import type { NamespaceJoin } from '../network/egress-networks.js';
import { joinArgs, type SessionCgroup } from './cgroups.js';
import { type SeccompPolicy, seccompProgram } from './seccomp.js';

/** Who the sandboxed command runs as on the host. */
export interface SandboxUser {
  readonly uid: number;
  readonly gid: number;
}

/** What one sandbox is made of. */
export interface SandboxSpec {
  /** The host folder bound read-write at /home/browser: the only writable place but /tmp. */
  readonly home: string;
  /** Where the command starts, a path under /home/browser (itself when not given). */
  readonly cwd?: string;
  /** The whole environment the command gets (`baseEnvironment()` when not given). */
  readonly env?: Readonly<Record<string, string>>;
  /**
   * Whether the sandbox keeps the host's network: a browser needs it to load pages; processes
   * get none.
   */
  readonly shareNetwork: boolean;
  /**
   * How the sandbox joins its session's network namespace: set, it shares that network instead of
   * the host's.
   */
  readonly network?: NamespaceJoin | undefined;
  /**
   * The unprivileged user the command runs as, when the server runs as root: bubblewrap sets the
   * sandbox up as root, then `setpriv` drops to this user with no capabilities and no way to gain
   * any. Undefined when the server is not root: bubblewrap then runs in a user namespace of the
   * server's own (unprivileged) user.
   */
  readonly user: SandboxUser | undefined;
  /** Host paths bound read-only inside (`[host, inside]`), e.g. extensions. */
  readonly readOnlyBinds?: readonly (readonly [string, string])[];
  /** Extra parts of /etc the command needs (the defaults suit any program). */
  readonly etcEntries?: readonly string[];
  /** The session's cgroup, joined before bubblewrap starts (its limits hold for all inside). */
  readonly cgroup?: SessionCgroup | undefined;
  /** The seccomp filter the command starts under (`seccomp.ts`); none when not given. */
  readonly seccomp?: SeccompPolicy | undefined;
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

/** Where nsenter is (util-linux, in every Debian). */
const NSENTER = '/usr/bin/nsenter';

/** Where setpriv is (util-linux, in every Debian). */
const SETPRIV = '/usr/bin/setpriv';

/**
 * bubblewrap's arguments for `command` in a sandbox: the system folders read-only, the instance's
 * home at /home/browser, a private /tmp, /proc and /dev, no IPC, PID or UTS namespace shared (and
 * no network unless asked), nothing else of the host visible: not the data directory, not another
 * instance, not /etc/shadow; only the environment given, never the server's own.
 */
export function sandboxArgs(
  spec: SandboxSpec,
  command: string,
  args: readonly string[],
  seccompFd?: number,
): string[] {
  const { options, run } = sandboxParts(spec, command, args, seccompFd);
  return [...options, '--', ...run];
}

/**
 * bubblewrap's options for a sandbox (`sandboxArgs` without the command), and what it runs:
 * apart, so the options can reach bubblewrap through a pipe (`--args`) rather than its command
 * line, which every process of the sandbox could read at /proc/1/cmdline.
 */
function sandboxParts(
  spec: SandboxSpec,
  command: string,
  args: readonly string[],
  seccompFd?: number,
): { options: string[]; run: string[] } {
  const etc = [...ETC_ENTRIES, ...(spec.etcEntries ?? [])];
  // Folders bubblewrap makes itself would be 0700 when it runs as root: said explicitly.
  const folder = (path: string) => ['--perms', '0755', '--dir', path];
  const namespaces = [
    '--unshare-ipc',
    '--unshare-pid',
    '--unshare-uts',
    '--unshare-cgroup-try',
    ...(spec.shareNetwork ? [] : ['--unshare-net']),
    // As root no user namespace is made: setpriv drops to the sandbox's user instead.
    ...(spec.user ? [] : ['--unshare-user']),
    // Inside a user namespace of the server's, where the server is root, the sandbox is the
    // server's user again (as it would be without one), never root.
    ...(!spec.user && spec.network?.isUserNamespace
      ? ['--uid', String(process.getuid?.() ?? 0), '--gid', String(process.getgid?.() ?? 0)]
      : []),
  ];
  const drop = spec.user
    ? [
        SETPRIV,
        `--reuid=${spec.user.uid}`,
        `--regid=${spec.user.gid}`,
        '--clear-groups',
        '--inh-caps=-all',
        '--bounding-set=-all',
        '--no-new-privs',
        '--',
      ]
    : [];
  const options = [
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
    ...folder('/etc'),
    ...etc.flatMap((entry) => ['--ro-bind-try', `/etc/${entry}`, `/etc/${entry}`]),
    // Without its cache, fontconfig scans every font at each start (a third of a second).
    ...folder('/var'),
    ...folder('/var/cache'),
    '--ro-bind-try',
    '/var/cache/fontconfig',
    '/var/cache/fontconfig',
    '--proc',
    '/proc',
    '--dev',
    '/dev',
    '--perms',
    '1777',
    '--tmpfs',
    '/tmp',
    '--perms',
    '1777',
    '--tmpfs',
    '/dev/shm',
    ...folder('/home'),
    '--bind',
    spec.home,
    INSTANCE_HOME,
    ...readOnlyBinds(spec.readOnlyBinds ?? []),
    '--chdir',
    spec.cwd ?? INSTANCE_HOME,
    ...namespaces,
    '--die-with-parent',
    ...(seccompFd === undefined ? [] : ['--seccomp', String(seccompFd)]),
    '--clearenv',
    ...Object.entries(spec.env ?? baseEnvironment()).flatMap(([name, value]) => [
      '--setenv',
      name,
      value,
    ]),
  ];
  return { options, run: [...drop, command, ...args] };
}

/**
 * Read-only binds, each with the folders above it made 0755 first (made by bubblewrap as root,
 * they would be 0700, and the sandbox's user could not reach the bind).
 */
function readOnlyBinds(binds: readonly (readonly [string, string])[]): string[] {
  const made = new Set(['/', '/usr', '/etc', '/home', '/tmp', '/dev', '/proc']);
  const args: string[] = [];
  for (const [host, inside] of binds) {
    const parts = inside.split('/').filter(Boolean);
    for (let depth = 1; depth < parts.length; depth++) {
      const folder = `/${parts.slice(0, depth).join('/')}`;
      if (made.has(folder)) continue;
      made.add(folder);
      args.push('--perms', '0755', '--dir', folder);
    }
    args.push('--ro-bind', host, inside);
  }
  return args;
}

/**
 * Starts `command` in a sandbox: bubblewrap leads a process group of its own (a signal to the
 * group reaches everything inside), and gets no more of the server's environment than a PATH.
 */
export function spawnSandbox(
  bubblewrap: string,
  spec: SandboxSpec,
  command: string,
  args: readonly string[],
  stdio: StdioOptions,
): ChildProcess {
  // The options (host paths among them: the instance's folder, the data directory) reach
  // bubblewrap through a pipe of their own, never its command line, which a process of the
  // sandbox reads at /proc/1/cmdline; so does the seccomp filter. Both come after the
  // descriptors asked for.
  const given = typeof stdio === 'string' ? [stdio, stdio, stdio] : [...stdio];
  const argsFd = given.length;
  const seccompFd = spec.seccomp ? given.length + 1 : undefined;
  const { options, run } = sandboxParts(spec, command, args, seccompFd);
  const bwrapArgs = ['--args', String(argsFd), '--', ...run];
  // nsenter joins the session's network namespace, then becomes bubblewrap.
  const joined = spec.network
    ? joinArgs(spec.cgroup, NSENTER, [...spec.network.nsenter, '--', bubblewrap, ...bwrapArgs])
    : joinArgs(spec.cgroup, bubblewrap, bwrapArgs);
  const child = spawn(joined.command, joined.args, {
    stdio: [...given, 'pipe', ...(seccompFd === undefined ? [] : ['pipe' as const])],
    detached: true,
    env: { PATH: '/usr/bin:/bin' },
  });
  const feed = (fd: number, bytes: Buffer) => {
    const pipe = child.stdio[fd] as Writable | null;
    pipe?.on('error', () => undefined); // bubblewrap failed before it read it: its exit says why
    pipe?.end(bytes);
  };
  feed(argsFd, Buffer.from(options.map((option) => `${option}\0`).join('')));
  if (spec.seccomp && seccompFd !== undefined) feed(seccompFd, seccompProgramOf(spec.seccomp));
  return child;
}

/** A sandbox started on a terminal of its own (`spawnSandboxInTerminal`). */
export interface TerminalSandbox {
  /** The terminal's master side: the command's input and output, its size, its end. */
  readonly terminal: IPty;
}

/**
 * Starts `command` in a sandbox as `spawnSandbox` does, but on a new pseudo-terminal of
 * `size`: it is the command's stdin, stdout, stderr and controlling terminal (the session's
 * leader, a process group of its own). A terminal passes no descriptor but its own, so the
 * options and the seccomp filter reach bubblewrap through files of `staging` (a private folder)
 * that a shell opens as fds 3 and 4, then removes, before it becomes bubblewrap.
 */
export function spawnSandboxInTerminal(
  bubblewrap: string,
  spec: SandboxSpec,
  command: string,
  args: readonly string[],
  size: { readonly rows: number; readonly cols: number },
  staging: string,
): TerminalSandbox {
  const seccompFd = spec.seccomp ? 4 : undefined;
  const { options, run } = sandboxParts(spec, command, args, seccompFd);
  const optionsFile = join(staging, `${randomUUID()}.args`);
  const seccompFile = join(staging, `${randomUUID()}.bpf`);
  writeFileSync(optionsFile, options.map((option) => `${option}\0`).join(''), { mode: 0o600 });
  writeFileSync(seccompFile, spec.seccomp ? seccompProgramOf(spec.seccomp) : Buffer.alloc(0), {
    mode: 0o600,
  });
  const bwrapArgs = ['--args', '3', '--', ...run];
  const joined = spec.network
    ? joinArgs(spec.cgroup, NSENTER, [...spec.network.nsenter, '--', bubblewrap, ...bwrapArgs])
    : joinArgs(spec.cgroup, bubblewrap, bwrapArgs);
  const opener = 'exec 3<"$1" 4<"$2" || exit 125; rm -f -- "$1" "$2"; shift 2; exec "$@"';
  try {
    const terminal = spawnPty(
      '/bin/sh',
      ['-c', opener, 'xb-open', optionsFile, seccompFile, joined.command, ...joined.args],
      {
        name: 'xterm-256color',
        rows: size.rows,
        cols: size.cols,
        cwd: '/',
        env: { PATH: '/usr/bin:/bin' },
        encoding: null,
      },
    );
    return { terminal };
  } catch (error) {
    rmSync(optionsFile, { force: true });
    rmSync(seccompFile, { force: true });
    throw error;
  }
}

/** Each filter's program, assembled once. */
const programs = new Map<SeccompPolicy, Buffer>();
function seccompProgramOf(policy: SeccompPolicy): Buffer {
  let program = programs.get(policy);
  if (!program) {
    program = seccompProgram(policy);
    programs.set(policy, program);
  }
  return program;
}

/**
 * Kills a sandbox started by `spawnSandbox` (bubblewrap leads its process group; `--die-with-parent`
 * takes everything inside with it) and waits until bubblewrap has exited.
 */
export async function endSandbox(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  try {
    if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
  } catch {
    // The group is gone already but for bubblewrap itself.
    child.kill('SIGKILL');
  }
  await exited;
}

/** The environment every sandboxed command starts from. */
export function baseEnvironment(): Record<string, string> {
  return { PATH: '/usr/local/bin:/usr/bin:/bin', LANG: 'C.UTF-8', HOME: INSTANCE_HOME };
}
