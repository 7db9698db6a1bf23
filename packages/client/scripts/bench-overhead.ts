/**
 * Per-call cost of the client, in one run on one loopback server: sequential keep-alive calls of
 * GET /browser_pools/checkout through
 * - raw fetch + JSON.parse (the floor of any client);
 * - bare ky with no retries and no time-out;
 * - ky configured as the client configures it (the same headers, retry rules and time-out): the
 *   floor of an SDK on ky;
 * - this client, as a method (`client.browserPools.get`) and as a function (`getBrowserPool`),
 *   and a method of a client with `checks: catalogChecks` (input and answer checked with valibot);
 * - the Kernel SDK (`@onkernel/sdk`, `browserPools.retrieve`), the public SDK of the best-known
 *   service of this kind, with its defaults (2 retries, 60 s time-out, as this client's).
 * Each contender's figure is its median block; each ratio the median, over the rounds, of the two
 * contenders' blocks of one round.
 * Targets: the client ≤ 1.10× configured ky and ≤ 0.85× the Kernel SDK, held by the method and
 * the function, which do the same job as they do (send, retry, parse; no schema check). The
 * checked method does more; its ratios are printed beside, not held to them.
 *
 * Run: pnpm --filter @x/client bench   (after a build)
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Kernel from '@onkernel/sdk';
import ky from 'ky';
import {
  catalogChecks,
  createClient,
  createCore,
  getBrowserPool,
  USER_AGENT,
} from '../dist/index.js';

const CALLS = 200;
const WARMUP = 500;
const ROUNDS = 40;
const TARGET_OVER_KY = 1.1;
const TARGET_OVER_KERNEL = 0.85;

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
const url = `${baseUrl}/browser_pools/checkout`;
const token = 'tok_bench';
const headers = { authorization: `Bearer ${token}` };

const client = createClient({ baseUrl, token });
const checkedClient = createClient({ baseUrl, token, checks: catalogChecks });
const core = createCore({ baseUrl, token });
const kernel = new Kernel({ apiKey: token, baseURL: baseUrl });
const statuses = [408, 429, 500, 502, 503, 504];
const configuredKy = ky.create({
  headers: { 'user-agent': USER_AGENT, ...headers },
  timeout: 60_000,
  retry: {
    limit: 2,
    methods: ['get', 'delete', 'post'],
    statusCodes: statuses,
    afterStatusCodes: statuses,
    maxRetryAfter: 60_000,
    backoffLimit: 8_000,
    jitter: true,
    retryOnTimeout: true,
  },
});

const contenders: Record<string, () => PromiseLike<unknown>> = {
  'raw fetch + JSON.parse': async () => JSON.parse(await (await fetch(url, { headers })).text()),
  'bare ky (no retries, no time-out)': () =>
    ky.get(url, { headers, retry: 0, timeout: false }).json(),
  'ky configured as the client': () => configuredKy.get(url).json(),
  'client.browserPools.get': () => client.browserPools.get({ id_or_name: 'checkout' }),
  'getBrowserPool(core)': () => getBrowserPool(core, { id_or_name: 'checkout' }),
  'checked client.browserPools.get': () =>
    checkedClient.browserPools.get({ id_or_name: 'checkout' }),
  'Kernel SDK browserPools.retrieve': () => kernel.browserPools.retrieve('checkout'),
};

async function timePerCall(call: () => PromiseLike<unknown>): Promise<number> {
  const started = performance.now();
  for (let index = 0; index < CALLS; index++) await call();
  return ((performance.now() - started) * 1000) / CALLS;
}

// The machine is shared and noisy: the contenders take turns in short blocks, in a new order
// each round, so a burst of load falls on all of them alike. A ratio is the median over the
// rounds of the two contenders' blocks in the same round, which a burst in one round moves little.
const names = Object.keys(contenders);
for (const name of names) for (let index = 0; index < WARMUP; index++) await contenders[name]?.();
const blocks: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]));
for (let round = 0; round < ROUNDS; round++) {
  for (let turn = 0; turn < names.length; turn++) {
    const name = names[(round + turn) % names.length] as string;
    blocks[name]?.push(await timePerCall(contenders[name] as () => PromiseLike<unknown>));
  }
}
server.close();

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
};
const at = (name: string) => median(blocks[name] as number[]);
/** How `name` compares with `base`: the median of their ratios, round by round. */
const ratio = (name: string, base: string) =>
  median(
    (blocks[name] as number[]).map(
      (time, round) => time / ((blocks[base] as number[])[round] as number),
    ),
  );
console.log(
  `per call, sequential keep-alive calls: ${ROUNDS} rounds of blocks of ${CALLS}, taken in turns; medians`,
);
for (const name of names) {
  console.log(
    `${name.padEnd(36)} ${at(name).toFixed(1).padStart(7)} µs/call  ${ratio(name, 'raw fetch + JSON.parse').toFixed(2)}x raw fetch  ${ratio(name, 'ky configured as the client').toFixed(2)}x configured ky`,
  );
}
let failed = false;
for (const [name, held] of [
  ['getBrowserPool(core)', true],
  ['client.browserPools.get', true],
  ['checked client.browserPools.get', false],
] as const) {
  const overKy = ratio(name, 'ky configured as the client');
  const overKernel = ratio(name, 'Kernel SDK browserPools.retrieve');
  const verdict = (ok: boolean) => (held ? (ok ? ' OK' : ' OVER TARGET') : '');
  const kyOk = overKy <= TARGET_OVER_KY;
  const kernelOk = overKernel <= TARGET_OVER_KERNEL;
  console.log(
    `${name}: ${overKy.toFixed(2)}x configured ky (target <= ${TARGET_OVER_KY})${verdict(kyOk)}; ` +
      `${overKernel.toFixed(2)}x the Kernel SDK (target <= ${TARGET_OVER_KERNEL})${verdict(kernelOk)}` +
      (held ? '' : ' (checks input and answer: reported, not held to the targets)'),
  );
  if (held && (!kyOk || !kernelOk)) failed = true;
}
if (failed) process.exitCode = 1;
