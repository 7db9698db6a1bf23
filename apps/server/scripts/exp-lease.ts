import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { chromium } from 'playwright-core';
import { readConfig, startServer } from '../dist/index.js';
import { apiCaller, quantile } from './bench-support.ts';

const variants = JSON.parse(process.argv[2] ?? '[{}]') as Record<string, string>[];
for (const v of variants) {
  const dataDir = mkdtempSync(join(tmpdir(), 'xb-exp-'));
  const server = await startServer(
    readConfig({
      XB_ALLOW_NETWORKS: '127.0.0.1/32',
      XB_DATA_DIR: dataDir,
      XB_PORT: '0',
      XB_TOKENS: 't',
      ...v,
    }),
    pino({ level: 'silent' }),
  );
  const call = apiCaller(server.url, 't');
  await call('POST', '/browser_pools', { name: 'p', size: 1, fill_rate_per_minute: 100 });
  const whole = async () => {
    for (;;) {
      const p = await call<{ available_count: number }>('GET', '/browser_pools/p');
      if (p.available_count === 1) return;
      await new Promise((r) => setTimeout(r, 10));
    }
  };
  const parts: number[][] = [];
  for (let i = 0; i < 9; i++) {
    await whole();
    await new Promise((r) => setTimeout(r, Number(v.PAUSE ?? 0)));
    const t0 = performance.now();
    const s = await call<{ session_id: string; cdp_ws_url: string }>(
      'POST',
      '/browser_pools/p/acquire',
      {},
    );
    const t1 = performance.now();
    const b = await chromium.connectOverCDP(s.cdp_ws_url);
    const t2 = performance.now();
    await b.contexts()[0]?.pages()[0]?.goto('data:text/html,<p>x</p>');
    const t3 = performance.now();
    await b.close();
    const t4 = performance.now();
    await call('POST', '/browser_pools/p/release', { session_id: s.session_id });
    const t5 = performance.now();
    parts.push([t1 - t0, t2 - t1, t3 - t2, t4 - t3, t5 - t4, t5 - t0]);
  }
  console.log(
    JSON.stringify(v),
    'acquire/connect/goto/close/release/total',
    [0, 1, 2, 3, 4, 5]
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
