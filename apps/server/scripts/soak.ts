/**
 * The soak: the built server (its own process, as `xb-server` runs it, on loopback) under N
 * sessions that each create a browser, type, take screenshots, run processes, record a replay
 * and delete it, over and over, while a hostile caller floods process output, forks, fills its
 * disk, sends a new Host header on every call and sends malformed bodies. It reports requests,
 * answers by status, p50/p99 latency per operation, the server's RSS (start, peak, final) and
 * whatever is left after the last delete and after the stop, and checks the targets: no 5xx,
 * nothing left, RSS back within 50 MiB of its start. Exit code 1 when a target is missed.
 *
 * Run: pnpm --filter @x/server soak   (after a build; as root for the sandbox users, cgroups and
 * disks; loopback only)
 *   SOAK_SECONDS  how long the load runs (600)
 *   SOAK_SESSIONS sessions at once besides the hostile one (2 per core, 2 to 8)
 *   SOAK_HOSTILE  what the hostile caller does, comma-separated (flood,fork,fill,host,bad), or
 *                 none: to find which of them a missed target comes from
 *
 * The RSS start is taken after one life of each kind (a session's and a hostile round), the
 * final one after 30 s of rest; the RSS at listen is printed beside them.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { dataDirGroupName } from '../src/sandbox/cgroups.ts';
import { mountsUnder } from '../src/sandbox/instance-disks.ts';
import { descendantsOf } from '../src/system/process-tree.ts';

const MiB = 1024 * 1024;
const SECONDS = Number(process.env.SOAK_SECONDS ?? 600);
const SESSIONS = Number(
  process.env.SOAK_SESSIONS ?? Math.min(8, Math.max(2, availableParallelism() * 2)),
);
const TOKEN = 'soak-token';
const MAIN = new URL('../dist/main.js', import.meta.url).pathname;
const dataDir = mkdtempSync(join(tmpdir(), 'xb-soak-'));

// ---- the server, in a process of its own ---------------------------------------------------

/** The Node flags the server runs with: those its `#!` line gives (as `xb-server` runs it). */
function nodeFlags(): string[] {
  const shebang = readFileSync(MAIN, 'utf8').split('\n', 1)[0] ?? '';
  return shebang.split(' ').filter((part) => part.startsWith('--'));
}

async function startServer(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [...nodeFlags(), MAIN], {
    env: {
      ...process.env,
      XB_DATA_DIR: dataDir,
      XB_PORT: '0',
      XB_ALLOW_NETWORKS: '127.0.0.1/32',
      XB_TOKENS: TOKEN,
      XB_LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let printed = '';
  const url = await new Promise<string>((resolve, reject) => {
    // Where it listens is said on stderr; stdout is the JSON log.
    child.stderr?.on('data', (chunk) => {
      printed += chunk;
      const found = /^xb-server listening at (\S+)$/m.exec(printed)?.[1];
      if (found) resolve(found);
    });
    child.once('exit', (code) => reject(new Error(`xb-server exited ${code}: ${printed}`)));
  });
  // What it logs from now on (warnings and errors) is kept for the report.
  child.stdout?.on('data', (chunk) => {
    for (const line of String(chunk).split('\n').filter(Boolean)) serverLog.push(line);
  });
  return { child, url };
}
const serverLog: string[] = [];

/** Resident memory of a process, from /proc. */
function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1] ?? 0) * 1024;
}

// ---- calls and what they answered ----------------------------------------------------------

interface Outcome {
  readonly caller: 'session' | 'hostile';
  readonly operation: string;
  readonly status: number | 'network' | 'timeout';
  readonly ms: number;
}
const outcomes: Outcome[] = [];
let url = '';

/** One API call, recorded; its status and body (null on a network failure). */
async function call(
  caller: Outcome['caller'],
  operation: string,
  method: string,
  path: string,
  body?: string | object,
): Promise<{ status: number; bytes: Buffer } | null> {
  const started = performance.now();
  try {
    const response = await fetch(`${url}${path}`, {
      method,
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      ...(body === undefined
        ? {}
        : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
      signal: AbortSignal.timeout(60_000),
    });
    const bytes = Buffer.from(await response.arrayBuffer());
    outcomes.push({ caller, operation, status: response.status, ms: performance.now() - started });
    return { status: response.status, bytes };
  } catch (error) {
    const status = (error as Error).name === 'TimeoutError' ? 'timeout' : 'network';
    outcomes.push({ caller, operation, status, ms: performance.now() - started });
    return null;
  }
}

/** A call with a Host header of its own (fetch may not set one): its status. */
function callWithHost(operation: string, path: string, host: string): Promise<void> {
  const started = performance.now();
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const req = request(
      { hostname, port, path, method: 'GET', headers: { host, authorization: `Bearer ${TOKEN}` } },
      (response) => {
        response.resume();
        response.on('end', () => {
          outcomes.push({
            caller: 'hostile',
            operation,
            status: response.statusCode ?? 0,
            ms: performance.now() - started,
          });
          resolve();
        });
      },
    );
    req.on('error', () => {
      outcomes.push({ caller: 'hostile', operation, status: 'network', ms: 0 });
      resolve();
    });
    req.end();
  });
}

const json = <T>(answer: { bytes: Buffer } | null) =>
  (answer ? JSON.parse(answer.bytes.toString() || 'null') : null) as T | null;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// ---- the sessions -----------------------------------------------------------------------------

/** One session's life, again and again until the end: every step of a real agent's work. */
async function session(until: number, most = Number.POSITIVE_INFINITY): Promise<number> {
  let lives = 0;
  while (Date.now() < until && lives < most) {
    const created = json<{ session_id: string }>(
      await call('session', 'create', 'POST', '/browsers', {
        headless: true,
        timeout_seconds: 120,
      }),
    );
    if (!created?.session_id) {
      await sleep(1_000);
      continue;
    }
    const id = created.session_id;
    const at = `/browsers/${id}`;
    await call('session', 'type', 'POST', `${at}/computer/type`, { text: 'soak test' });
    await call('session', 'screenshot', 'POST', `${at}/computer/screenshot`);
    await call('session', 'exec', 'POST', `${at}/process/exec`, {
      command: 'sh',
      args: ['-c', 'echo hello; ls -la /home/browser; head -c 100000 /dev/urandom | base64'],
    });
    const spawned = json<{ process_id: string }>(
      await call('session', 'spawn', 'POST', `${at}/process/spawn`, {
        command: 'sleep',
        args: ['60'],
      }),
    );
    const replay = json<{ replay_id: string }>(
      await call('session', 'replay start', 'POST', `${at}/replays`, {}),
    );
    await call('session', 'type', 'POST', `${at}/computer/type`, { text: 'recorded words' });
    await sleep(2_000);
    await call('session', 'screenshot', 'POST', `${at}/computer/screenshot`);
    if (spawned) {
      await call('session', 'process status', 'GET', `${at}/process/${spawned.process_id}/status`);
      await call('session', 'process kill', 'POST', `${at}/process/${spawned.process_id}/kill`, {
        signal: 'TERM',
      });
    }
    if (replay) {
      await call('session', 'replay stop', 'POST', `${at}/replays/${replay.replay_id}/stop`);
      await call('session', 'replay video', 'GET', `${at}/replays/${replay.replay_id}`);
    }
    await call('session', 'delete', 'DELETE', at);
    lives++;
  }
  return lives;
}

/**
 * The hostile caller: a browser of its own, from which it floods output, forks past its
 * session's pids limit and writes past its disk; between those, calls with a new Host header
 * each, JSON nested 100,000 deep and a body of 2 MiB.
 */
async function hostile(until: number, most = Number.POSITIVE_INFINITY): Promise<number> {
  let rounds = 0;
  const ON = (process.env.SOAK_HOSTILE ?? 'flood,fork,fill,host,bad').split(',');
  if (ON.includes('none')) return 0;
  let id = '';
  while (Date.now() < until && rounds < most) {
    if (!id) {
      const created = json<{ session_id: string }>(
        await call('hostile', 'create', 'POST', '/browsers', { headless: true }),
      );
      if (!created?.session_id) {
        await sleep(1_000);
        continue;
      }
      id = created.session_id;
    }
    const at = `/browsers/${id}`;
    // 100 MB of output nobody reads, three at once.
    for (let index = 0; index < (ON.includes('flood') ? 3 : 0); index++) {
      await call('hostile', 'flood output', 'POST', `${at}/process/spawn`, {
        command: 'sh',
        args: ['-c', 'head -c 100000000 /dev/zero | tr "\\0" x'],
      });
    }
    if (ON.includes('fork'))
      await call('hostile', 'fork 2000', 'POST', `${at}/process/exec`, {
        command: 'sh',
        args: ['-c', 'i=0; while [ $i -lt 2000 ]; do sleep 2 & i=$((i+1)); done 2>/dev/null; wait'],
      });
    if (ON.includes('fill'))
      await call('hostile', 'fill disk', 'POST', `${at}/process/exec`, {
        command: 'sh',
        args: [
          '-c',
          'fallocate -l 4G /home/browser/fill; dd if=/dev/zero of=/home/browser/more bs=1M count=64; rm -f /home/browser/fill /home/browser/more',
        ],
      });
    for (let index = 0; index < (ON.includes('host') ? 50 : 0); index++) {
      await callWithHost('openapi, new Host', '/openapi.json', `h${rounds}-${index}.example`);
    }
    if (ON.includes('bad'))
      await call('hostile', 'deep json', 'POST', '/browsers', '['.repeat(100_000));
    if (ON.includes('bad'))
      await call('hostile', '2 MiB body', 'POST', '/browsers', { pad: 'x'.repeat(2 * MiB) });
    rounds++;
    // Every tenth round its browser goes (with whatever still runs in it) and a new one comes.
    if (rounds % 10 === 0) {
      await call('hostile', 'delete', 'DELETE', at);
      id = '';
    }
  }
  if (id) await call('hostile', 'delete', 'DELETE', `/browsers/${id}`);
  return rounds;
}

// ---- what is left ----------------------------------------------------------------------------

/** The session cgroups of this data directory, in any hierarchy. */
function sessionCgroups(): string[] {
  const name = dataDirGroupName(dataDir);
  const found: string[] = [];
  const search = (folder: string, depth: number) => {
    if (depth > 4 || !existsSync(folder)) return;
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      const path = join(folder, entry.name);
      if (entry.name === name) {
        found.push(
          ...readdirSync(path, { withFileTypes: true })
            .filter((e) => e.isDirectory())
            .map((e) => join(path, e.name)),
        );
      } else search(path, depth + 1);
    }
  };
  search('/sys/fs/cgroup', 0);
  return found;
}

/** Processes of the host that belong to this server's sessions (its uid block or its paths). */
function processesOfDataDir(): string[] {
  const store = new DatabaseSync(join(dataDir, 'store.sqlite'), { readOnly: true });
  const base = Number(
    (
      store.prepare("SELECT value FROM settings WHERE key = 'sandbox_uid_base'").get() as
        | { value: string }
        | undefined
    )?.value ?? Number.NaN,
  );
  store.close();
  const found: string[] = [];
  for (const entry of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const uid = Number(/^Uid:\s+(\d+)/m.exec(readFileSync(`/proc/${entry}/status`, 'utf8'))?.[1]);
      const command = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' ');
      if ((uid >= base && uid < base + 65_536) || command.includes(dataDir)) {
        found.push(`${entry} ${command.slice(0, 80)}`);
      }
    } catch {
      // It ended while it was read.
    }
  }
  return found;
}

/** Files of sessions left in the data directory (replays' videos are kept on purpose). */
function filesLeft(): string[] {
  const left: string[] = [];
  for (const folder of ['instances', 'uploads']) {
    const path = join(dataDir, folder);
    if (existsSync(path)) left.push(...readdirSync(path).map((name) => `${folder}/${name}`));
  }
  return left;
}

// ---- the run ---------------------------------------------------------------------------------

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0;
}

const server = await startServer();
url = server.url;
const pid = server.child.pid as number;
await sleep(1_000);
const listenRss = rssOf(pid);
// One life of every kind first: what the server loads and caches once (code compiled on first
// use, the OpenAPI document, the store's pages) is its start, not growth under load.
await Promise.all([session(Number.POSITIVE_INFINITY, 1), hostile(Number.POSITIVE_INFINITY, 1)]);
await sleep(5_000);
const startRss = rssOf(pid);
let peakRss = startRss;
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, rssOf(pid));
}, 1_000);
console.log(
  `soak: ${SESSIONS} sessions + 1 hostile caller for ${SECONDS} s against ${url} (pid ${pid}, data ${dataDir})`,
);
const began = Date.now();
const until = began + SECONDS * 1000;
const progress = setInterval(() => {
  const fives = outcomes.filter((o) => typeof o.status === 'number' && o.status >= 500).length;
  console.log(
    `  ${Math.round((Date.now() - began) / 1000)} s: ${outcomes.length} requests, ${fives} 5xx, RSS ${(rssOf(pid) / MiB).toFixed(0)} MiB`,
  );
}, 60_000);
let lives: number[] = [];
let rounds = 0;
let exitCode = 1;
try {
  [lives, rounds] = await Promise.all([
    Promise.all(Array.from({ length: SESSIONS }, () => session(until))),
    hostile(until),
  ]);
  clearInterval(progress);
  const left = {
    browsers: (json<unknown[]>(await call('session', 'list', 'GET', '/browsers')) ?? []).length,
    processes: descendantsOf(pid).length,
    cgroups: sessionCgroups().length,
    mounts: mountsUnder(dataDir).length,
    files: filesLeft(),
  };
  // Memory settles once the load is gone: the final figure is taken after 30 s of rest.
  await sleep(30_000);
  clearInterval(sampler);
  const finalRss = rssOf(pid);
  server.child.kill('SIGTERM');
  const [stopCode] = await once(server.child, 'exit');
  const afterStop = {
    processes: processesOfDataDir(),
    cgroups: sessionCgroups(),
    mounts: mountsUnder(dataDir),
  };

  // ---- the report ----
  const seconds = (Date.now() - began) / 1000;
  console.log(
    `\nran ${seconds.toFixed(0)} s: ${lives.reduce((a, b) => a + b, 0)} session lives, ${rounds} hostile rounds`,
  );
  console.log(`requests: ${outcomes.length} (${(outcomes.length / SECONDS).toFixed(1)}/s)`);
  for (const caller of ['session', 'hostile'] as const) {
    const byStatus = new Map<string, number>();
    for (const o of outcomes.filter((o) => o.caller === caller)) {
      byStatus.set(String(o.status), (byStatus.get(String(o.status)) ?? 0) + 1);
    }
    const listed = [...byStatus].sort().map(([status, count]) => `${status}: ${count}`);
    console.log(`  ${caller.padEnd(8)} by status: ${listed.join(', ')}`);
  }
  console.log('\nlatency (ms)            calls     p50      p99');
  const operations = [...new Set(outcomes.map((o) => `${o.caller} ${o.operation}`))].sort();
  for (const operation of operations) {
    const times = outcomes
      .filter((o) => `${o.caller} ${o.operation}` === operation)
      .map((o) => o.ms);
    console.log(
      `  ${operation.padEnd(28)} ${String(times.length).padStart(6)} ${percentile(times, 50).toFixed(1).padStart(8)} ${percentile(times, 99).toFixed(1).padStart(8)}`,
    );
  }
  const all = outcomes.map((o) => o.ms);
  console.log(
    `  ${'all'.padEnd(28)} ${String(all.length).padStart(6)} ${percentile(all, 50).toFixed(1).padStart(8)} ${percentile(all, 99).toFixed(1).padStart(8)}`,
  );
  console.log(
    `\nserver RSS: at listen ${(listenRss / MiB).toFixed(0)} MiB, start (after one life of each kind) ${(startRss / MiB).toFixed(0)} MiB, peak ${(peakRss / MiB).toFixed(0)} MiB, final ${(finalRss / MiB).toFixed(0)} MiB (${((finalRss - startRss) / MiB).toFixed(0)} MiB over start)`,
  );
  console.log(
    `left after the last delete: ${left.browsers} browsers, ${left.processes} processes, ${left.cgroups} cgroups, ${left.mounts} mounts, ${left.files.length} files${left.files.length ? ` (${left.files.join(', ')})` : ''}`,
  );
  console.log(
    `left after the stop (exit ${stopCode}): ${afterStop.processes.length} processes, ${afterStop.cgroups.length} cgroups, ${afterStop.mounts.length} mounts`,
  );
  const errors = serverLog.filter((line) => /"level":(50|60)/.test(line));
  console.log(`server errors logged: ${errors.length}`);
  for (const line of errors.slice(0, 5)) console.log(`  ${line.slice(0, 300)}`);

  const fives = outcomes.filter((o) => typeof o.status !== 'number' || o.status >= 500).length;
  const targets: [string, boolean][] = [
    ['0 5xx, time-outs or dropped connections', fives === 0],
    [
      '0 processes, cgroups, mounts or files left after the last delete',
      left.browsers + left.processes + left.cgroups + left.mounts + left.files.length === 0,
    ],
    [
      'nothing left after the stop, which exits 0',
      stopCode === 0 &&
        afterStop.processes.length + afterStop.cgroups.length + afterStop.mounts.length === 0,
    ],
    ['server RSS back within 50 MiB of its start', finalRss - startRss <= 50 * MiB],
  ];
  console.log('\ntargets:');
  for (const [target, met] of targets) console.log(`  ${met ? 'met   ' : 'MISSED'} ${target}`);
  exitCode = targets.every(([, met]) => met) ? 0 : 1;
} finally {
  clearInterval(progress);
  clearInterval(sampler);
  if (server.child.exitCode === null) {
    server.child.kill('SIGKILL');
    await once(server.child, 'exit');
  }
  // A disk still mounted (a missed target) is let go before its folder is removed.
  for (const mount of mountsUnder(dataDir)) execFileSync('umount', ['--lazy', mount]);
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(exitCode);
