import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { chromium } from 'playwright-core';
import { readConfig, startServer } from '../dist/index.js';
import { apiCaller, quantile } from './bench-support.ts';

const RUNS = Number(process.argv[2] ?? 6);
const variants = JSON.parse(process.argv[3] ?? '[{}]') as Record<string, string>[];
async function direct() {
  const t: number[] = [];
  for (let i = 0; i < RUNS + 1; i++) {
    const s = performance.now();
    const dir = mkdtempSync(join(tmpdir(), 'xb-exp-direct-'));
    const b = await chromium.launchPersistentContext(dir, {
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    const p = b.pages()[0] ?? (await b.newPage());
    await p.goto('about:blank');
    await b.close();
    rmSync(dir, { recursive: true, force: true });
    if (i) t.push(performance.now() - s);
  }
  return t;
}
console.log('direct launch+goto+close p50', quantile(await direct(), 0.5).toFixed(0));
for (const v of variants) {
  const dataDir = mkdtempSync(join(tmpdir(), 'xb-exp-'));
  const { isBrowserSandboxed, ...env } = v;
  const server = await startServer(
    {
      ...readConfig({
        XB_ALLOW_NETWORKS: '127.0.0.1/32',
        XB_DATA_DIR: dataDir,
        XB_PORT: '0',
        XB_TOKENS: 't',
        ...env,
      }),
      ...(isBrowserSandboxed === 'false' ? { isBrowserSandboxed: false } : {}),
    },
    pino({ level: 'silent' }),
  );
  const call = apiCaller(server.url, 't');
  const cold: number[] = [];
  const rt: number[] = [];
  const parts: number[][] = [];
  for (let i = 0; i < RUNS + 1; i++) {
    const s = performance.now();
    const { session_id } = await call<{ session_id: string }>('POST', '/browsers', {});
    const c = performance.now() - s;
    await call('DELETE', `/browsers/${session_id}`);
    if (i) cold.push(c);
  }
  for (let i = 0; i < RUNS; i++) {
    const s = performance.now();
    const session = await call<{ session_id: string; cdp_ws_url: string }>('POST', '/browsers', {});
    const t1 = performance.now();
    const b = await chromium.connectOverCDP(session.cdp_ws_url);
    const t2 = performance.now();
    await b.contexts()[0]?.pages()[0]?.goto('about:blank');
    const t3 = performance.now();
    await b.close();
    const t4 = performance.now();
    await call('DELETE', `/browsers/${session.session_id}`);
    const t5 = performance.now();
    parts.push([t1 - s, t2 - t1, t3 - t2, t4 - t3, t5 - t4]);
    rt.push(performance.now() - s);
  }
  const metrics = await (
    await fetch(`${server.url}/metrics`, { headers: { authorization: 'Bearer t' } })
  ).text();
  const phases: string[] = [];
  for (const [, ph = '', sum = '0'] of metrics.matchAll(
    /^xb_browser_start_phase_seconds_sum\{phase="(\w+)"\} (\S+)$/gm,
  )) {
    const n = new RegExp(
      `^xb_browser_start_phase_seconds_count\\{phase="${ph}"\\} (\\d+)$`,
      'm',
    ).exec(metrics)?.[1];
    phases.push(`${ph} ${((Number(sum) * 1000) / Number(n)).toFixed(0)}`);
  }
  console.log(
    JSON.stringify(v),
    'cold p50',
    quantile(cold, 0.5).toFixed(0),
    'roundtrip p50',
    quantile(rt, 0.5).toFixed(0),
    '|',
    phases.join(', '),
    '| create/connect/goto/close/delete',
    [0, 1, 2, 3, 4]
      .map((k) =>
        quantile(
          parts.map((x) => x[k] ?? 0),
          0.5,
        ).toFixed(0),
      )
      .join('/'),
  );
  await server.close();
  rmSync(dataDir, { recursive: true, force: true });
}
