import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { formatIpv4, isInNetwork, type NetworkEntry, parseIpv4 } from '@x/types';
import type { Logger } from 'pino';
import { describeHolder, type HostClaims } from '../system/host-claims.js';
import { writeSandboxFile } from '../system/sandbox-files.js';
import { DnsRelay, formatEndpoint, hostNameservers, type NetworkEndpoint } from './dns-relay.js';
import { type EgressNetworks, run, type SessionNetwork } from './egress-networks.js';
import { readText, restoreForwarding, turnForwardingOn } from './host-forwarding.js';
import { NETNS_DIR, namespacesOf, pickTag, subnetClaim, subnetOfClaim } from './host-names.js';
import {
  loopbackRules,
  ownLoopbackRules,
  type PolicyLayout,
  removeSessionRules,
  type SessionLink,
  sessionChains,
  sessionRules,
  tableRules,
} from './nft-rules.js';
import { RefusalLog } from './refusal-log.js';
import { SlotQueue } from './slot-queue.js';

/** The /16 blocks sessions' links may be cut from, tried in turn: the first no route uses. */
const CANDIDATE_SUBNETS = Array.from({ length: 40 }, (_, index) => `10.${200 + index}.0.0/16`);

/** Links kept prepared for the next creates. */
const STANDBY_LINKS = 2;

/**
 * How long after a create its link is replaced, in milliseconds: later than the browser's start,
 * so the replacement's programs (ip, nsenter, a relay) do not take the CPU that start needs.
 */
const REFILL_DELAY_MS = 1500;

/** A link made for a session: its namespace, its relay and its resolv.conf. */
interface PreparedLink {
  readonly link: SessionLink;
  readonly namespace: string;
  readonly resolvConf: string;
  relay: DnsRelay | undefined;
}

/** Addresses per session link (a /29): network, gateway, session, and room. */
const LINK_SIZE = 8;

/** Slots in a /16: the first and the last are kept (the block's own address, the host-loopback address). */
const SLOTS = 65_536 / LINK_SIZE;

/** The tools the policy needs, from Debian's iproute2 and nftables. */
export interface NetworkTools {
  readonly ip: string;
  readonly nft: string;
  readonly nsenter: string;
}

/**
 * The egress policy of a root server: every browser's sandbox runs in a network namespace of its
 * own, joined to the host by a veth link whose host end the server's nftables table watches. A
 * session reaches the public internet (NAT through the host), names through a DNS relay of its
 * own at its gateway, and nothing private (loopback, link-local, RFC 1918, CGNAT, multicast, any
 * address of the host) but what the operator opened and the browser asked for. It has no
 * capability in its namespace, so it cannot change any of this.
 */
export class SessionNetworks implements EgressNetworks {
  readonly #tools: NetworkTools;
  readonly #layout: PolicyLayout;
  readonly #tag: string;
  readonly #base: number;
  readonly #folder: string;
  readonly #nameservers: readonly NetworkEndpoint[];
  readonly #claims: HostClaims;
  readonly #logger: Logger;
  /**
   * Slots no link has, the longest free first: `ip netns delete` returns before the kernel has
   * torn the namespace's veth pair down (it does so in the background, slower on a busy host), so
   * a slot just given back is the last one taken again.
   */
  readonly #free = new SlotQueue();
  readonly #live = new Map<number, string>();
  /** Links made ahead for the next sessions. */
  readonly #standby: Promise<PreparedLink>[] = [];
  #isClosed = false;
  #canReportOwnLoopback = true;
  readonly #refusals: RefusalLog<number>;

  private constructor(options: {
    tools: NetworkTools;
    layout: PolicyLayout;
    tag: string;
    base: number;
    folder: string;
    nameservers: readonly NetworkEndpoint[];
    claims: HostClaims;
    logger: Logger;
  }) {
    this.#tools = options.tools;
    this.#layout = options.layout;
    this.#tag = options.tag;
    this.#base = options.base;
    this.#folder = options.folder;
    this.#nameservers = options.nameservers;
    this.#claims = options.claims;
    this.#logger = options.logger;
    this.#refusals = new RefusalLog(options.logger, options.layout.subnet);
    for (let slot = 1; slot <= SLOTS - 2; slot++) this.#free.push(slot);
  }

  /**
   * Sets the policy up for a data directory, under the host's lock (other servers of this host
   * start at the same moment): reaps what a crashed run left (namespaces, links, its table, its
   * route), takes a name and a /16 no other server of the host holds and no route uses, turns
   * forwarding on (dropping every other forwarded packet when the host forwarded nothing before),
   * and loads the table.
   */
  static async start(options: {
    tools: NetworkTools;
    dataDir: string;
    /** The /16 this data directory used before, if any (kept in its store). */
    subnet: string | undefined;
    /** The resolvers the relays ask; undefined: the host's, from /etc/resolv.conf. */
    nameservers?: readonly NetworkEndpoint[] | undefined;
    /** What the servers of this host share. */
    claims: HostClaims;
    logger: Logger;
  }): Promise<SessionNetworks> {
    const { tools, dataDir, logger, claims } = options;
    const layout = await claims.withLock(async () => {
      const tag = pickTag(claims, dataDir, logger);
      const table = `xb_${tag}`;
      // What this start took, given back if it fails half-way (the server goes on without it).
      let subnet: string | undefined;
      let dropOtherForwarding = false;
      try {
        // What servers that ended without giving it back left on the host (this data
        // directory's crashed run, or any other's: a killed server never starts again when its
        // data directory is gone), then these names.
        for (const left of claims.left('net-')) {
          await SessionNetworks.#reap(tools, left.slice('net-'.length), logger);
          claims.forget(left);
        }
        for (const left of claims.left('subnet-')) {
          // Mostly gone already (its run removed it before it died): the delete then fails,
          // which changes nothing.
          await run(tools.ip, ['route', 'delete', 'unreachable', subnetOfClaim(left)]).catch(
            () => undefined,
          );
          claims.forget(left);
        }
        await SessionNetworks.#reap(tools, tag, logger);
        // The route of the /16 kept from a run that left no claim (it stopped before claims were
        // kept, or crashed), unless another server of this host holds that /16 now.
        if (options.subnet && !claims.heldByOther(subnetClaim(options.subnet)))
          await run(tools.ip, ['route', 'delete', 'unreachable', options.subnet]).catch(
            () => undefined,
          );
        subnet = await SessionNetworks.#takeSubnet(tools, claims, options.subnet, logger);
        const base = parseIpv4(subnet.split('/')[0] as string) as number;
        dropOtherForwarding = turnForwardingOn();
        const layout: PolicyLayout = {
          table,
          interfacePrefix: `xb${tag}h`,
          subnet,
          hostLoopback: formatIpv4(base + 65_534),
          dropOtherForwarding,
        };
        await run(tools.nft, ['-f', '-'], tableRules(layout));
        return { layout, tag };
      } catch (error) {
        // `nft -f` loads the table whole or not at all, last: mostly there is none to delete.
        await run(tools.nft, ['delete', 'table', 'inet', table]).catch(() => undefined);
        if (subnet) {
          await run(tools.ip, ['route', 'delete', 'unreachable', subnet]).catch(
            (removal: unknown) => {
              logger.warn(
                { err: removal, subnet },
                "the route of the sessions' network block was left on the host",
              );
            },
          );
          claims.release(subnetClaim(subnet));
        }
        if (dropOtherForwarding) restoreForwarding(tools.nft);
        claims.release(`net-${tag}`);
        throw error;
      }
    });
    const folder = join(dataDir, 'network');
    rmSync(folder, { recursive: true, force: true });
    // Bound into sandboxes by bubblewrap (as root, or as the server's own user): the folder stays the server's.
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    const nameservers =
      options.nameservers ??
      hostNameservers(readText('/etc/resolv.conf')).map((address) => ({ address, port: 53 }));
    logger.info(
      {
        subnet: layout.layout.subnet,
        table: layout.layout.table,
        nameservers: nameservers.map(formatEndpoint),
        dropOtherForwarding: layout.layout.dropOtherForwarding,
      },
      'egress policy: each session in a network namespace of its own',
    );
    const base = parseIpv4(layout.layout.subnet.split('/')[0] as string) as number;
    const networks = new SessionNetworks({
      tools,
      layout: layout.layout,
      tag: layout.tag,
      base,
      folder,
      nameservers,
      claims,
      logger,
    });
    networks.#refill();
    networks.#refusals.watch(
      () =>
        [...networks.#live].map(([slot, sessionId]) => ({
          key: slot,
          sessionId,
          read: () => networks.#seen(slot),
        })),
      () => networks.blockedTotal(),
    );
    return networks;
  }

  /** The /16 the sessions use, to keep in the store. */
  get subnet(): string {
    return this.#layout.subnet;
  }

  /** How many connections sessions tried that the policy refused, since the server started. */
  async blockedTotal(): Promise<number> {
    const text = await run(this.#tools.nft, [
      '-j',
      'list',
      'counter',
      'inet',
      this.#layout.table,
      'blocked',
    ]);
    return Number(/"packets":\s*(\d+)/.exec(text)?.[1] ?? 0);
  }

  /**
   * Makes a session's network: a prepared link (its namespace, its DNS relay) and its rules (what
   * it may reach: `allow`, already checked against what the operator opened). Links are prepared
   * ahead, a few at a time, so a create pays for its rules only.
   */
  async create(sessionId: string, allow: readonly NetworkEntry[]): Promise<SessionNetwork> {
    // A standby link that could not be made is made again here, which then says why it fails.
    const standby = this.#standby.shift();
    const prepared = await (standby ? standby.catch(() => this.#prepare()) : this.#prepare());
    setTimeout(() => this.#refill(), REFILL_DELAY_MS).unref();
    const { link } = prepared;
    this.#live.set(link.slot, sessionId);
    let hasRules = false;
    let isClosed = false;
    const close = async () => {
      if (isClosed) return;
      isClosed = true;
      if (hasRules)
        await this.#forget(sessionId, link).catch((error: unknown) => {
          // Left until the slot's next session, whose rules replace them (`sessionRules`).
          this.#logger.warn(
            { err: error, session: sessionId, slot: link.slot },
            "a session's egress rules were left in the table",
          );
        });
      this.#live.delete(link.slot);
      await this.#dismantle(prepared);
    };
    try {
      const loopback = allow.filter((entry) => isInNetwork(entry.address, 0x7f000000, 8));
      await Promise.all([
        run(this.#tools.nft, ['-f', '-'], sessionRules(this.#layout, link, allow)).then(() => {
          hasRules = true;
        }),
        loopback.length > 0
          ? run(
              this.#tools.nsenter,
              [`--net=${prepared.namespace}`, this.#tools.nft, '-f', '-'],
              loopbackRules(link, this.#layout.hostLoopback, loopback),
            )
          : undefined,
      ]);
    } catch (error) {
      await close();
      throw error;
    }
    const table = this.#layout.table;
    const ports = sessionChains(link.slot).ports;
    return {
      join: { nsenter: [`--net=${prepared.namespace}`], isUserNamespace: false },
      address: link.address,
      relay: { listen: link.gateway, reachAt: link.gateway, peer: link.address },
      resolvConf: prepared.resolvConf,
      openPort: (port) =>
        run(this.#tools.nft, ['add', 'element', 'inet', table, ports, `{ ${port} }`]).then(
          () => undefined,
        ),
      close,
    };
  }

  /** Keeps `STANDBY_LINKS` links prepared (while the server runs). */
  #refill(): void {
    while (!this.#isClosed && this.#standby.length < STANDBY_LINKS) {
      const prepared = this.#prepare();
      // A link that could not be made is tried again by the next create, which then says why.
      prepared.catch(() => {
        const index = this.#standby.indexOf(prepared);
        if (index >= 0) this.#standby.splice(index, 1);
      });
      this.#standby.push(prepared);
    }
  }

  /**
   * A link no session has yet: its namespace with the host's end of a veth pair, the address,
   * route and settings inside (IPv4 only), its DNS relay and its resolv.conf. No rule names it, so
   * the table refuses all it sends until a session's rules do.
   */
  async #prepare(): Promise<PreparedLink> {
    const link = this.#takeFreeLink();
    const prepared: PreparedLink = {
      link,
      namespace: join(NETNS_DIR, `xb-${this.#tag}-${link.slot}`),
      resolvConf: join(this.#folder, `resolv-${link.slot}.conf`),
      relay: undefined,
    };
    try {
      await run(this.#tools.ip, ['-batch', '-'], hostBatch(basename(prepared.namespace), link));
      writeFileSync(join('/proc/sys/net/ipv4/conf', link.hostInterface, 'route_localnet'), '1');
      await run(this.#tools.nsenter, [
        `--net=${prepared.namespace}`,
        '/bin/sh',
        '-ec',
        insideScript(this.#tools, link),
      ]);
      await this.#reportOwnLoopback(prepared.namespace, link);
      prepared.relay = await DnsRelay.start(
        link.gateway,
        link.address,
        this.#nameservers,
        this.#logger,
      );
      // Read inside the sandbox by its user: readable whatever the server's umask.
      writeSandboxFile(
        prepared.resolvConf,
        `nameserver ${link.gateway}\noptions timeout:2 attempts:2\n`,
      );
    } catch (error) {
      await this.#dismantle(prepared);
      throw error;
    }
    return prepared;
  }

  /**
   * The link of the longest free slot whose host interface is gone: one the kernel still tears
   * down (every other slot was taken since, as happens only under heavy churn) waits its turn again.
   */
  #takeFreeLink(): SessionLink {
    for (let tries = this.#free.size; tries > 0; tries--) {
      const slot = this.#free.shift() as number;
      const link = this.#linkOf(slot);
      if (!existsSync(join('/sys/class/net', link.hostInterface))) return link;
      this.#free.push(slot);
    }
    throw new Error('no free session network: every link of the block is in use');
  }

  /**
   * Loads the rule that reports refusals on the session's own loopback to the host (see
   * `ownLoopbackRules`). A kernel without nftables' `dup` keeps the session working without it:
   * said once in the log, those refusals are then neither counted nor logged.
   */
  async #reportOwnLoopback(namespace: string, link: SessionLink): Promise<void> {
    if (!this.#canReportOwnLoopback) return;
    try {
      await run(
        this.#tools.nsenter,
        [`--net=${namespace}`, this.#tools.nft, '-f', '-'],
        ownLoopbackRules(link),
      );
    } catch (error) {
      this.#canReportOwnLoopback = false;
      this.#logger.warn(
        { err: error },
        "refusals on a session's own loopback (localhost:3000) cannot be reported on this host: nftables' dup is missing",
      );
    }
  }

  /** A link goes: its relay, its namespace (its veth pair with it), its resolv.conf; its slot is free. */
  async #dismantle(prepared: PreparedLink): Promise<void> {
    prepared.relay?.close();
    // Gone already when its holder died; the slot's next link waits for the kernel to end it.
    await run(this.#tools.ip, ['netns', 'delete', basename(prepared.namespace)]).catch(
      () => undefined,
    );
    rmSync(prepared.resolvConf, { force: true });
    this.#free.push(prepared.link.slot);
  }

  /** A session's rules go; what it was refused since the last look is logged first. */
  async #forget(sessionId: string, link: SessionLink): Promise<void> {
    await this.#refusals.say(link.slot, sessionId, () => this.#seen(link.slot));
    this.#refusals.forget(link.slot);
    await run(this.#tools.nft, ['-f', '-'], removeSessionRules(this.#layout, link));
  }

  /** A live session's seen set, as nft lists it (JSON). */
  #seen(slot: number): Promise<string> {
    return run(this.#tools.nft, [
      '-j',
      'list',
      'set',
      'inet',
      this.#layout.table,
      sessionChains(slot).seen,
    ]);
  }

  /**
   * Removes the standby links, the table and the block's route (every session has ended), and
   * gives the names and the block back to the host, under its lock (another server may be
   * starting, and turning forwarding on).
   */
  async close(): Promise<void> {
    this.#isClosed = true;
    this.#refusals.stop();
    const standby = this.#standby.splice(0);
    for (const prepared of await Promise.allSettled(standby))
      if (prepared.status === 'fulfilled') await this.#dismantle(prepared.value);
    rmSync(this.#folder, { recursive: true, force: true });
    await this.#claims.withLock(async () => {
      // A table left here goes at this data directory's next start, which reaps its run's names.
      await run(this.#tools.nft, ['delete', 'table', 'inet', this.#layout.table]).catch(
        () => undefined,
      );
      await run(this.#tools.ip, ['route', 'delete', 'unreachable', this.#layout.subnet]).catch(
        (error: unknown) => {
          this.#logger.warn(
            { err: error, subnet: this.#layout.subnet },
            "the route of the sessions' network block was left on the host",
          );
        },
      );
      if (this.#layout.dropOtherForwarding) restoreForwarding(this.#tools.nft);
      this.#releaseNames();
    });
  }

  /**
   * Synchronously, for a server killed past its deadline: the namespaces and the table go (the
   * links go with their namespaces).
   */
  killSync(): void {
    this.#isClosed = true;
    for (const name of namespacesOf(this.#tag))
      spawnSync(this.#tools.ip, ['netns', 'delete', name], { stdio: 'ignore' });
    spawnSync(this.#tools.nft, ['delete', 'table', 'inet', this.#layout.table], {
      stdio: 'ignore',
    });
    spawnSync(this.#tools.ip, ['route', 'delete', 'unreachable', this.#layout.subnet], {
      stdio: 'ignore',
    });
    this.#releaseNames();
  }

  /** Gives the host back this server's network names and subnet (not its other claims). */
  #releaseNames(): void {
    this.#claims.release(`net-${this.#tag}`);
    this.#claims.release(subnetClaim(this.#layout.subnet));
  }

  #linkOf(slot: number): SessionLink {
    const first = this.#base + slot * LINK_SIZE;
    return {
      slot,
      hostInterface: `${this.#layout.interfacePrefix}${slot}`,
      gateway: formatIpv4(first + 1),
      address: formatIpv4(first + 2),
    };
  }

  /** What a crashed run of this data directory left under `tag`: its namespaces (and links) and table. */
  static async #reap(tools: NetworkTools, tag: string, logger: Logger): Promise<void> {
    for (const name of namespacesOf(tag))
      await run(tools.ip, ['netns', 'delete', name]).catch((error: unknown) => {
        logger.warn(
          { err: error, namespace: name },
          'a network namespace an earlier run left could not be removed',
        );
      });
    // Only a run that ended without giving its names back leaves a table: mostly there is none.
    await run(tools.nft, ['delete', 'table', 'inet', `xb_${tag}`]).catch(() => undefined);
  }

  /**
   * Takes a /16 for the sessions (under the host's lock): the data directory's when it is still
   * free, else the first candidate no other server holds and no route overlaps. The block's
   * route is added (never replaced: the kernel refuses a second), so a server outside this lock's
   * reach (another version, another tool) that took it meanwhile is seen too.
   */
  static async #takeSubnet(
    tools: NetworkTools,
    claims: HostClaims,
    kept: string | undefined,
    logger: Logger,
  ): Promise<string> {
    const routes = JSON.parse(
      await run(tools.ip, ['-j', '-4', 'route', 'show', 'table', 'all']),
    ) as {
      dst?: string;
    }[];
    const used = routes
      .map((route) => route.dst)
      .filter((dst): dst is string => dst !== undefined && dst !== 'default')
      .map((dst) => {
        const [address, prefix] = dst.split('/');
        return { address: parseIpv4(address as string), prefix: Number(prefix ?? 32) };
      })
      .filter((route): route is { address: number; prefix: number } => route.address !== undefined);
    const isFree = (candidate: string) => {
      const base = parseIpv4(candidate.split('/')[0] as string) as number;
      return !used.some(
        (route) =>
          isInNetwork(route.address, base, 16) ||
          (route.prefix <= 16 && isInNetwork(base, route.address, route.prefix)),
      );
    };
    const choices = kept
      ? [kept, ...CANDIDATE_SUBNETS.filter((one) => one !== kept)]
      : CANDIDATE_SUBNETS;
    for (const candidate of choices) {
      const holder = claims.heldByOther(subnetClaim(candidate));
      if (holder) {
        if (candidate === kept)
          logger.warn(
            { subnet: candidate, holder },
            `the session subnet this data directory used (${candidate}) is held by ${describeHolder(holder)}: taking another`,
          );
        continue;
      }
      if (!isFree(candidate)) continue;
      try {
        await run(tools.ip, ['route', 'add', 'unreachable', candidate]);
      } catch {
        continue; // taken meanwhile by something outside the lock
      }
      claims.take(subnetClaim(candidate));
      return candidate;
    }
    throw new Error(
      'no free /16 in 10.200.0.0–10.239.255.255 for the session links: other servers of this host or its routes use them all',
    );
  }
}

/** The host's part of a session's link, for `ip -batch`: the namespace and the veth pair. */
function hostBatch(namespace: string, link: SessionLink): string {
  return [
    `netns add ${namespace}`,
    `link add ${link.hostInterface} type veth peer name eth0 netns ${namespace}`,
    `addr add ${link.gateway}/29 dev ${link.hostInterface}`,
    `link set ${link.hostInterface} up`,
    '',
  ].join('\n');
}

/**
 * What runs inside a session's namespace once, as root, before any of its processes: no IPv6 (its
 * network is IPv4 only), its address and route.
 */
function insideScript(tools: NetworkTools, link: SessionLink): string {
  return [
    'echo 1 > /proc/sys/net/ipv6/conf/all/disable_ipv6',
    'echo 1 > /proc/sys/net/ipv6/conf/default/disable_ipv6',
    // Lets the rules that map allowed loopback destinations to the host route them out.
    'echo 1 > /proc/sys/net/ipv4/conf/all/route_localnet',
    // Asks for the gateway's link address in the name of eth0's own, whatever a packet's sender.
    'echo 2 > /proc/sys/net/ipv4/conf/all/arp_announce',
    `${tools.ip} link set lo up`,
    `${tools.ip} addr add ${link.address}/29 dev eth0`,
    `${tools.ip} link set eth0 up`,
    `${tools.ip} route add default via ${link.gateway}`,
  ].join('\n');
}
