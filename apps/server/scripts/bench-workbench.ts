/**
 * The instance as a workbench, from one run on loopback:
 * - Playwright execute of `return 1`: the first call (which starts the session's worker) and then
 *   p50 and p99 of 100 warm calls, against the floor in the same run: an API call that does no
 *   work beyond finding the browser (`get_mouse_position`).
 *
 * Run: pnpm --filter @x/server bench:workbench   (after a build)
 */
import { rmSync } from 'node:fs';
import { benchServer, quantile } from './bench-support.ts';

const { dataDir, server, call } = await benchServer('workbench');

/** Each run's milliseconds, `count` runs after `warm` to warm up. */
async function timings(count: number, work: () => Promise<unknown>, warm = 5): Promise<number[]> {
  for (let index = 0; index < warm; index++) await work();
  const times: number[] = [];
  for (let index = 0; index < count; index++) {
    const started = performance.now();
    await work();
    times.push(performance.now() - started);
  }
  return times;
}

const line = (name: string, times: number[]) =>
  `${name.padEnd(48)} p50 ${quantile(times, 0.5).toFixed(2).padStart(8)} ms   p99 ${quantile(times, 0.99).toFixed(2).padStart(8)} ms`;

try {
  const { session_id: id } = await call<{ session_id: string }>('POST', '/browsers', {});
  const execute = () =>
    call<{ success: boolean }>('POST', `/browsers/${id}/playwright/execute`, { code: 'return 1' });
  const first = performance.now();
  if (!(await execute()).success) throw new Error('return 1 failed');
  const firstMs = performance.now() - first;
  const warm = await timings(100, execute);
  const floor = await timings(100, () =>
    call('POST', `/browsers/${id}/computer/get_mouse_position`),
  );
  console.log(`Playwright execute, first call (starts the worker)   ${firstMs.toFixed(0)} ms`);
  console.log(line('Playwright execute `return 1`, warm', warm));
  console.log(line('floor: an API call that does no work', floor));
  console.log(
    `ratio warm execute / floor (p50)                      ${(quantile(warm, 0.5) / quantile(floor, 0.5)).toFixed(2)}x   target: p50 <= 50 ms`,
  );
} finally {
  await server.close();
  rmSync(dataDir, { recursive: true, force: true });
}
