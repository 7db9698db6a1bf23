/**
 * Per-call overhead of the client: sequential keep-alive calls of browserPools.get through the
 * client, against raw fetch + JSON.parse of the same URL on the same local server, in one run.
 * Prints the figures and the ratio; target: at most 1.2x raw fetch.
 *
 * Run: pnpm --filter @x/client bench   (after a build)
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import ky from 'ky';
import { createClient } from '../dist/index.js';

const CALLS = 2_000;
const WARMUP = 200;
const ROUNDS = 5;
const TARGET = 1.2;

const poolJson = JSON.stringify({
  id: 'pool_1',
  name: 'checkout',
  available_count: 2,
  acquired_count: 1,
  created_at: '2026-11-22T10:00:00.000Z',
  browser_pool_config: { size: 3, name: 'checkout', fill_rate_per_minute: 10, headless: true },
});

const server = createServer((_request, response) => {
  response.writeHead(200, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(poolJson),
    'x-request-id': 'req-bench',
  });
  response.end(poolJson);
});
server.keepAliveTimeout = 60_000;
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

const client = createClient({ baseUrl, token: 'tok_bench' });
const url = `${baseUrl}/browser_pools/checkout`;
const headers = { authorization: 'Bearer tok_bench' };

async function rawFetch(): Promise<void> {
  const response = await fetch(url, { headers });
  JSON.parse(await response.text());
}
/** ky alone, as the client configures it (no retries on a 200): the floor of an SDK on ky. */
async function bareKy(): Promise<void> {
  await ky.get(url, { headers, retry: 0 }).json();
}
async function viaClient(): Promise<void> {
  await client.browserPools.get({ id_or_name: 'checkout' });
}

async function timePerCall(call: () => Promise<void>): Promise<number> {
  for (let index = 0; index < WARMUP; index++) await call();
  const started = performance.now();
  for (let index = 0; index < CALLS; index++) await call();
  return ((performance.now() - started) * 1000) / CALLS;
}

// Alternate the two in rounds and keep each one's best round: the machine is shared and noisy.
const raw: number[] = [];
const kyOnly: number[] = [];
const sdk: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  raw.push(await timePerCall(rawFetch));
  kyOnly.push(await timePerCall(bareKy));
  sdk.push(await timePerCall(viaClient));
}
server.close();
const bestRaw = Math.min(...raw);
const bestSdk = Math.min(...sdk);
const ratio = bestSdk / bestRaw;
console.log(
  `per-call overhead, ${CALLS} sequential keep-alive calls × ${ROUNDS} rounds (best round)`,
);
console.log(`raw fetch + JSON.parse    ${bestRaw.toFixed(1).padStart(7)} µs/call`);
const bestKy = Math.min(...kyOnly);
console.log(
  `bare ky .json()           ${bestKy.toFixed(1).padStart(7)} µs/call (${(bestKy / bestRaw).toFixed(2)}x raw: the floor of an SDK on ky)`,
);
console.log(`client.browserPools.get   ${bestSdk.toFixed(1).padStart(7)} µs/call`);
console.log(
  `ratio: ${ratio.toFixed(2)}x (target <= ${TARGET}x) ${ratio <= TARGET ? 'OK' : 'OVER TARGET'}`,
);
