/**
 * What the store costs per call through the API, SQLite against PostgreSQL on loopback, in one
 * run: a write (`POST /profiles`: one record put, its name checked unique), a read
 * (`GET /profiles/{id}`: one record got) and a pool acquire (a warm browser handed out). Calls take turns between the two
 * servers so load on the shared machine falls on both alike. PostgreSQL is a throw-away cluster
 * of the run's own (Debian's postgresql), stopped at the end. Prints p50/p99 and the differences.
 *
 *   node scripts/bench-store.ts [calls]   (after `pnpm build`)
 */
import { PostgresCluster } from '../src/test-support/postgres-cluster.ts';
import { benchServer, quantile } from './bench-support.ts';

const calls = Number(process.argv[2] ?? 500);
// PostgreSQL as an operator runs it (fsync on), not as the tests do.
const cluster = await PostgresCluster.start({ durable: true });
const engines = {
  sqlite: await benchServer('store-sqlite', { XB_MAX_BROWSERS: '2' }),
  postgresql: await benchServer('store-postgresql', {
    XB_MAX_BROWSERS: '2',
    XB_DATABASE_URL: cluster.createDatabase('bench'),
  }),
};
type Engine = keyof typeof engines;
const names = Object.keys(engines) as Engine[];
const figures = Object.fromEntries(
  names.map((name) => [
    name,
    { write: [] as number[], read: [] as number[], acquire: [] as number[] },
  ]),
) as Record<Engine, { write: number[]; read: number[]; acquire: number[] }>;

async function timed<T>(work: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const result = await work();
  return [result, performance.now() - started];
}

try {
  // Records: a write and a read of each, in turns; the first 50 of each warm up, not counted.
  for (let index = 0; index < calls + 50; index++) {
    const order = index % 2 === 0 ? names : [...names].reverse();
    for (const name of order) {
      const { call } = engines[name];
      const [created, writeMs] = await timed(() =>
        call<{ id: string }>('POST', '/profiles', { name: `bench-${name}-${index}` }),
      );
      const [, readMs] = await timed(() => call('GET', `/profiles/${created.id}`));
      if (index < 50) continue;
      figures[name].write.push(writeMs);
      figures[name].read.push(readMs);
    }
  }
  // A pool of one warm browser on each: acquire (timed), release, wait for the next to be warm.
  for (const name of names)
    await engines[name].call('POST', '/browser_pools', {
      name: 'bench',
      size: 1,
      fill_rate_per_minute: 100,
    });
  const warm = async (name: Engine) => {
    for (let attempt = 0; attempt < 300; attempt++) {
      const pool = await engines[name].call<{ available_count: number }>(
        'GET',
        '/browser_pools/bench',
      );
      if (pool.available_count === 1) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`${name}: the pool never filled`);
  };
  for (let round = 0; round < 12; round++) {
    for (const name of round % 2 === 0 ? names : [...names].reverse()) {
      await warm(name);
      const [session, ms] = await timed(() =>
        engines[name].call<{ session_id: string }>('POST', '/browser_pools/bench/acquire', {
          acquire_timeout_seconds: 30,
        }),
      );
      if (round > 1) figures[name].acquire.push(ms);
      await engines[name].call('POST', '/browser_pools/bench/release', {
        session_id: session.session_id,
      });
    }
  }
  const line = (measure: 'write' | 'read' | 'acquire') => {
    const at = (name: Engine, q: number) => quantile(figures[name][measure], q);
    const p50 = at('postgresql', 0.5) - at('sqlite', 0.5);
    console.log(
      `${measure.padEnd(7)} p50 sqlite ${at('sqlite', 0.5).toFixed(2)} ms, postgresql ${at('postgresql', 0.5).toFixed(2)} ms ` +
        `(+${p50.toFixed(2)} ms, ${(at('postgresql', 0.5) / at('sqlite', 0.5)).toFixed(2)}x); ` +
        `p99 sqlite ${at('sqlite', 0.99).toFixed(2)} ms, postgresql ${at('postgresql', 0.99).toFixed(2)} ms ` +
        `(${figures.sqlite[measure].length} calls each)`,
    );
  };
  line('write');
  line('read');
  line('acquire');
} finally {
  await Promise.all(names.map((name) => engines[name].server.close()));
  await cluster.stop();
}
