/**
 * Figures of the self-hosted server on real Chromium, from one run:
 * - acquire from a warm pool vs a cold POST /browsers: p50 and p95 of each (target: acquire p50
 *   at most 50 ms on loopback);
 * - typing 1,000 characters at delay 0: characters per second;
 * - idle headless browsers: memory per browser (proportional set size of all its processes, so
 *   shared pages count once) and how many fit in 4 GiB.
 *
 * Run: pnpm --filter @x/server bench   (after a build)
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { readConfig, startServer } from '../dist/index.js';

const COLD_RUNS = 10;
const WARM_RUNS = 30;
const TYPED = 1_000;
const IDLE_BROWSERS = 5;
const TOKEN = 'bench-token';

const dataDir = mkdtempSync(join(tmpdir(), 'xb-bench-'));
const server = await startServer(
  readConfig({ XB_DATA_DIR: dataDir, XB_PORT: '0', XB_TOKENS: TOKEN, XB_MAX_BROWSERS: '12' }),
  pino({ level: 'silent' }),
);
const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!response.ok)
    throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
};
const timed = async (work: () => Promise<unknown>) => {
  const started = performance.now();
  await work();
  return performance.now() - started;
};
const quantile = (values: number[], q: number) =>
  [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) * q)] ?? 0;

/** Proportional set size of every process of a browser's profile, in bytes. */
function browserMemory(sessionId: string): number {
  const marker = `--user-data-dir=${join(dataDir, 'instances', sessionId, 'profile')}`;
  let total = 0;
  for (const entry of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      if (!readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').includes(marker)) continue;
      const pss = /^Pss:\s+(\d+) kB/m.exec(
        readFileSync(`/proc/${entry}/smaps_rollup`, 'utf8'),
      )?.[1];
      total += Number(pss ?? 0) * 1024;
    } catch {
      // The process ended while it was read.
    }
  }
  return total;
}

try {
  // Cold: a new Chromium per call.
  const cold: number[] = [];
  for (let run = 0; run < COLD_RUNS; run++) {
    let id = '';
    cold.push(
      await timed(async () => {
        id = (await call<{ session_id: string }>('POST', '/browsers', {})).session_id;
      }),
    );
    await call('DELETE', `/browsers/${id}`);
  }

  // Warm: a pool keeps browsers started; acquire hands one out, release resets it.
  await call('POST', '/browser_pools', { name: 'bench', size: 4, fill_rate_per_minute: 100 });
  for (let attempt = 0; attempt < 300; attempt++) {
    if (
      (await call<{ available_count: number }>('GET', '/browser_pools/bench')).available_count === 4
    )
      break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const warm: number[] = [];
  for (let run = 0; run < WARM_RUNS; run++) {
    let id = '';
    warm.push(
      await timed(async () => {
        id = (await call<{ session_id: string }>('POST', '/browser_pools/bench/acquire', {}))
          .session_id;
      }),
    );
    await call('POST', '/browser_pools/bench/release', { session_id: id });
  }
  await call('DELETE', '/browser_pools/bench?force=true');

  // Typing: 1,000 characters as key events, no delay.
  const typist = (await call<{ session_id: string }>('POST', '/browsers', {})).session_id;
  const text = 'The quick brown fox jumps over the lazy dog. '.repeat(30).slice(0, TYPED);
  const typing: number[] = [];
  for (let run = 0; run < 3; run++)
    typing.push(await timed(() => call('POST', `/browsers/${typist}/computer/type`, { text })));
  await call('DELETE', `/browsers/${typist}`);

  // Memory of idle browsers, once they have settled.
  const idle: string[] = [];
  for (let index = 0; index < IDLE_BROWSERS; index++)
    idle.push((await call<{ session_id: string }>('POST', '/browsers', {})).session_id);
  await new Promise((resolve) => setTimeout(resolve, 3_000));
  const perBrowser = idle.map(browserMemory);
  for (const id of idle) await call('DELETE', `/browsers/${id}`);

  const ms = (value: number) => `${value.toFixed(1)} ms`.padStart(10);
  console.log(`server on ${process.version}, Debian Chromium, loopback`);
  console.log('start a browser                     p50        p95');
  console.log(
    `cold  POST /browsers (${COLD_RUNS} runs)     ${ms(quantile(cold, 0.5))} ${ms(quantile(cold, 0.95))}`,
  );
  console.log(
    `warm  pool acquire (${WARM_RUNS} runs)       ${ms(quantile(warm, 0.5))} ${ms(quantile(warm, 0.95))}`,
  );
  const ratio = quantile(cold, 0.5) / quantile(warm, 0.5);
  const acquireOk = quantile(warm, 0.5) <= 50;
  console.log(
    `acquire p50 is ${ratio.toFixed(0)}x faster than a cold start; target acquire p50 <= 50 ms: ${acquireOk ? 'OK' : 'OVER TARGET'}`,
  );
  const best = Math.min(...typing);
  console.log(
    `typing ${TYPED} characters at delay 0: ${best.toFixed(0)} ms, ${((TYPED / best) * 1000).toFixed(0)} characters/s (best of 3)`,
  );
  const mean = perBrowser.reduce((sum, value) => sum + value, 0) / perBrowser.length / 1024 / 1024;
  console.log(
    `idle headless browser: ${mean.toFixed(0)} MB each (PSS of all its processes, mean of ${IDLE_BROWSERS}); ${Math.floor(4096 / mean)} fit in 4 GiB`,
  );
} finally {
  await server.close();
  rmSync(dataDir, { recursive: true, force: true });
}
