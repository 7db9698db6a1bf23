/**
 * What the server's benchmarks share: a server in a fresh data directory, a JSON caller of the API
 * that throws on any error answer, and quantiles.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { readConfig, startServer } from '../dist/index.js';

/** The token benchmark servers accept. */
export const BENCH_TOKEN = 'bench-token';

/** A server for a benchmark (the built one, silent) in a fresh data directory, with its caller. */
export async function benchServer(name: string, env: Record<string, string> = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), `xb-bench-${name}-`));
  const server = await startServer(
    readConfig({
      XB_ALLOW_NETWORKS: '127.0.0.1/32',
      XB_DATA_DIR: dataDir,
      XB_PORT: '0',
      XB_TOKENS: BENCH_TOKEN,
      ...env,
    }),
    pino({ level: 'silent' }),
  );
  return { dataDir, server, call: apiCaller(server.url, BENCH_TOKEN) };
}

export function apiCaller(url: string, token: string) {
  return async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  };
}

/** The value at quantile `q` (0–1) of `values`. */
export const quantile = (values: number[], q: number): number =>
  [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) * q)] ?? 0;

/** The milliseconds of `count` runs of `work`, after `warm` runs that are not counted. */
export async function timings(
  count: number,
  work: (index: number) => Promise<unknown>,
  warm = 10,
): Promise<number[]> {
  for (let index = 0; index < warm; index++) await work(index);
  const times: number[] = [];
  for (let index = 0; index < count; index++) {
    const started = performance.now();
    await work(index);
    times.push(performance.now() - started);
  }
  return times;
}

/** A line of a bench table: `name`, then the p50 and p99 of `times`, in milliseconds. */
export const timingLine = (name: string, times: number[], width = 44): string =>
  `${name.padEnd(width)} p50 ${quantile(times, 0.5).toFixed(2).padStart(7)} ms   p99 ${quantile(times, 0.99).toFixed(2).padStart(7)} ms`;
