/**
 * What the egress policy costs, in one run: a cold create (`POST /browsers` until it answers)
 * and a `goto` of an allowed loopback page through the session's CDP URL, on a server with the
 * policy (a network namespace per session; XB_ALLOW_NETWORKS=127.0.0.1/32) against the same
 * server with an open network (XB_ALLOW_NETWORKS=*: the host's network, no policy). Rounds take
 * turns between the two so load on the shared machine falls on both alike. Root only (the
 * policy needs it). Prints p50s, the differences and the ratios.
 *
 *   node scripts/bench-egress.ts [rounds]   (after `pnpm build`)
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium } from 'playwright-core';
import { BENCH_TOKEN, benchServer, quantile } from './bench-support.ts';

if (process.getuid?.() !== 0) {
  console.error('bench-egress: the egress policy needs root; run it as root.');
  process.exit(2);
}

const rounds = Number(process.argv[2] ?? 12);
const page = createServer((_request, response) =>
  response.end(`<title>bench</title><p>${'x'.repeat(20_000)}</p>`),
);
await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${(page.address() as AddressInfo).port}/`;

const contenders = {
  policy: await benchServer('egress-policy', { XB_ALLOW_NETWORKS: '127.0.0.1/32' }),
  open: await benchServer('egress-open', { XB_ALLOW_NETWORKS: '*' }),
};
type Name = keyof typeof contenders;
const figures: Record<Name, { create: number[]; goto: number[] }> = {
  policy: { create: [], goto: [] },
  open: { create: [], goto: [] },
};

async function round(name: Name): Promise<void> {
  const { call } = contenders[name];
  const started = performance.now();
  const session = await call<{ session_id: string; cdp_ws_url: string }>('POST', '/browsers', {});
  figures[name].create.push(performance.now() - started);
  const browser = await chromium.connectOverCDP(session.cdp_ws_url);
  try {
    const tab = browser.contexts()[0]?.pages()[0];
    if (!tab) throw new Error('no page');
    await tab.goto(url); // the first load warms the connection pool and caches
    for (let load = 0; load < 5; load++) {
      const loaded = performance.now();
      await tab.goto(`${url}?n=${load}`);
      figures[name].goto.push(performance.now() - loaded);
    }
  } finally {
    await browser.close();
    await call('DELETE', `/browsers/${session.session_id}`);
  }
}

try {
  // One round each to warm up, not counted.
  await round('policy');
  await round('open');
  figures.policy = { create: [], goto: [] };
  figures.open = { create: [], goto: [] };
  for (let index = 0; index < rounds; index++) {
    const order: Name[] = index % 2 === 0 ? ['policy', 'open'] : ['open', 'policy'];
    for (const name of order) await round(name);
  }
  const p50 = (values: number[]) => quantile(values, 0.5);
  // The policy's own step of each start, as the server timed it (its metrics): a figure the
  // noise of a whole create on a shared machine does not drown.
  const metrics = await fetch(`${contenders.policy.server.url}/metrics`, {
    headers: { authorization: `Bearer ${BENCH_TOKEN}` },
  }).then((response) => response.text());
  const egressStep = (suffix: string) =>
    Number(
      metrics
        .split('\n')
        .find((line) => line.startsWith(`xb_browser_start_phase_seconds_${suffix}{phase="egress"}`))
        ?.split(' ')
        .at(-1) ?? Number.NaN,
    );
  console.log(
    `egress step of a create (the server's own timing): mean ${((1000 * egressStep('sum')) / egressStep('count')).toFixed(1)} ms over ${egressStep('count')} creates`,
  );
  for (const measure of ['create', 'goto'] as const) {
    const withPolicy = p50(figures.policy[measure]);
    const without = p50(figures.open[measure]);
    console.log(
      `${measure.padEnd(6)} p50: policy ${withPolicy.toFixed(1)} ms, open ${without.toFixed(1)} ms, ` +
        `difference ${(withPolicy - without).toFixed(1)} ms, ratio ${(withPolicy / without).toFixed(2)}x ` +
        `(${figures.policy[measure].length} samples each)`,
    );
  }
} finally {
  await contenders.policy.server.close();
  await contenders.open.server.close();
  page.close();
}
