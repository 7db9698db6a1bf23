import { randomBytes } from 'node:crypto';
import { lookup } from 'node:dns/promises';
import { NODE_TAG_LENGTH, nodeTagOf } from '@x/service-kernel';
import pg from 'pg';
import type { Logger } from 'pino';
import { ClusterStore, LEASE_SECONDS, type NodeRow, POOL_HOMES_CHANNEL } from './cluster-store.js';

/** Longest a statement of the cluster's may take (connecting included). */
const STATEMENT_MS = 3_000;

/** How much less loaded (a share of capacity) another node must be to take a create. */
const PLACEMENT_SLACK = 0.1;

/** How often a node renews its lease, reads the others and sweeps the lost. */
export const HEARTBEAT_MS = 2_000;

/** What a node does when the cluster changes under it. */
export interface ClusterHooks {
  /** How many browsers this node runs or starts now. */
  running(): number;
  /** Nodes found lost (by their tags): their sessions are to be marked ended. */
  lost(tags: readonly string[]): Promise<void>;
  /**
   * This node was declared lost while it could not renew its lease (a partition): others have
   * ended its sessions, so it ends its browsers before it joins again.
   */
  fenced(): Promise<void>;
  /** Pools moved between nodes (a node was lost or left): this node takes or lets go of them. */
  poolsMoved(): Promise<void>;
  /**
   * Nodes this one saw up are no more (lost, left, or started again with a new epoch): nothing
   * they ran still runs, so pools here let go of their browsers there.
   */
  gone(tags: readonly string[]): void;
}

/** What a node is told before it joins. */
export interface NodeOptions {
  /** This node's tag (kept in its data directory: the same across restarts). */
  readonly tag: string;
  /** Whether XB_NODE_URL was given (else the node is reached at its bind address). */
  readonly isUrlGiven: boolean;
  /** Most browsers this node runs at once. */
  readonly capacity: number;
  readonly logger: Logger;
  /** This server's own session-URL secret: the cluster's when this is its first node. */
  readonly localJwtSecret: string;
  /**
   * A fingerprint of this node's sealing key (`XB_SECRET_KEY_FILE`), never the key: the first
   * node records it, every other must match it.
   */
  readonly keyFingerprint: string;
  /** Where that key is read from, to name it when it does not match. */
  readonly keyFile: string;
}

/**
 * A node whose sealing key is not the cluster's: what the other nodes sealed it cannot open, and
 * the URLs its sessions hand out fail through them. It must not join.
 */
export class KeyMismatchError extends Error {
  constructor(file: string) {
    super(
      `the key in ${file} is not the one the other nodes of this database use: give every node the same key file (XB_SECRET_KEY_FILE, a copy of the first node's), then start this one again`,
    );
    this.name = 'KeyMismatchError';
  }
}

/** A new node's tag: 4 random characters of the ids' alphabet. */
export function newNodeTag(): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  return [...randomBytes(NODE_TAG_LENGTH)].map((byte) => alphabet[byte % 62]).join('');
}

/**
 * This server as a node of the cluster on its PostgreSQL: it registers with a new epoch, renews
 * its lease every 2 s, keeps a copy of the other nodes (their addresses and loads), and sweeps:
 * a node whose lease lapsed (6 s) is declared lost and its sessions ended by one of the others.
 * A sweep waits until this node itself has renewed for a whole lease since it last could not:
 * after PostgreSQL restarts, every node renews before any of them declares another lost.
 */
export class ClusterNode {
  readonly tag: string;
  /** Signs the calls nodes pass to each other (`x-xb-node-hop`). */
  readonly hopSecret: string;
  /** Signs the session URLs' jwts: shared, so any node checks any session's URL. */
  readonly jwtSecret: string;
  /** The node that holds what was made before the cluster (ids without a node's tag). */
  readonly legacyOwner: string;
  readonly #pool: pg.Pool;
  readonly #store: ClusterStore;
  readonly #options: NodeOptions;
  readonly #databaseUrl: string;
  #url = '';
  /** The pools that moved off the node their id names, to the node that holds them now. */
  #homes = new Map<string, string>();
  /** The connection that hears pools move (LISTEN); made again at a renewal when it broke. */
  #listener: pg.Client | undefined;
  #homesRead: Promise<void> | undefined;
  #isHomesStale = false;
  /** The hooks have not yet acted on the pools' homes as last read (their last call failed). */
  #isPoolsUnsettled = false;
  #hooks: ClusterHooks | undefined;
  #epoch = 0;
  #members = new Map<string, NodeRow>();
  #nodeAddresses = new Set<string>();
  #timer: NodeJS.Timeout | undefined;
  #beating: Promise<void> | undefined;
  /** Since when renewals have succeeded without a failure (ms); undefined: the last one failed. */
  #healthySince: number | undefined = Date.now();
  #state: 'up' | 'draining' = 'up';
  #isLeaving = false;

  private constructor(
    databaseUrl: string,
    pool: pg.Pool,
    store: ClusterStore,
    options: NodeOptions,
    secrets: { hop: string; jwt: string; legacyOwner: string },
  ) {
    this.#databaseUrl = databaseUrl;
    this.#pool = pool;
    this.#store = store;
    this.#options = options;
    this.tag = options.tag;
    this.hopSecret = secrets.hop;
    this.jwtSecret = secrets.jwt;
    this.legacyOwner = secrets.legacyOwner;
  }

  /**
   * Readies this server to join the cluster of `pool`'s database: the secrets every node shares
   * (made by the first), and the check that a second node has an address the others reach.
   */
  static async prepare(databaseUrl: string, options: NodeOptions): Promise<ClusterNode> {
    // A pool of its own, every statement bounded: a renewal that hangs (a partition) fails in
    // time and its connection is dropped, and the API's calls never wait behind it.
    const pool = new pg.Pool({
      connectionString: databaseUrl,
      max: 3,
      connectionTimeoutMillis: STATEMENT_MS,
      query_timeout: STATEMENT_MS,
      idleTimeoutMillis: 30_000,
      application_name: 'xb-server cluster',
    });
    pool.on('error', () => undefined); // a cut idle connection: the next statement makes another
    try {
      const store = new ClusterStore(pool);
      const others = (await store.nodes()).filter(
        (node) => node.id !== options.tag && node.state !== 'lost',
      );
      if (others.length > 0 && !options.isUrlGiven)
        throw new Error(
          `other nodes run on this database (${others.map((node) => node.url).join(', ')}): set XB_NODE_URL (--node-url) to the address they reach this one at`,
        );
      const recorded = await store.shared('key_fingerprint', () => options.keyFingerprint);
      if (recorded !== options.keyFingerprint) throw new KeyMismatchError(options.keyFile);
      const node = new ClusterNode(databaseUrl, pool, store, options, {
        hop: await store.shared('hop_secret', () => randomBytes(32).toString('hex')),
        jwt: await store.shared('jwt_secret', () => options.localJwtSecret),
        legacyOwner: await store.shared('legacy_owner', () => options.tag),
      });
      // Before the server fills its pools: those that moved elsewhere are not this node's.
      node.#homes = await store.poolHomes();
      return node;
    } catch (error) {
      // The error that stopped the start is the one told; closing its pool may fail as well.
      await pool.end().catch(() => undefined);
      throw error;
    }
  }

  /** Joins, reached at `url`: registered with a new epoch, up, the other nodes read. */
  async join(url: string): Promise<void> {
    const { tag, capacity, logger } = this.#options;
    let epoch = await this.#store.register(tag, url, capacity);
    if (epoch === undefined) {
      // This node's own run that was killed, restarted at a new address, holds the id until its
      // lease lapses; a copy of the data directory running elsewhere holds it for good.
      logger.warn({ node: tag }, 'this node id is held at another address: waiting for its lease');
      await new Promise((resolve) => setTimeout(resolve, (LEASE_SECONDS + 1) * 1000));
      epoch = await this.#store.register(tag, url, capacity);
    }
    if (epoch === undefined)
      throw new Error(
        `node ${tag} (this data directory's) runs at another address already: a data directory belongs to one node; copy none`,
      );
    this.#url = url;
    this.#epoch = epoch;
    await this.#readMembers();
    logger.info({ node: tag, epoch, url, nodes: this.#members.size }, 'joined the cluster');
  }

  /** Where the other nodes reach this one. */
  get url(): string {
    return this.#url;
  }

  /** Starts renewing and sweeping, telling `hooks` what happens. */
  start(hooks: ClusterHooks): void {
    this.#hooks = hooks;
    this.#timer = setInterval(() => {
      this.#beating ??= this.#beat().finally(() => {
        this.#beating = undefined;
      });
    }, HEARTBEAT_MS);
    this.#timer.unref();
  }

  get epoch(): number {
    return this.#epoch;
  }

  /** Whether this node holds what `id` names. */
  owns(id: string): boolean {
    return this.ownerOf(id) === this.tag;
  }

  /**
   * The tag of the node that holds what `id` names: the node its id names, unless it is a pool
   * that moved (its node was lost or left).
   */
  ownerOf(id: string): string {
    return this.#homes.get(id) ?? nodeTagOf(id) ?? this.legacyOwner;
  }

  /** Node `tag` as last read: undefined when unknown. */
  member(tag: string): NodeRow | undefined {
    return this.#members.get(tag);
  }

  /** Every node as last read. */
  members(): NodeRow[] {
    return [...this.#members.values()];
  }

  /**
   * Where a new browser may go, best first: the nodes that are up and have room, least loaded
   * first (browsers running over capacity). This node comes first while it is within a tenth of
   * its capacity of the least loaded: a create is not sent across the network to even out
   * less than that. Empty when none has room. The first, when it is another node, counts one
   * more browser at once (the store hears of it at its next renewal); with `isTaken` false
   * nothing is counted (a look only).
   */
  placements(isTaken = true): NodeRow[] {
    const candidates: { node: NodeRow; load: number; isSelf: boolean }[] = [];
    for (const node of this.#members.values()) {
      const isSelf = node.id === this.tag;
      if (isSelf ? this.#state !== 'up' : node.state !== 'up') continue;
      const running = isSelf ? (this.#hooks?.running() ?? node.running) : node.running;
      if (running >= node.capacity) continue;
      candidates.push({ node, load: running / node.capacity, isSelf });
    }
    candidates.sort((a, b) => a.load - b.load || Number(b.isSelf) - Number(a.isSelf));
    const self = candidates.find((candidate) => candidate.isSelf);
    const least = candidates[0];
    if (self && least && self.load <= least.load + PLACEMENT_SLACK) {
      candidates.splice(candidates.indexOf(self), 1);
      candidates.unshift(self);
    }
    const first = candidates[0];
    if (first && isTaken) this.took(first.node.id);
    return candidates.map((candidate) => candidate.node);
  }

  /**
   * Counts one more browser on node `tag` at once, when it is another node (this one counts its
   * own): the store hears of it at that node's next renewal.
   */
  took(tag: string): void {
    const node = this.#members.get(tag);
    if (node && tag !== this.tag) this.#members.set(tag, { ...node, running: node.running + 1 });
  }

  /** No new browsers come here (a deploy drains this node); its running ones go on. */
  async drain(): Promise<void> {
    this.#state = 'draining';
    await this.#store.setState(this.tag, this.#epoch, 'draining');
  }

  /**
   * Leaves the cluster (shutdown, its browsers ended already): its pools go to the other nodes
   * that are up, which fill them again, and nobody has to sweep it.
   */
  async leave(): Promise<void> {
    this.#isLeaving = true;
    clearInterval(this.#timer);
    await this.#beating;
    await this.#listener?.end().catch(() => undefined); // leaving: a broken listener is no loss
    if (this.#epoch > 0) {
      await this.#movePoolsOff([this.tag]).catch((error: unknown) => {
        this.#options.logger.warn({ err: error }, 'could not hand this node’s pools over');
      });
      await this.#store.leave(this.tag, this.#epoch).catch((error: unknown) => {
        this.#options.logger.warn({ err: error }, 'could not leave the cluster: it will sweep us');
      });
    }
    await this.#pool.end().catch(() => undefined); // the last act: nothing is left to tell
  }

  /**
   * Moves the pools of nodes `tags` (lost, or this one leaving) to the nodes that are up, least
   * loaded first, one each in turn. With no other node up they stay (they come back with their
   * node, or the first node up moves them as orphans).
   */
  async #movePoolsOff(tags: readonly string[]): Promise<void> {
    const targets = this.members()
      .filter((node) => node.state === 'up' && !tags.includes(node.id))
      .sort((a, b) => a.running / a.capacity - b.running / b.capacity);
    if (targets.length === 0) return;
    const homes = await this.#store.poolHomes();
    const moves = new Map<string, string>();
    for (const id of await this.#store.poolIds()) {
      const home = homes.get(id) ?? nodeTagOf(id) ?? this.legacyOwner;
      if (tags.includes(home)) moves.set(id, (targets[moves.size % targets.length] as NodeRow).id);
    }
    if (moves.size === 0) return;
    await this.#store.movePools(moves);
    this.#options.logger.warn(
      { nodes: tags, pools: Object.fromEntries(moves) },
      'pools moved to the nodes that are up',
    );
  }

  /**
   * Pools left on a node that is lost though its sweeper did not move them (its move failed, or
   * two nodes left at once, each handing its pools to the other) go to the nodes that are up.
   * One node looks (the first up, by id), so two never move one pool at once.
   */
  async #moveOrphanedPools(): Promise<void> {
    const up = this.members().filter((node) => node.state === 'up');
    if (up[0]?.id !== this.tag) return;
    const lost = this.members().filter((node) => node.state === 'lost');
    if (lost.length > 0) await this.#movePoolsOff(lost.map((node) => node.id));
  }

  /**
   * Reads where pools live, and tells the hooks when that changed. One read at a time; a call
   * meanwhile (a notification) has it read once more after.
   */
  #readHomes(): Promise<void> {
    if (this.#homesRead) {
      this.#isHomesStale = true;
      return this.#homesRead;
    }
    this.#homesRead = (async () => {
      do {
        this.#isHomesStale = false;
        const homes = await this.#store.poolHomes();
        const isChanged =
          homes.size !== this.#homes.size ||
          [...homes].some(([id, node]) => this.#homes.get(id) !== node);
        // Read before the hooks act: what they take or let go follows `ownerOf`.
        this.#homes = homes;
        if ((isChanged || this.#isPoolsUnsettled) && this.#hooks && !this.#isLeaving) {
          this.#isPoolsUnsettled = true;
          await this.#hooks.poolsMoved();
          this.#isPoolsUnsettled = false;
        }
      } while (this.#isHomesStale && !this.#isLeaving);
    })().finally(() => {
      this.#homesRead = undefined;
    });
    return this.#homesRead;
  }

  /**
   * Hears pools move at once (LISTEN); the renewals read them too, so a connection that broke
   * (made again at the next renewal) or a notification lost costs at most one renewal's wait.
   */
  async #listen(): Promise<void> {
    if (this.#listener || this.#isLeaving) return;
    const client = new pg.Client({
      connectionString: this.#databaseUrl,
      connectionTimeoutMillis: STATEMENT_MS,
      query_timeout: STATEMENT_MS,
      keepAlive: true,
      application_name: 'xb-server cluster listener',
    });
    const drop = () => {
      if (this.#listener === client) this.#listener = undefined;
      client.end().catch(() => undefined); // already broken: the next sweep listens again
    };
    client.on('error', drop);
    client.on('end', drop);
    client.on('notification', () => {
      this.#readHomes().catch(() => undefined); // the next renewal reads them again
    });
    this.#listener = client;
    try {
      await client.connect();
      await client.query(`LISTEN ${POOL_HOMES_CHANNEL}`);
    } catch (error) {
      drop();
      throw error;
    }
  }

  async #beat(): Promise<void> {
    const { logger } = this.#options;
    try {
      const isRenewed = await this.#store.heartbeat(
        this.tag,
        this.#epoch,
        this.#hooks?.running() ?? 0,
      );
      if (this.#isLeaving) return;
      this.#healthySince ??= Date.now();
      if (!isRenewed) await this.#rejoin();
      await this.#readMembers();
      await this.#listen().catch((error: unknown) => {
        logger.warn({ err: error }, 'cannot listen for pools moving: reading them at each renewal');
      });
      // Taking or letting go of pools failing is not this node failing to renew: tried again.
      await this.#readHomes().catch((error: unknown) => {
        logger.warn({ err: error }, 'could not take or let go of moved pools: trying again');
      });
      if (Date.now() - this.#healthySince >= LEASE_SECONDS * 1000) {
        const lost = (await this.#store.sweep()).filter((tag) => tag !== this.tag);
        if (lost.length > 0) {
          logger.warn({ nodes: lost }, 'nodes lost: their sessions are ended');
          // Known lost here at once: nothing is placed on them before the next read.
          for (const tag of lost) {
            const node = this.#members.get(tag);
            if (node) this.#members.set(tag, { ...node, state: 'lost' });
          }
          await this.#hooks?.lost(lost);
          await this.#movePoolsOff(lost);
        }
        await this.#moveOrphanedPools();
      }
    } catch (error) {
      if (this.#healthySince !== undefined)
        logger.warn(
          { code: (error as { code?: string }).code },
          'cannot renew this node in the store: trying again',
        );
      this.#healthySince = undefined;
    }
  }

  /** Declared lost while away: its browsers end (others ended their sessions), then it joins again. */
  async #rejoin(): Promise<void> {
    const { logger } = this.#options;
    logger.error(
      { node: this.tag, epoch: this.#epoch },
      'this node was declared lost while it could not reach the store: ending its browsers and joining again',
    );
    // Its pools that moved meanwhile are let go of first: ending its browsers refills the rest.
    await this.#readHomes();
    await this.#hooks?.fenced();
    const epoch = await this.#store.register(this.tag, this.#url, this.#options.capacity);
    if (epoch === undefined) throw new Error('another node took this node id');
    this.#epoch = epoch;
    if (this.#state === 'draining') await this.#store.setState(this.tag, epoch, 'draining');
    logger.info({ node: this.tag, epoch }, 'joined the cluster again');
  }

  async #readMembers(): Promise<void> {
    const before = this.#members;
    this.#members = new Map((await this.#store.nodes()).map((node) => [node.id, node]));
    const gone = [...before.values()]
      .filter((node) => {
        if (node.id === this.tag || node.state === 'lost') return false;
        const now = this.#members.get(node.id);
        return !now || now.state === 'lost' || now.epoch !== node.epoch;
      })
      .map((node) => node.id);
    if (gone.length > 0) this.#hooks?.gone(gone);
    const addresses = new Set<string>();
    for (const node of this.#members.values()) {
      if (node.id === this.tag || node.state === 'lost') continue;
      const host = new URL(node.url).hostname.replace(/^\[|\]$/g, '');
      // A name that does not resolve now adds no address; the next sweep looks again.
      const found = await lookup(host, { all: true }).catch(() => []);
      for (const { address } of found) {
        addresses.add(address);
        addresses.add(`::ffff:${address}`);
      }
    }
    this.#nodeAddresses = addresses;
  }

  /** Whether `address` is another node's (as its address resolved when last read). */
  isNodeAddress(address: string): boolean {
    return this.#nodeAddresses.has(address);
  }
}
