import type { Organization } from '@x/service-kernel';
import type { Logger } from 'pino';
import type { ChromiumInstance } from '../browsers/chromium-instance.js';
import type { ClusterPoolPeers } from '../cluster/pool-peers.js';
import type { ServerConfig } from '../config.js';
import type { KeptIdempotencyStore } from '../store/idempotency-store.js';

/** How often browsers idle past their time-out are looked for. */
const SWEEP_MS = 1_000;

/** How often a node looks for warm browsers it runs for pools that no longer hold them. */
const POOL_SWEEP_MS = 30_000;

/** How often expired idempotency answers are pruned. */
const PRUNE_MS = 60_000;

/** How often the audit log drops what is past `XB_AUDIT_DAYS`. */
const AUDIT_PRUNE_MS = 3_600_000;

/**
 * Stage seven: housekeeping, on timers that do not keep the process alive. Idle browsers end,
 * a cluster's orphaned pool browsers are found, idempotency answers and the audit log are
 * pruned (the audit log once now). Gives how to stop it.
 */
export async function startHousekeeping(
  config: ServerConfig,
  logger: Logger,
  org: Organization<ChromiumInstance>,
  idempotency: KeptIdempotencyStore,
  poolPeers: ClusterPoolPeers | undefined,
): Promise<() => void> {
  const sweeper = setInterval(() => org.sweep(), SWEEP_MS);
  sweeper.unref();
  const poolSweeper =
    poolPeers &&
    setInterval(() => {
      poolPeers.sweep(org).catch((error: unknown) => {
        logger.warn({ err: error }, 'could not look for pool browsers nobody holds');
      });
    }, POOL_SWEEP_MS);
  poolSweeper?.unref();
  const pruneAudit = () =>
    org.audit.prune(config.auditDays).catch((error: unknown) => {
      logger.warn({ err: error }, 'the audit log could not be pruned; trying again later');
    });
  await pruneAudit();
  let lastAuditPrune = Date.now();
  const pruner = setInterval(() => {
    idempotency.prune().catch((error: unknown) => {
      logger.warn({ err: error }, 'idempotency answers could not be pruned; trying again later');
    });
    if (Date.now() - lastAuditPrune >= AUDIT_PRUNE_MS) {
      lastAuditPrune = Date.now();
      void pruneAudit();
    }
  }, PRUNE_MS);
  pruner.unref();
  return () => {
    clearInterval(sweeper);
    clearInterval(poolSweeper);
    clearInterval(pruner);
  };
}
