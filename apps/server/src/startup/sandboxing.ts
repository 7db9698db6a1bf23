import type { DatabaseSync } from 'node:sqlite';
import { describeOperatorNetworks } from '@x/service-kernel';
import type { Logger } from 'pino';
import type { Egress } from '../browsers/chromium-engine.js';
import type { ServerConfig } from '../config.js';
import type { EgressNetworks } from '../network/egress-networks.js';
import { SessionNetworks } from '../network/session-networks.js';
import { UserModeNetworks } from '../network/user-mode-networks.js';
import { SessionCgroups } from '../sandbox/cgroups.js';
import { type DiskDetection, InstanceDisks } from '../sandbox/instance-disks.js';
import { newUserBlockBase, SandboxUsers } from '../sandbox/sandbox-users.js';
import { SessionTrust } from '../sandbox/session-trust.js';
import { storedSetting, storeSetting } from '../store/database.js';
import type { SystemTools } from '../system/executables.js';
import { describeHolder, HostClaims } from '../system/host-claims.js';
import { logLimits } from './host.js';
import type { Teardown } from './teardown.js';

/** The walls a session's browser and a deployment's code run inside, as this host allows them. */
export interface Sandboxing {
  readonly cgroups: SessionCgroups | undefined;
  readonly disks: DiskDetection | undefined;
  readonly trust: SessionTrust | undefined;
  /** What this server shares with the other servers of its host, each taken once. */
  readonly claims: HostClaims | undefined;
  readonly users: SandboxUsers | undefined;
  readonly egress: Egress | undefined;
}

/**
 * Stage three: the sandboxes' parts. A cgroup and a disk per session where the host allows
 * them, the authorities sessions trust, and what a root server shares with the other servers of
 * this host (session subnets, network names, blocks of users): each taken under the host's
 * lock, never twice. Then the egress policy.
 */
export async function prepareSandboxing(
  config: ServerConfig,
  logger: Logger,
  tools: SystemTools,
  database: DatabaseSync,
  teardown: Teardown,
): Promise<Sandboxing> {
  const cgroups = config.isBrowserSandboxed
    ? SessionCgroups.detect(config.dataDir, config.sessionLimits)
    : undefined;
  if (cgroups) teardown.add("the sessions' cgroups", () => cgroups.close());
  const disks =
    config.isBrowserSandboxed && config.sessionDiskBytes > 0
      ? await InstanceDisks.detect(config.dataDir, config.sessionDiskBytes)
      : undefined;
  logLimits(logger, { cgroups, disks }, config);
  const trust = config.sessionCaFile
    ? await SessionTrust.prepare(config.sessionCaFile, config.dataDir, tools.certutil)
    : undefined;
  if (trust)
    logger.info(
      { file: config.sessionCaFile, authorities: trust.count },
      'sessions trust the authorities of XB_SESSION_CA_FILE besides the public ones',
    );
  const claims = SandboxUsers.canSwitchUser ? new HostClaims(config.dataDir) : undefined;
  if (claims) teardown.add('the claims on this host', () => claims.releaseAll());
  const users = claims
    ? new SandboxUsers(await takeUserBlock(claims, database, logger))
    : undefined;
  const egress = config.isBrowserSandboxed
    ? await startEgress(config, tools, database, claims, logger)
    : undefined;
  if (egress && 'networks' in egress)
    teardown.add("the sessions' networks", () => egress.networks.close());
  return { cgroups, disks, trust, claims, users, egress };
}

/**
 * The block of users this data directory's sandboxes run as: the one kept in its store, unless
 * another server of this host holds it (a copied data directory, a block drawn twice), then
 * another, kept from then on.
 */
async function takeUserBlock(
  claims: HostClaims,
  database: DatabaseSync,
  logger: Logger,
): Promise<number> {
  return claims.withLock(async () => {
    let base = Number(
      storedSetting(database, 'sandbox_uid_base', () => String(newUserBlockBase())),
    );
    for (let attempt = 0; ; attempt++) {
      const holder = claims.heldByOther(`uids-${base}`);
      if (!holder) break;
      if (attempt >= 64) throw new Error('no free block of sandbox users on this host');
      logger.warn(
        { uidBase: base, holder },
        `the sandbox users from uid ${base} are held by ${describeHolder(holder)}: taking another block`,
      );
      base = newUserBlockBase();
      storeSetting(database, 'sandbox_uid_base', String(base));
    }
    claims.take(`uids-${base}`);
    // Servers killed without a stop leave their sessions' disks mounted under their data
    // directories; one whose data directory never starts again would leave them for good.
    for (const left of claims.left('uids-')) {
      const holder = claims.holderOf(left);
      if (holder && !claims.isDataDirLive(holder.dataDir)) {
        const unmounted = InstanceDisks.reap(holder.dataDir);
        if (unmounted > 0)
          logger.info(
            { dataDir: holder.dataDir, disks: unmounted },
            'unmounted the session disks a killed server left',
          );
      }
      claims.forget(left);
    }
    return base;
  });
}

/**
 * The egress policy, as this host allows it: a network namespace per session (root: a veth link
 * with iproute2 and nftables; otherwise a user namespace of the server's, out through
 * slirp4netns), the host's network when the operator said `*`, or none, with the reason (browsers
 * are then refused and /readyz says why). Said once in the start-up log.
 */
async function startEgress(
  config: ServerConfig,
  tools: SystemTools,
  database: DatabaseSync,
  claims: HostClaims | undefined,
  logger: Logger,
): Promise<Egress> {
  const allowed = describeOperatorNetworks(config.allowNetworks);
  if (config.allowNetworks === 'open') {
    logger.warn(
      { allowNetworks: '*' },
      `egress: ${allowed}; pages reach whatever the host reaches`,
    );
    return { open: true };
  }
  const isRoot = process.getuid?.() === 0;
  const { ip, nft, nsenter, unshare, setpriv, slirp4netns } = tools;
  const reason =
    !nft || !nsenter
      ? 'nftables and nsenter are needed (apt-get install nftables util-linux)'
      : isRoot && !ip
        ? 'iproute2 is needed (apt-get install iproute2)'
        : !isRoot && (!slirp4netns || !unshare || !setpriv)
          ? "a server that is not root needs slirp4netns for its sessions' networks (apt-get install slirp4netns)"
          : undefined;
  if (reason) {
    logger.error({ reason }, `egress policy unavailable: ${reason}; browsers are refused`);
    return { unavailable: reason };
  }
  try {
    let networks: EgressNetworks;
    if (isRoot && claims) {
      const kept = storedSetting(database, 'session_subnet', () => '');
      const rooted = await SessionNetworks.start({
        tools: { ip: ip as string, nft: nft as string, nsenter: nsenter as string },
        dataDir: config.dataDir,
        subnet: kept || undefined,
        nameservers: config.sessionNameservers,
        claims,
        logger,
      });
      if (rooted.subnet !== kept) storeSetting(database, 'session_subnet', rooted.subnet);
      networks = rooted;
    } else {
      networks = await UserModeNetworks.start({
        tools: {
          nft: nft as string,
          nsenter: nsenter as string,
          unshare: unshare as string,
          setpriv: setpriv as string,
          slirp4netns: slirp4netns as string,
        },
        dataDir: config.dataDir,
        operator: config.allowNetworks,
        logger,
      });
    }
    logger.info(
      { allowNetworks: allowed },
      `egress: ${allowed}; a page on a loopback or private address (localhost:3000, 10.0.0.5, this host) is refused and logged: XB_ALLOW_NETWORKS=127.0.0.1:3000 opens one`,
    );
    return { networks };
  } catch (error) {
    const failed = `the egress policy could not be set up: ${(error as Error).message}`;
    logger.error({ err: error }, failed);
    return { unavailable: failed };
  }
}
