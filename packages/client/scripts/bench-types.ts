/**
 * What the client costs an editor: type-checking a small agent that uses it, against the same
 * agent written with the Kernel SDK (`@onkernel/sdk`), in one run. Each program is checked by
 * `tsc --extendedDiagnostics` in a project of its own; an empty program gives the floor (the
 * standard library), which is taken off both. Figures are the median of several runs; the
 * instantiation count does not vary between runs, the times do (a shared machine).
 * Target: checking the client's agent costs at most 3× the Kernel SDK's.
 *
 * Run: pnpm --filter @x/client bench:types   (after a build)
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const TARGET_RATIO = 3;
const RUNS = Number(process.env.XB_BENCH_RUNS ?? 5);
const here = fileURLToPath(new URL('..', import.meta.url));
// Inside the package, so `@x/client` resolves to this package's build and `@onkernel/sdk` to
// its development dependency, as an app's imports would.
const root = `${here}.bench-types`;
const tsc = `${here}node_modules/.bin/tsc`;

const programs = {
  'empty program (the floor)': 'export {};',
  'Kernel SDK agent': `
import Kernel from '@onkernel/sdk';
const kernel = new Kernel({ apiKey: 't', baseURL: 'http://127.0.0.1:8080' });
export async function run(): Promise<string> {
  const browser = await kernel.browsers.create({ headless: true, timeout_seconds: 60 });
  await kernel.browsers.computer.typeText(browser.session_id, { text: 'hello', delay: 10 });
  await kernel.browsers.computer.clickMouse(browser.session_id, { x: 10, y: 20 });
  const shot = await kernel.browsers.computer.captureScreenshot(browser.session_id);
  const process = await kernel.browsers.process.exec(browser.session_id, { command: 'ls' });
  for await (const other of kernel.browsers.list()) console.log(other.session_id, other.created_at);
  const pool = await kernel.browserPools.retrieve('checkout');
  await kernel.browsers.deleteByID(browser.session_id);
  return \`\${browser.cdp_ws_url} \${shot.status} \${process.exit_code} \${pool.id}\`;
}`,
  '@x/client agent': `
import { createClient } from '@x/client';
const client = createClient({ token: 't', baseUrl: 'http://127.0.0.1:8080' });
export async function run(): Promise<string> {
  const browser = await client.browsers.create({ headless: true, timeout_seconds: 60 });
  await client.browsers.computer.type({ id: browser.session_id, text: 'hello', delay: 10 });
  await client.browsers.computer.clickMouse({ id: browser.session_id, x: 10, y: 20 });
  const shot = await client.browsers.computer.screenshot({ id: browser.session_id });
  const process = await client.browsers.process.exec({ id: browser.session_id, command: 'ls' });
  for await (const other of client.browsers.list()) console.log(other.session_id, other.created_at);
  const pool = await client.browserPools.get({ id_or_name: 'checkout' });
  await client.browsers.delete({ id: browser.session_id });
  return \`\${browser.cdp_ws_url} \${shot.contentType} \${process.exit_code} \${pool.id}\`;
}`,
};

const tsconfig = {
  compilerOptions: {
    target: 'ES2023',
    lib: ['ES2023', 'DOM', 'DOM.Iterable'],
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: [],
  },
  files: ['agent.ts'],
};

interface Figures {
  checkMs: number;
  totalMs: number;
  instantiations: number;
  types: number;
}

function diagnostics(dir: string): Figures {
  const result = spawnSync(tsc, ['-p', dir, '--extendedDiagnostics'], { encoding: 'utf8' });
  if (result.status !== 0)
    throw new Error(`tsc failed in ${dir}:\n${result.stdout}${result.stderr}`);
  const figure = (label: string) => {
    const match = new RegExp(`^${label}:\\s+([\\d.]+)`, 'm').exec(result.stdout);
    if (!match) throw new Error(`no "${label}" in tsc's diagnostics`);
    return Number(match[1]);
  };
  return {
    checkMs: figure('Check time') * 1000,
    totalMs: figure('Total time') * 1000,
    instantiations: figure('Instantiations'),
    types: figure('Types'),
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1] ?? 0;

rmSync(root, { recursive: true, force: true });
const results: Record<string, Figures> = {};
try {
  const dirs = Object.keys(programs).map((name, index) => {
    const dir = `${root}/${index}`;
    mkdirSync(dir, { recursive: true });
    writeFileSync(`${dir}/tsconfig.json`, JSON.stringify(tsconfig));
    writeFileSync(`${dir}/agent.ts`, programs[name as keyof typeof programs]);
    return [name, dir] as const;
  });
  const runs: Record<string, Figures[]> = {};
  // Interleaved, so a slow moment of the machine falls on every program alike.
  for (let run = 0; run < RUNS; run += 1) {
    for (const [name, dir] of dirs) {
      runs[name] = [...(runs[name] ?? []), diagnostics(dir)];
    }
  }
  for (const [name, figures] of Object.entries(runs)) {
    results[name] = {
      checkMs: median(figures.map((f) => f.checkMs)),
      totalMs: median(figures.map((f) => f.totalMs)),
      instantiations: median(figures.map((f) => f.instantiations)),
      types: median(figures.map((f) => f.types)),
    };
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}

const floor = results['empty program (the floor)'] as Figures;
const over = (name: string) => {
  const figures = results[name] as Figures;
  return {
    checkMs: figures.checkMs - floor.checkMs,
    totalMs: figures.totalMs - floor.totalMs,
    instantiations: figures.instantiations - floor.instantiations,
    types: figures.types - floor.types,
  };
};
console.log(
  `type-checking (tsc, median of ${RUNS} runs)  check ms  total ms  instantiations   types`,
);
for (const [name, figures] of Object.entries(results)) {
  console.log(
    `${name.padEnd(40)}${figures.checkMs.toFixed(0).padStart(9)}${figures.totalMs.toFixed(0).padStart(10)}${String(figures.instantiations).padStart(16)}${String(figures.types).padStart(8)}`,
  );
}
const kernel = over('Kernel SDK agent');
const ours = over('@x/client agent');
console.log(
  `over the floor: Kernel SDK ${kernel.checkMs.toFixed(0)} ms check / ${kernel.totalMs.toFixed(0)} ms total / ${kernel.instantiations} instantiations; @x/client ${ours.checkMs.toFixed(0)} ms / ${ours.totalMs.toFixed(0)} ms / ${ours.instantiations}`,
);
// A floor of 1 ms keeps the ratio finite when the Kernel SDK's check time rounds to nothing.
const ratio = ours.totalMs / Math.max(kernel.totalMs, 1);
const ok = ratio <= TARGET_RATIO;
console.log(
  `@x/client / Kernel SDK, total time over the floor: ${ratio.toFixed(2)}x (target <= ${TARGET_RATIO}x) ${ok ? 'OK' : 'OVER TARGET'}`,
);
if (!ok) process.exitCode = 1;
