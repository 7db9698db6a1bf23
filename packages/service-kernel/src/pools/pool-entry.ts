import {
  type BrowserPool,
  type BrowserPoolConfig,
  POOL_BROWSER_TIMEOUT_SECONDS,
  resolveTelemetry,
  type TelemetryInput,
} from '@x/types';
import type { BrowserSpec } from '../browsers/browser-model.js';
import type { FillRate } from './fill-rate.js';
import type { Waiter } from './wait-in-line.js';

/** A pool as it stands, to inspect (the fake's state shows these). */
export interface PoolView {
  readonly id: string;
  readonly name: string | undefined;
  readonly config: BrowserPoolConfig;
  /** Warm browsers' ids, oldest first. */
  readonly idle: readonly string[];
  readonly acquired: ReadonlySet<string>;
}

/** A pool and the browsers it holds. */
/** How many released browsers a pool remembers. */
export const RELEASED_KEPT = 256;

export interface PoolEntry {
  readonly id: string;
  name: string | undefined;
  readonly createdAt: string;
  config: BrowserPoolConfig;
  /** Where its browsers' URLs point: the origin it was created or last changed through. */
  origin: string;
  /** Warm browsers, oldest first. */
  readonly idle: string[];
  readonly acquired: Set<string>;
  /**
   * Browsers released from it lately (the newest `RELEASED_KEPT`): a second release of one says
   * its lease ended at once, before its record (written as it ends, maybe by another node) does.
   */
  readonly released: Set<string>;
  /** Browsers being started for it. */
  starting: number;
  /** Of those, how many on each node of a cluster (by tag). */
  readonly startingOn: Map<string, number>;
  /** Acquire calls waiting for a browser, first come first served. */
  readonly waiters: Waiter<string>[];
  readonly fillRate: FillRate;
  timer: ReturnType<typeof setTimeout> | undefined;
  isDeleted: boolean;
  /** The service was full at its last start: it fills again when a browser ends somewhere. */
  isWaitingForRoom: boolean;
}

/** The pool record as it reads now: the counts are always the pool's true counts. */
export function poolRecord(pool: PoolEntry): BrowserPool {
  const record: BrowserPool = {
    id: pool.id,
    available_count: pool.idle.length,
    acquired_count: pool.acquired.size,
    created_at: pool.createdAt,
    browser_pool_config: structuredClone(pool.config),
  };
  if (pool.name !== undefined) record.name = pool.name;
  return record;
}

/** What a pool's browsers are started with: its configuration, defaults from the catalog. */
export function browserSpecOf(pool: Pick<PoolEntry, 'id' | 'name' | 'config'>): BrowserSpec {
  const { config } = pool;
  return {
    headless: config.headless ?? true,
    stealth: config.stealth ?? false,
    kiosk_mode: config.kiosk_mode ?? false,
    timeout_seconds: config.timeout_seconds ?? POOL_BROWSER_TIMEOUT_SECONDS,
    viewport: config.viewport,
    extensions: config.extensions,
    proxy_id: config.proxy_id,
    network: config.network,
    profile: config.profile,
    telemetry: config.telemetry,
    pool: pool.name === undefined ? { id: pool.id } : { id: pool.id, name: pool.name },
  };
}

/** Only the fields a caller set: PATCH changes those and keeps the rest. */
export const setFields = (body: object) =>
  Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined));

/** A pool configuration as a caller gives it: its telemetry as asked. */
export type PoolConfigInput = Omit<BrowserPoolConfig, 'telemetry'> & {
  readonly telemetry?: TelemetryInput | undefined;
};

/**
 * A pool configuration as it is kept: its telemetry resolved (every category said), left out
 * when it captures nothing (`null` on an update clears it).
 */
export function keptConfig(config: PoolConfigInput): BrowserPoolConfig {
  const { telemetry, ...rest } = config;
  const resolved = resolveTelemetry(telemetry);
  return resolved ? { ...rest, telemetry: resolved } : rest;
}
