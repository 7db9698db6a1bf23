/**
 * The fake's HTTP listener under a bounded load on loopback, against a bare node:http server that
 * answers the same JSON, in one run. Each server runs in its own process; this one only sends
 * load: REQUESTS keep-alive GET /browser_pools/{name} calls, CONCURRENCY at a time, in ROUNDS
 * rounds per server, alternating. Prints requests per second and latency percentiles of the best
 * round of each, and the ratio.
 *
 * Run: pnpm --filter @x/testing bench   (after a build)
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { Agent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';

const REQUESTS = 4_000;
const CONCURRENCY = 16;
const ROUNDS = 3;
const TOKEN = 'bench-token';
const POOL_NAME = 'bench';

type Role = 'fake' | 'bare';

/** Serves one kind of server and prints its URL; runs in a child process. */
async function serve(role: Role): Promise<void> {
  const { buildBrowserPool, createFakeService } = await import('../dist/index.js');
  const fake = createFakeService({ token: TOKEN });
  fake.seed({ pools: [buildBrowserPool({ name: POOL_NAME, acquired_count: 0 })] });
  if (role === 'fake') {
    process.stdout.write(`${await fake.listen()}\n`);
    return;
  }
  // The bare server answers what the fake answers, fixed, with the same headers.
  const answer = await fake.fetch(`${fake.url}/browser_pools/${POOL_NAME}`, {
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  const body = await answer.text();
  const server = createServer((_incoming, response) => {
    response.writeHead(200, {
      'content-type': 'application/json',
      'x-request-id': 'req_bench',
      'x-api-version': '0.1.0',
    });
    response.end(body);
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  process.stdout.write(`http://127.0.0.1:${(server.address() as AddressInfo).port}\n`);
}

function startServer(role: Role): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url), role], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.stdout?.once('data', (chunk: Buffer) => resolve({ child, url: chunk.toString().trim() }));
    child.once('exit', (code) => reject(new Error(`the ${role} server exited ${code}`)));
  });
}

function get(agent: Agent, url: URL): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const outgoing = request(
      url,
      { agent, headers: { authorization: `Bearer ${TOKEN}` } },
      (response) => {
        let length = 0;
        response.on('data', (chunk: Buffer) => {
          length += chunk.byteLength;
        });
        response.on('end', () => {
          if (response.statusCode !== 200 || length === 0)
            reject(new Error(`status ${response.statusCode}`));
          else resolve(performance.now() - started);
        });
      },
    );
    outgoing.on('error', reject);
    outgoing.end();
  });
}

/** One round: REQUESTS calls, CONCURRENCY in flight; latencies in ms and the total time. */
async function round(base: string): Promise<{ perSecond: number; latencies: number[] }> {
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const url = new URL(`/browser_pools/${POOL_NAME}`, base);
  const latencies: number[] = [];
  let sent = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (sent < REQUESTS) {
        sent++;
        latencies.push(await get(agent, url));
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  return { perSecond: REQUESTS / seconds, latencies: latencies.sort((a, b) => a - b) };
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;

async function main(): Promise<void> {
  const servers = { fake: await startServer('fake'), bare: await startServer('bare') };
  const best: Partial<Record<Role, Awaited<ReturnType<typeof round>>>> = {};
  try {
    for (const role of ['fake', 'bare'] as const) await round(servers[role].url); // warm-up
    for (let index = 0; index < ROUNDS; index++) {
      for (const role of ['fake', 'bare'] as const) {
        const result = await round(servers[role].url);
        if (!best[role] || result.perSecond > best[role].perSecond) best[role] = result;
      }
    }
  } finally {
    for (const { child } of Object.values(servers)) child.kill();
  }
  console.log(
    `fake listener vs bare node:http, ${REQUESTS} keep-alive GETs × ${CONCURRENCY} concurrent, best of ${ROUNDS} rounds`,
  );
  console.log('server            req/s      p50 ms   p99 ms');
  for (const role of ['bare', 'fake'] as const) {
    const result = best[role] as Awaited<ReturnType<typeof round>>;
    const name = role === 'fake' ? 'fake (@x/testing)' : 'bare node:http';
    console.log(
      `${name.padEnd(17)} ${result.perSecond.toFixed(0).padStart(6)}   ${percentile(result.latencies, 0.5).toFixed(2).padStart(6)}   ${percentile(result.latencies, 0.99).toFixed(2).padStart(6)}`,
    );
  }
  const ratio = (best.bare?.perSecond ?? 0) / (best.fake?.perSecond ?? 1);
  console.log(
    `ratio: the fake serves ${(1 / ratio).toFixed(2)}x the bare server's throughput (bare is ${ratio.toFixed(2)}x faster)`,
  );
}

const role = process.argv[2] as Role | undefined;
if (role === 'fake' || role === 'bare') await serve(role);
else await main();
