import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { formatIpv4, isInNetwork, type NetworkEntry, parseIpv4 } from '@x/types';
import type { Logger } from 'pino';
import { writeSandboxFile } from '../system/sandbox-files.js';
import {
  type EgressNetworks,
  type NamespaceJoin,
  run,
  type SessionNetwork,
} from './egress-networks.js';
import { loopbackRules, USER_MODE_TABLE, userModeRules } from './nft-rules.js';
import { RefusalLog } from './refusal-log.js';

/** The tools an unprivileged server's policy needs (slirp4netns, util-linux, nftables). */
export interface UserModeTools {
  readonly slirp4netns: string;
  readonly unshare: string;
  readonly nsenter: string;
  readonly setpriv: string;
  readonly nft: string;
}

/** The /24s a session's link to its user-mode stack may take: the first no allowed entry touches. */
const CANDIDATE_LINKS = ['10.0.2.0/24', '10.255.254.0/24', '172.31.254.0/24', '192.168.254.0/24'];

/** Longest a session network may take to come up, in milliseconds. */
const START_TIMEOUT_MS = 10_000;

/** One session's parts: the process holding its namespaces, and its user-mode stack. */
interface UserModeSession {
  readonly holder: ChildProcess;
  /** Its stack, once started. */
  stack: ChildProcess | undefined;
  readonly sessionId: string;
}

/**
 * The egress policy of a server that is not root: each session's sandbox runs in a user and
 * network namespace of the server's own user, whose only way out is a user-mode TCP/IP stack
 * (slirp4netns): its connections leave as the server's own sockets, so a page reaches what the
 * server could. What it may reach is kept by nftables rules inside that namespace (the
 * namespace's root is the server; the sandbox runs in a user namespace below it, with no
 * capability over this one): loopback, link-local, private, CGNAT, multicast and every address
 * of the host are refused but what the operator opened and the browser asked for; names resolve
 * through the stack's forwarder. The stack's door to the host's loopback is open only when the
 * session may use it (an allowed loopback destination, its proxy relay).
 */
export class UserModeNetworks implements EgressNetworks {
  readonly #tools: UserModeTools;
  readonly #folder: string;
  readonly #cidr: string;
  readonly #live = new Map<number, UserModeSession>();
  /** Refusals counted in sessions that ended (their counters went with their namespaces). */
  #endedBlocked = 0;
  readonly #refusals: RefusalLog<number>;
  #isClosed = false;

  private constructor(options: {
    tools: UserModeTools;
    folder: string;
    cidr: string;
    logger: Logger;
  }) {
    this.#tools = options.tools;
    this.#folder = options.folder;
    this.#cidr = options.cidr;
    this.#refusals = new RefusalLog(options.logger, options.cidr);
  }

  /**
   * Sets the policy up for a data directory: a folder for the sessions' resolv.conf files, and a
   * /24 for their links that no allowed entry overlaps (so an allowed network never reaches the
   * stack's own addresses). Checks once that this host lets the server make the namespaces.
   */
  static async start(options: {
    tools: UserModeTools;
    dataDir: string;
    operator: readonly NetworkEntry[];
    logger: Logger;
  }): Promise<UserModeNetworks> {
    const { tools, operator, logger } = options;
    const cidr = CANDIDATE_LINKS.find((candidate) => {
      const base = parseIpv4(candidate.split('/')[0] as string) as number;
      return !operator.some(
        (entry) =>
          isInNetwork(entry.address, base, 24) ||
          (entry.prefix <= 24 && isInNetwork(base, entry.address, entry.prefix)),
      );
    });
    if (!cidr)
      throw new Error(
        `every link network (${CANDIDATE_LINKS.join(', ')}) overlaps XB_ALLOW_NETWORKS`,
      );
    if (!existsSync('/dev/net/tun'))
      throw new Error('slirp4netns needs /dev/net/tun (a container: --device /dev/net/tun)');
    await run(tools.unshare, ['--user', '--map-root-user', '--net', tools.nft, 'list', 'tables']);
    const folder = join(options.dataDir, 'network');
    rmSync(folder, { recursive: true, force: true });
    // Bound into sandboxes by bubblewrap (as root, or as the server's own user): the folder stays the server's.
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    logger.info(
      { cidr },
      'egress policy: each session in a network namespace of its own, out through slirp4netns',
    );
    const networks = new UserModeNetworks({ tools, folder, cidr, logger });
    networks.#refusals.watch(
      () =>
        [...networks.#live].map(([pid, session]) => ({
          key: pid,
          sessionId: session.sessionId,
          read: () => networks.#seen(pid),
        })),
      () => networks.blockedTotal(),
    );
    return networks;
  }

  async create(
    sessionId: string,
    allow: readonly NetworkEntry[],
    options: { readonly reachesHost?: boolean } = {},
  ): Promise<SessionNetwork> {
    if (this.#isClosed) throw new Error('the egress policy has stopped');
    const base = parseIpv4(this.#cidr.split('/')[0] as string) as number;
    const address = formatIpv4(base + 100);
    const hostLoopback = formatIpv4(base + 2);
    const dns = formatIpv4(base + 3);
    const loopback = allow.filter((entry) => isInNetwork(entry.address, 0x7f000000, 8));
    const rules =
      userModeRules(
        { cidr: this.#cidr, dns, hostLoopback, hostAddresses: hostAddresses() },
        allow,
      ) +
      (loopback.length > 0
        ? loopbackRules(
            { slot: 0, hostInterface: '', gateway: '', address },
            hostLoopback,
            loopback,
          )
        : '');
    const holder = await this.#holder(rules, loopback.length > 0);
    const pid = holder.pid as number;
    const entry: NamespaceJoin = { nsenter: enterArgs(pid), isUserNamespace: true };
    const resolvConf = join(this.#folder, `resolv-${pid}.conf`);
    const session: UserModeSession = { holder, stack: undefined, sessionId };
    const close = async () => {
      if (!this.#live.delete(pid)) return;
      this.#endedBlocked += await this.#count(pid).catch(() => 0);
      await this.#refusals.say(pid, sessionId, () => this.#seen(pid));
      this.#refusals.forget(pid);
      await Promise.all([stop(session.stack), stop(holder)]);
      rmSync(resolvConf, { force: true });
    };
    this.#live.set(pid, session);
    try {
      session.stack = await this.#stack(pid, {
        hostLoopback: loopback.length > 0 || options.reachesHost === true,
      });
      writeSandboxFile(resolvConf, `nameserver ${dns}\noptions timeout:2 attempts:2\n`);
    } catch (error) {
      await close();
      throw error;
    }
    return {
      join: entry,
      address,
      relay: { listen: '127.0.0.1', reachAt: hostLoopback, peer: undefined },
      resolvConf,
      openPort: (port) =>
        this.#nft(pid, ['add', 'element', 'inet', USER_MODE_TABLE, 'ports', `{ ${port} }`]).then(
          () => undefined,
        ),
      close,
    };
  }

  /**
   * The process that holds a session's namespaces: a user namespace mapping the server's user to
   * root, and a network namespace it owns, with the rules loaded before anything else runs there.
   * IPv6 is turned off where `/proc/sys` is writable (a container may mount it read-only; the
   * rules refuse IPv6 anyway); `mapsLoopback` needs the host's loopback mappable. It dies with the
   * server (parent-death signal).
   */
  async #holder(rules: string, mapsLoopback: boolean): Promise<ChildProcess> {
    const { setpriv, unshare, nft } = this.#tools;
    const script = [
      'echo 1 2>/dev/null > /proc/sys/net/ipv6/conf/all/disable_ipv6 || true',
      'echo 1 2>/dev/null > /proc/sys/net/ipv6/conf/default/disable_ipv6 || true',
      ...(mapsLoopback ? ['echo 1 > /proc/sys/net/ipv4/conf/all/route_localnet'] : []),
      `${nft} -f -`,
      'echo ready',
      'exec sleep infinity',
    ].join('\n');
    const holder = spawn(
      setpriv,
      [
        '--pdeathsig',
        'KILL',
        '--',
        unshare,
        '--user',
        '--map-root-user',
        '--net',
        '/bin/sh',
        '-ec',
        script,
      ],
      { stdio: ['pipe', 'pipe', 'pipe'], env: { PATH: '/usr/bin:/bin' } },
    );
    let stderr = '';
    holder.stderr?.on('data', (chunk: Buffer) => {
      if (stderr.length < 4096) stderr += chunk.toString();
    });
    holder.stdin?.end(rules);
    try {
      await untilLine(holder, 'ready', () => stderr);
    } catch (error) {
      await stop(holder);
      throw error;
    }
    return holder;
  }

  /**
   * The session's user-mode stack, attached to its namespace as `eth0`: its own sandbox and
   * seccomp filter, the host's loopback closed unless `hostLoopback`; it ends when the server does
   * (its exit descriptor closes).
   */
  async #stack(pid: number, options: { hostLoopback: boolean }): Promise<ChildProcess> {
    const stack = spawn(
      this.#tools.slirp4netns,
      [
        '--configure',
        '--mtu=65520',
        `--cidr=${this.#cidr}`,
        '--enable-sandbox',
        '--enable-seccomp',
        ...(options.hostLoopback ? [] : ['--disable-host-loopback']),
        '--ready-fd=3',
        '--exit-fd=4',
        String(pid),
        'eth0',
      ],
      { stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'], env: { PATH: '/usr/bin:/bin' } },
    );
    let stderr = '';
    stack.stderr?.on('data', (chunk: Buffer) => {
      if (stderr.length < 4096) stderr += chunk.toString();
    });
    const ready = stack.stdio[3] as NodeJS.ReadableStream;
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error('slirp4netns did not come up in time')),
          START_TIMEOUT_MS,
        );
        ready.once('data', () => {
          clearTimeout(timer);
          resolve();
        });
        stack.once('exit', (code) => {
          clearTimeout(timer);
          reject(new Error(`slirp4netns exited ${code}: ${stderr.trim()}`));
        });
      });
    } catch (error) {
      await stop(stack);
      throw error;
    }
    return stack;
  }

  /** Runs nft inside a live session's namespace, as its root (the server). */
  #nft(pid: number, args: readonly string[]): Promise<string> {
    return run(this.#tools.nsenter, [...enterArgs(pid), this.#tools.nft, ...args]);
  }

  /** A live session's refusals so far. */
  async #count(pid: number): Promise<number> {
    const text = await this.#nft(pid, [
      '-j',
      'list',
      'counter',
      'inet',
      USER_MODE_TABLE,
      'blocked',
    ]);
    return Number(/"packets":\s*(\d+)/.exec(text)?.[1] ?? 0);
  }

  async blockedTotal(): Promise<number> {
    const live = await Promise.all(
      [...this.#live.keys()].map((pid) => this.#count(pid).catch(() => 0)),
    );
    return live.reduce((sum, count) => sum + count, this.#endedBlocked);
  }

  /** A live session's seen set, as nft lists it (JSON). */
  #seen(pid: number): Promise<string> {
    return this.#nft(pid, ['-j', 'list', 'set', 'inet', USER_MODE_TABLE, 'seen']);
  }

  async close(): Promise<void> {
    this.#isClosed = true;
    this.#refusals.stop();
    await Promise.all(
      [...this.#live.values()].map((session) =>
        Promise.all([stop(session.stack), stop(session.holder)]),
      ),
    );
    this.#live.clear();
    rmSync(this.#folder, { recursive: true, force: true });
  }

  killSync(): void {
    this.#isClosed = true;
    for (const session of this.#live.values()) {
      session.stack?.kill('SIGKILL');
      session.holder.kill('SIGKILL');
    }
  }
}

/** nsenter's arguments that enter a session's namespaces, held by the process `pid`. */
function enterArgs(pid: number): string[] {
  return ['--preserve-credentials', '--user', '--net', `--target=${pid}`];
}

/** Every IPv4 address of the host but loopback's (those are refused as loopback). */
function hostAddresses(): string[] {
  return Object.values(networkInterfaces())
    .flatMap((addresses) => addresses ?? [])
    .filter((entry) => entry.family === 'IPv4' && !entry.internal)
    .map((entry) => entry.address);
}

/** Resolves once `child` prints `line`; rejects when it exits first or takes too long. */
function untilLine(child: ChildProcess, line: string, stderr: () => string): Promise<void> {
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(
      () => reject(new Error(`a session network did not come up in time: ${stderr().trim()}`)),
      START_TIMEOUT_MS,
    );
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.split('\n').includes(line)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`a session network could not be made (exit ${code}): ${stderr().trim()}`));
    });
  });
}

/** Ends a child and waits for it. */
async function stop(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGKILL');
  await exited;
}
