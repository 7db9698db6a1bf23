import type { BrowserEntry, Organization } from '@x/service-kernel';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { ChromiumInstance } from '../browsers/chromium-instance.js';

/** Every live browser of every project. */
function* browsersOf(
  org: Organization<ChromiumInstance>,
): Generator<BrowserEntry<ChromiumInstance>> {
  for (const model of org.models()) yield* model.browsers.entries();
}

/** Latency buckets of a call, in seconds: from a fast answer to a long acquire wait. */
const SECONDS_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300];

/**
 * What the server says about itself in Prometheus text format, at `GET /metrics`. Counters and
 * histograms move as calls are answered; the gauges are read from the service model when scraped,
 * so they cost nothing between scrapes. Process metrics (memory, CPU, event loop) come from
 * prom-client's defaults.
 */
export class ServerMetrics {
  readonly registry = new Registry();
  /**
   * The same metrics for the token-less metrics port, but for pools labelled by id: anyone on the
   * host's loopback reaches that port, and a pool's name is its owner's words.
   */
  readonly #anonymous = new Registry();
  readonly #requests = new Counter({
    name: 'xb_requests_total',
    help: 'Calls answered, by operation and status.',
    labelNames: ['operation', 'status'],
    registers: [this.registry, this.#anonymous],
  });
  readonly #acquireWait = new Histogram({
    name: 'xb_pool_acquire_wait_seconds',
    help: 'How long an acquire took to answer (a browser, or 204 when none came free in time).',
    labelNames: ['outcome'],
    buckets: SECONDS_BUCKETS,
    registers: [this.registry, this.#anonymous],
  });
  readonly #coldCreate = new Histogram({
    name: 'xb_browser_create_seconds',
    help: 'How long POST /browsers took to answer: a browser started cold, not from a pool.',
    buckets: SECONDS_BUCKETS,
    registers: [this.registry, this.#anonymous],
  });
  readonly #startPhases = new Histogram({
    name: 'xb_browser_start_phase_seconds',
    help: 'How long each step of starting a browser took: sandbox (cgroup, user, disk, home), profile (unpacking a saved one), egress (its network and rules), proxy (its relay), chromium (the browser until DevTools answers).',
    labelNames: ['phase'],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry, this.#anonymous],
  });
  readonly #refused = new Counter({
    name: 'xb_refused_calls_total',
    help: 'Calls of a known caller refused as not allowed (403): writes of read-only keys, and what a key does not reach.',
    labelNames: ['reason'],
    registers: [this.registry, this.#anonymous],
  });
  readonly #cdpBytes = new Counter({
    name: 'xb_cdp_relayed_bytes_total',
    help: 'Bytes of DevTools messages relayed through session URLs, by direction.',
    labelNames: ['direction'],
    registers: [this.registry, this.#anonymous],
  });

  constructor(
    org: Organization<ChromiumInstance>,
    sources: {
      /** Connections the egress policy refused so far (its nftables counter); undefined: no policy. */
      readonly egressBlocked?: (() => Promise<number>) | undefined;
      /** Connections closed so far for the connection bounds, by bound. */
      readonly connectionsRefused?: () =>
        | { readonly perClient: number; readonly unauthenticated: number }
        | undefined;
    } = {},
  ) {
    collectDefaultMetrics({ register: this.registry, prefix: 'xb_server_' });
    collectDefaultMetrics({ register: this.#anonymous, prefix: 'xb_server_' });
    const registers = [this.registry, this.#anonymous];
    const { egressBlocked } = sources;
    if (egressBlocked)
      new Counter({
        name: 'xb_egress_blocked_total',
        help: 'Packets sessions sent to destinations the egress policy refuses (loopback, link-local, private, CGNAT, multicast, the host itself, other sessions), each answered at once as unreachable.',
        registers,
        async collect() {
          // A count nftables cannot give now keeps its last value; the next scrape asks again.
          const total = await egressBlocked().catch(() => undefined);
          if (total === undefined) return;
          this.reset();
          this.inc(total);
        },
      });
    const { connectionsRefused } = sources;
    if (connectionsRefused)
      new Counter({
        name: 'xb_connections_refused_total',
        help: 'Connections the server closed to keep its open files: past the connections one address may hold (per_client), or the oldest that showed no credential when too many had not (unauthenticated).',
        labelNames: ['reason'],
        registers,
        collect() {
          const refused = connectionsRefused();
          if (!refused) return;
          this.reset();
          this.inc({ reason: 'per_client' }, refused.perClient);
          this.inc({ reason: 'unauthenticated' }, refused.unauthenticated);
        },
      });
    new Gauge({
      name: 'xb_sessions',
      help: 'Live browser sessions, by state: warm (idle in a pool) or active (held by a caller).',
      labelNames: ['state'],
      registers,
      collect() {
        let warm = 0;
        let active = 0;
        for (const entry of browsersOf(org)) {
          if (entry.isWarm) warm += 1;
          else active += 1;
        }
        this.set({ state: 'warm' }, warm);
        this.set({ state: 'active' }, active);
      },
    });
    const poolGauge = (
      register: Registry,
      label: (pool: { id: string; name?: string }) => string,
    ) =>
      new Gauge({
        name: 'xb_pool_browsers',
        help: 'Browsers of each pool, by project and state: available (warm) or acquired.',
        labelNames: ['project', 'pool', 'state'],
        registers: [register],
        collect() {
          this.reset();
          for (const model of org.models()) {
            const { project } = model.context;
            for (const pool of model.pools.list()) {
              const labels = { project, pool: label(pool) };
              this.set({ ...labels, state: 'available' }, pool.available_count);
              this.set({ ...labels, state: 'acquired' }, pool.acquired_count);
            }
          }
        },
      });
    poolGauge(this.registry, (pool) => pool.name ?? pool.id);
    poolGauge(this.#anonymous, (pool) => pool.id);
    const perBrowser = (
      name: string,
      help: string,
      count: (entry: BrowserEntry<ChromiumInstance>) => number,
    ) =>
      new Gauge({
        name,
        help,
        registers,
        collect() {
          let total = 0;
          for (const entry of browsersOf(org)) total += count(entry);
          this.set(total);
        },
      });
    perBrowser(
      'xb_processes',
      'Processes running beside browsers.',
      (entry) =>
        [...entry.processes.values()].filter((process) => process.exitCode === null).length,
    );
    perBrowser('xb_replays_recording', 'Recordings in progress.', (entry) => entry.recordings.size);
    perBrowser('xb_watches', 'Directory watches open.', (entry) => entry.watches.size);
    new Gauge({
      name: 'xb_live_viewers',
      help: 'People watching a live view now.',
      registers,
      collect() {
        let viewers = 0;
        for (const model of org.models()) viewers += model.liveViews.viewerCount();
        this.set(viewers);
      },
    });
  }

  /** Counts an answered call; the two pool and browser latencies are timed from it too. */
  answered(operation: string, status: number, seconds: number): void {
    this.#requests.inc({ operation, status: String(status) });
    if (operation === 'browserPools.acquire') {
      this.#acquireWait.observe({ outcome: status === 200 ? 'acquired' : 'timed_out' }, seconds);
    } else if (operation === 'browsers.create' && status === 201) {
      this.#coldCreate.observe(seconds);
    }
  }

  /** Counts a call refused to its caller: a read-only key's write, or what the key does not reach. */
  refused(reason: 'read_only' | 'forbidden'): void {
    this.#refused.inc({ reason });
  }

  /** Times the steps of one browser's start, in milliseconds by step. */
  started(phases: Readonly<Record<string, number>>): void {
    for (const [phase, ms] of Object.entries(phases))
      this.#startPhases.observe({ phase }, ms / 1000);
  }

  /** Counts DevTools bytes relayed one way. */
  relayed(direction: 'to_client' | 'to_browser', bytes: number): void {
    this.#cdpBytes.inc({ direction }, bytes);
  }

  /**
   * The text a scrape gets, and its content type: `anonymous` for the token-less port (pools by
   * id, never by name).
   */
  async scrape(anonymous = false): Promise<{ body: string; contentType: string }> {
    const registry = anonymous ? this.#anonymous : this.registry;
    return { body: await registry.metrics(), contentType: registry.contentType };
  }
}
