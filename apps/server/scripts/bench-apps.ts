/**
 * What running deployed code costs, in one run:
 * - a deploy of a small app, its install from the registry included (`POST /deployments` to
 *   `running`, followed on its event stream);
 * - a sync invocation of an action that returns 1 (`POST /invocations` to its answer): a
 *   sandbox made and removed, Node started in it, the code loaded, the action run;
 * - the same code run directly with Node on the host (a process started, the code loaded, the
 *   action run), the baseline: the ratio and the difference are what the sandbox and the API cost.
 * Prints p50/p99 of each. Needs the npm registry npm is set up for on this host.
 *
 *   node scripts/bench-apps.ts [deploys] [invocations]   (after `pnpm build`)
 */
import { execFile, execFileSync } from 'node:child_process';
import { lookup } from 'node:dns/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { zipSync } from 'fflate';
import { BENCH_TOKEN, benchServer, quantile, timingLine } from './bench-support.ts';

const deploys = Number(process.argv[2] ?? 5);
const invocations = Number(process.argv[3] ?? 30);
const run = promisify(execFile);

/** A small app: one dependency from the registry, one action returning 1. */
const APP = `import isNumber from 'is-number';
const apps = (globalThis[Symbol.for('@x/client.apps')] ??= new Map());
apps.set('bench', { name: 'bench', actions: new Map([['one', async () => (isNumber(1) ? 1 : 0)]]) });
`;
const PACKAGE = '{"name":"bench","type":"module","dependencies":{"is-number":"7.0.0"}}';

// The registry's address, opened to installs as an operator would (it may be a private one).
const npm = join(
  dirname(createRequire(import.meta.url).resolve('npm/package.json')),
  'bin',
  'npm-cli.js',
);
const registry = execFileSync(process.execPath, [npm, 'config', 'get', 'registry'], {
  encoding: 'utf8',
}).trim();
const { address } = await lookup(new URL(registry).hostname, { family: 4 });
const { server, dataDir } = await benchServer('apps', {
  XB_ALLOW_NETWORKS: `127.0.0.1/32,${address}/32`,
});

const encoder = new TextEncoder();
const archive = zipSync({ 'package.json': encoder.encode(PACKAGE), 'app.js': encoder.encode(APP) });

/** Deploys the app as `version` and follows it to running: its id. */
async function deploy(version: string): Promise<string> {
  const form = new FormData();
  form.set('file', new Blob([archive as Uint8Array<ArrayBuffer>]), 'bench.zip');
  form.set('entrypoint_rel_path', 'app.js');
  form.set('version', version);
  const created = await fetch(`${server.url}/deployments`, {
    method: 'POST',
    headers: { authorization: `Bearer ${BENCH_TOKEN}` },
    body: form,
  });
  const { id } = (await created.json()) as { id: string };
  const events = await fetch(`${server.url}/deployments/${id}/events`, {
    headers: { authorization: `Bearer ${BENCH_TOKEN}` },
  });
  const text = await events.text();
  if (!text.includes('"status":"running"'))
    throw new Error(`deploy ${version} did not run: ${text}`);
  return id;
}

try {
  const deployTimes: number[] = [];
  let deployment = '';
  for (let index = 0; index < deploys; index++) {
    const started = performance.now();
    deployment = await deploy(`v${index}`);
    deployTimes.push(performance.now() - started);
  }
  const invoke = async () => {
    const answer = await fetch(`${server.url}/invocations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${BENCH_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ app_name: 'bench', action_name: 'one', version: `v${deploys - 1}` }),
    });
    const invocation = (await answer.json()) as { status: string; output?: string };
    if (invocation.output !== '1')
      throw new Error(`the invocation answered ${JSON.stringify(invocation)}`);
  };
  // The same code, installed as the deploy installed it, run directly with Node.
  const entry = join(dataDir, 'deployments', deployment, 'app.js');
  const direct = async () => {
    const { stdout } = await run(process.execPath, [
      '--input-type=module',
      '-e',
      "await import(process.argv[1]); const app = globalThis[Symbol.for('@x/client.apps')].get('bench'); console.log(JSON.stringify(await app.actions.get('one')({ invocation_id: 'x' })));",
      entry,
    ]);
    if (stdout.trim() !== '1') throw new Error(`direct answered ${stdout}`);
  };
  // Turns: an invocation, then the direct run, so load on the shared machine falls on both.
  for (let warm = 0; warm < 3; warm++) {
    await invoke();
    await direct();
  }
  const invokeTimes: number[] = [];
  const directTimes: number[] = [];
  for (let index = 0; index < invocations; index++) {
    let started = performance.now();
    await invoke();
    invokeTimes.push(performance.now() - started);
    started = performance.now();
    await direct();
    directTimes.push(performance.now() - started);
  }
  const p50 = (times: number[]) => quantile(times, 0.5);
  console.log(`apps: ${deploys} deploys, ${invocations} invocations and direct runs, in turns`);
  console.log(timingLine('deploy (install of is-number included)', deployTimes));
  console.log(timingLine('sync invocation of `return 1`', invokeTimes));
  console.log(timingLine('the same code run directly with Node', directTimes));
  console.log(
    `invocation / direct: ${(p50(invokeTimes) / p50(directTimes)).toFixed(2)}x p50 (+${(p50(invokeTimes) - p50(directTimes)).toFixed(0)} ms: the sandbox, the API and the host)`,
  );
} finally {
  await server.close();
}
