/**
 * What watching processes costs the self-hosted server, from one run: the server's own CPU time
 * (in % of one core) and `/healthz` latency (p50 of 300 calls) with no process running, then
 * with 200 processes running (each sampled once a second by the one sampler), and the ratios.
 * Targets: 200 processes cost under 5% of a core; /healthz p50 within noise of the baseline.
 *
 * Run: pnpm --filter @x/server bench:sampling   (after a build; as root, on loopback)
 */
import { rmSync } from 'node:fs';
import { benchServer } from './bench-support.ts';

const PROCESSES = 200;
const { dataDir, server, call } = await benchServer('sampling', {
  XB_MAX_PROCESSES_PER_BROWSER: String(PROCESSES),
  XB_SESSION_PIDS: '4096',
});

/** The server's CPU time over `seconds`, in % of one core (it runs in this process). */
async function serverCpu(seconds: number): Promise<number> {
  const before = process.cpuUsage();
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  const used = process.cpuUsage(before);
  return ((used.user + used.system) / 1e6 / seconds) * 100;
}

/** p50 of 300 sequential /healthz calls, in ms. */
async function healthP50(): Promise<number> {
  const times: number[] = [];
  for (let index = 0; index < 300; index++) {
    const started = performance.now();
    await (await fetch(`${server.url}/healthz`)).text();
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)] ?? 0;
}

try {
  const browser = (await call<{ session_id: string }>('POST', '/browsers', {})).session_id;
  const idleCpu = await serverCpu(10);
  const idleHealth = await healthP50();
  const processes: string[] = [];
  for (let index = 0; index < PROCESSES; index++) {
    const spawned = await call<{ process_id: string }>(
      'POST',
      `/browsers/${browser}/process/spawn`,
      { command: 'sleep', args: ['600'] },
    );
    processes.push(spawned.process_id);
  }
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  const busyCpu = await serverCpu(10);
  const busyHealth = await healthP50();
  const status = await call<{ state: string }>(
    'GET',
    `/browsers/${browser}/process/${processes[0]}/status`,
  );
  console.log(`server CPU, no process:        ${idleCpu.toFixed(2)} % of a core`);
  console.log(`server CPU, ${PROCESSES} processes:     ${busyCpu.toFixed(2)} % of a core`);
  console.log(
    `  cost of sampling ${PROCESSES}:        ${(busyCpu - idleCpu).toFixed(2)} % (target < 5)`,
  );
  console.log(`/healthz p50, no process:      ${idleHealth.toFixed(2)} ms`);
  console.log(`/healthz p50, ${PROCESSES} processes:   ${busyHealth.toFixed(2)} ms`);
  console.log(`  ratio:                       ${(busyHealth / idleHealth).toFixed(2)}x`);
  console.log(`(a process reads ${status.state})`);
  await call('DELETE', `/browsers/${browser}`);
} finally {
  await server.close();
  rmSync(dataDir, { recursive: true, force: true });
}
