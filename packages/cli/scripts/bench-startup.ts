/**
 * Cold start of the bin: `xb --version` against `node -e 0` on the same Node, each a fresh
 * process, alternating, RUNS times. Prints the median and p90 of each and the ratio of medians;
 * target: at most 2x. `xb --help` (which loads the command table) is shown for reference.
 *
 * Run: pnpm --filter @x/cli bench   (after a build)
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const RUNS = 40;
const TARGET = 2;
const BIN = fileURLToPath(new URL('../dist/bin/xb.js', import.meta.url));

const cases = {
  'node -e 0': ['-e', '0'],
  'xb --version': [BIN, '--version'],
  'xb --help': [BIN, '--help'],
} as const;

function time(args: readonly string[]): number {
  const started = performance.now();
  const result = spawnSync(process.execPath, args, { stdio: ['ignore', 'ignore', 'inherit'] });
  if (result.status !== 0) throw new Error(`${args.join(' ')} exited ${result.status}`);
  return performance.now() - started;
}

const samples: Record<string, number[]> = Object.fromEntries(
  Object.keys(cases).map((name) => [name, []]),
);
for (const args of Object.values(cases)) time(args); // warm the file cache
for (let run = 0; run < RUNS; run++) {
  for (const [name, args] of Object.entries(cases)) samples[name]?.push(time(args));
}

const quantile = (values: number[], q: number) =>
  [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) * q)] ?? 0;
console.log(`cold start on ${process.version}, ${RUNS} runs each, alternating`);
console.log('command          median ms   p90 ms');
for (const [name, values] of Object.entries(samples)) {
  console.log(
    `${name.padEnd(16)} ${quantile(values, 0.5).toFixed(1).padStart(9)} ${quantile(values, 0.9).toFixed(1).padStart(8)}`,
  );
}
const ratio =
  quantile(samples['xb --version'] ?? [], 0.5) / quantile(samples['node -e 0'] ?? [], 0.5);
console.log(
  `ratio xb --version / node -e 0: ${ratio.toFixed(2)}x (target <= ${TARGET}x) ${ratio <= TARGET ? 'OK' : 'OVER TARGET'}`,
);
