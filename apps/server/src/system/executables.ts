import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/**
 * Where a program the server drives is (bwrap, Xvfb, ffmpeg), looked up on PATH once, when it is
 * installed; undefined when it is not.
 */
export function findExecutable(
  name: string,
  extraFolders: readonly string[] = [],
): string | undefined {
  for (const folder of [...(process.env.PATH ?? '/usr/bin').split(delimiter), ...extraFolders]) {
    const candidate = join(folder, name);
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

/** The programs the server drives, found once at start. */
export interface SystemTools {
  /** bubblewrap: without it no browser or process starts (503 naming it). */
  readonly bwrap: string | undefined;
  /** Xvfb: without it a headed browser is 400. */
  readonly xvfb: string | undefined;
  /** ffmpeg: without it a replay is 503. */
  readonly ffmpeg: string | undefined;
  /** iproute2's `ip`: the sessions' network namespaces and links (the egress policy). */
  readonly ip: string | undefined;
  /** nftables' `nft`: the egress policy's rules. */
  readonly nft: string | undefined;
  /** util-linux's `nsenter`: a sandbox joins its session's network namespace. */
  readonly nsenter: string | undefined;
  /** util-linux's `unshare`: an unprivileged server's session namespaces. */
  readonly unshare: string | undefined;
  /** util-linux's `setpriv`: those namespaces end with the server. */
  readonly setpriv: string | undefined;
  /** slirp4netns: an unprivileged server's sessions' way out (a user-mode TCP/IP stack). */
  readonly slirp4netns: string | undefined;
  /** inotify-tools' inotifywait: directory watches, run in the session's sandbox. */
  readonly inotifywait: string | undefined;
  /** util-linux's `prlimit`: a root server raises its own open-files limit at start. */
  readonly prlimit: string | undefined;
  /** NSS's `certutil` (libnss3-tools): hands XB_SESSION_CA_FILE's authorities to the browsers. */
  readonly certutil: string | undefined;
}

/** Looks every tool up on PATH, once. */
export function findSystemTools(): SystemTools {
  return {
    bwrap: findExecutable('bwrap'),
    xvfb: findExecutable('Xvfb'),
    ffmpeg: findExecutable('ffmpeg'),
    // Administration tools live in sbin, often off an unprivileged PATH.
    ip: findExecutable('ip', ['/usr/sbin', '/sbin']),
    nft: findExecutable('nft', ['/usr/sbin', '/sbin']),
    nsenter: findExecutable('nsenter', ['/usr/bin', '/usr/sbin']),
    unshare: findExecutable('unshare', ['/usr/bin']),
    setpriv: findExecutable('setpriv', ['/usr/bin']),
    slirp4netns: findExecutable('slirp4netns', ['/usr/bin']),
    inotifywait: findExecutable('inotifywait', ['/usr/bin']),
    prlimit: findExecutable('prlimit', ['/usr/bin']),
    certutil: findExecutable('certutil', ['/usr/bin']),
  };
}

/** One line for the start-up log: which tools were found, and what is off without the others. */
export function describeTools(tools: SystemTools): { found: string[]; missing: string[] } {
  const entries = [
    ['bubblewrap', tools.bwrap, 'no browser or process can start', 'bubblewrap'],
    ['Xvfb', tools.xvfb, 'no headed browser', 'xvfb'],
    ['ffmpeg', tools.ffmpeg, 'replays cannot be recorded', 'ffmpeg'],
    ['inotifywait', tools.inotifywait, 'directories cannot be watched', 'inotify-tools'],
    ['ip', tools.ip, 'no egress policy: browsers refused unless XB_ALLOW_NETWORKS=*', 'iproute2'],
    ['nft', tools.nft, 'no egress policy: browsers refused unless XB_ALLOW_NETWORKS=*', 'nftables'],
    ...(process.getuid?.() === 0
      ? []
      : ([
          [
            'slirp4netns',
            tools.slirp4netns,
            'no egress policy for an unprivileged server: browsers refused unless XB_ALLOW_NETWORKS=*',
            'slirp4netns',
          ],
        ] as const)),
  ] as const;
  return {
    found: entries.filter(([, path]) => path).map(([name]) => name),
    missing: entries
      .filter(([, path]) => !path)
      .map(([name, , effect, pkg]) => `${name} (${effect}: apt-get install ${pkg})`),
  };
}
