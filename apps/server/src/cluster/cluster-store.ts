import type { NodeFacts } from '@x/service-kernel';
import type { Pool } from 'pg';

/** A node as the store has it: what every node knows of it, and its epoch. */
export interface NodeRow extends NodeFacts {
  readonly epoch: number;
}

/** Where the nodes hear that pools moved (LISTEN / NOTIFY). */
export const POOL_HOMES_CHANNEL = 'xb_pool_homes';

/** How long a node's lease lasts from its last heartbeat: past it, the node is lost. */
export const LEASE_SECONDS = 6;

/**
 * The cluster's state in PostgreSQL (`xb_nodes`, `xb_cluster`). Every time is the database's
 * own `now()`: the nodes' clocks never decide whether a lease lapsed.
 */
export class ClusterStore {
  readonly #pool: Pool;

  constructor(pool: Pool) {
    this.#pool = pool;
  }

  /**
   * A setting every node shares: the one stored, or `make()`'s value stored by whichever node
   * asks first (two asking at once get the same).
   */
  async shared(name: string, make: () => string): Promise<string> {
    await this.#pool.query(
      'INSERT INTO xb_cluster (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING',
      [name, make()],
    );
    const { rows } = await this.#pool.query<{ value: string }>(
      'SELECT value FROM xb_cluster WHERE name = $1',
      [name],
    );
    return (rows[0] as { value: string }).value;
  }

  /**
   * Registers node `id` at `url` with a new epoch, up, its lease starting now. Undefined when a
   * live node of another address holds that id (a copied data directory): two nodes must never
   * share one.
   */
  async register(id: string, url: string, capacity: number): Promise<number | undefined> {
    const { rows } = await this.#pool.query<{ epoch: string }>(
      `INSERT INTO xb_nodes (id, url, epoch, state, capacity, running, lease_until, is_swept)
       VALUES ($1, $2, 1, 'up', $3, 0, now() + make_interval(secs => $4), true)
       ON CONFLICT (id) DO UPDATE SET
         url = EXCLUDED.url, epoch = xb_nodes.epoch + 1, state = 'up',
         capacity = EXCLUDED.capacity, running = 0, lease_until = EXCLUDED.lease_until,
         joined_at = now(), is_swept = true
       WHERE xb_nodes.url = EXCLUDED.url OR xb_nodes.state = 'lost'
         OR xb_nodes.lease_until < now()
       RETURNING epoch`,
      [id, url, capacity, LEASE_SECONDS],
    );
    return rows[0] ? Number(rows[0].epoch) : undefined;
  }

  /**
   * Renews node `id`'s lease at `epoch` and says how many browsers it runs; false when the
   * store has it lost (or at a newer epoch): it was declared lost while it could not renew.
   */
  async heartbeat(id: string, epoch: number, running: number): Promise<boolean> {
    const { rowCount } = await this.#pool.query(
      `UPDATE xb_nodes SET lease_until = now() + make_interval(secs => $4), running = $3
       WHERE id = $1 AND epoch = $2 AND state <> 'lost'`,
      [id, epoch, running, LEASE_SECONDS],
    );
    return rowCount === 1;
  }

  /** Marks node `id` at `epoch` draining (no new placements) or up again. */
  async setState(id: string, epoch: number, state: 'up' | 'draining'): Promise<void> {
    await this.#pool.query(
      `UPDATE xb_nodes SET state = $3 WHERE id = $1 AND epoch = $2 AND state <> 'lost'`,
      [id, epoch, state],
    );
  }

  /** A node leaving on purpose: marked lost at once, its sessions ended already by itself. */
  async leave(id: string, epoch: number): Promise<void> {
    await this.#pool.query(
      `UPDATE xb_nodes SET state = 'lost', epoch = epoch + 1, is_swept = true
       WHERE id = $1 AND epoch = $2`,
      [id, epoch],
    );
  }

  /**
   * Declares lost every node whose lease lapsed (its epoch moves on, so it can renew no more)
   * and claims the lost nodes whose sessions nobody ended yet: the caller ends them. Each lost
   * node is claimed once, by one sweeper; a node that joined again meanwhile is not lost.
   */
  async sweep(): Promise<string[]> {
    await this.#pool.query(
      `UPDATE xb_nodes SET state = 'lost', epoch = epoch + 1, is_swept = false
       WHERE state <> 'lost' AND lease_until < now()`,
    );
    const { rows } = await this.#pool.query<{ id: string }>(
      `UPDATE xb_nodes SET is_swept = true WHERE state = 'lost' AND NOT is_swept RETURNING id`,
    );
    return rows.map((row) => row.id);
  }

  /** The pools that moved off the node their id names: pool id to the node that holds it now. */
  async poolHomes(): Promise<Map<string, string>> {
    const { rows } = await this.#pool.query<{ pool_id: string; node: string }>(
      'SELECT pool_id, node FROM xb_pool_homes',
    );
    return new Map(rows.map((row) => [row.pool_id, row.node]));
  }

  /** Every pool's id, in any project. */
  async poolIds(): Promise<string[]> {
    const { rows } = await this.#pool.query<{ id: string }>(
      "SELECT id FROM xb_records WHERE kind = 'pools'",
    );
    return rows.map((row) => row.id);
  }

  /**
   * Moves pools to the nodes given (pool id to node), and forgets where pools
   * that no longer exist went; every node hears of it at once (`xb_pool_homes`).
   */
  async movePools(moves: ReadonlyMap<string, string>): Promise<void> {
    await this.#pool.query(
      `INSERT INTO xb_pool_homes (pool_id, node)
       SELECT * FROM unnest($1::text[], $2::text[])
       ON CONFLICT (pool_id) DO UPDATE SET node = EXCLUDED.node`,
      [[...moves.keys()], [...moves.values()]],
    );
    await this.#pool.query(
      `DELETE FROM xb_pool_homes h WHERE NOT EXISTS
         (SELECT 1 FROM xb_records r WHERE r.kind = 'pools' AND r.id = h.pool_id)`,
    );
    await this.#pool.query(`SELECT pg_notify('${POOL_HOMES_CHANNEL}', '')`);
  }

  /** Every node the store knows. */
  async nodes(): Promise<NodeRow[]> {
    const { rows } = await this.#pool.query<{
      id: string;
      url: string;
      epoch: string;
      state: NodeRow['state'];
      capacity: number;
      running: number;
    }>('SELECT id, url, epoch, state, capacity, running FROM xb_nodes ORDER BY id');
    return rows.map((row) => ({ ...row, epoch: Number(row.epoch) }));
  }
}

/**
 * Finds what a name names, in any project: the open session (`browsers`) or the pool (`pools`)
 * of that name, when exactly one has it (the node that holds it checks the caller's project).
 */
export function recordByName(
  pool: Pool,
): (kind: 'browsers' | 'pools', name: string) => Promise<string | undefined> {
  return async (kind, name) => {
    // A session's name is in its record (names of ended sessions are free again); a pool's is
    // the record's own.
    const { rows } = await pool.query<{ id: string }>(
      kind === 'browsers'
        ? `SELECT id FROM xb_records
           WHERE kind = 'browsers' AND is_open AND (value::jsonb ->> 'name') = $1 LIMIT 2`
        : `SELECT id FROM xb_records WHERE kind = 'pools' AND name = $1 LIMIT 2`,
      [name],
    );
    return rows.length === 1 ? rows[0]?.id : undefined;
  };
}

/** Finds the deployment that runs version `version` of app `app`, in any project, when one does. */
export function deploymentOfApp(
  pool: Pool,
): (app: string, version: string) => Promise<string | undefined> {
  return async (app, version) => {
    const { rows } = await pool.query<{ deployment: string }>(
      `SELECT value::jsonb ->> 'deployment' AS deployment FROM xb_records
       WHERE kind = 'appVersions' AND (value::jsonb ->> 'app_name') = $1
         AND (value::jsonb ->> 'version') = $2 LIMIT 2`,
      [app, version],
    );
    return rows.length === 1 ? rows[0]?.deployment : undefined;
  };
}
