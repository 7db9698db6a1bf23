/**
 * The main job, until the self-hosted server exists: prints the operation catalog, writes the
 * OpenAPI 3.1 document, then starts the fake service (the `xb-fake` bin of @x/testing) on loopback
 * and drives every area of the API through the `xb` command line, saving what it made under out/.
 * Run through `bash scripts/demo.sh`, which builds the packages first.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { buildExtensionArchive } from '@x/testing';
import { operations, successStatuses } from '@x/types';
import { createOpenApiDocument } from '@x/types/openapi';

const XB = 'packages/cli/dist/bin/xb.js';
const XB_FAKE = 'packages/testing/dist/bin/xb-fake.js';

const rows = operations.map((operation) => [
  operation.specSection ?? '',
  operation.method,
  operation.path,
  operation.name,
  successStatuses(operation).join(','),
]);
const widths = [4, 6, 52, 28, 7];
const header = ['§', 'method', 'path', 'operation', 'success'];
for (const row of [header, ...rows]) {
  console.log(row.map((cell, index) => cell.padEnd(widths[index] ?? 0)).join(' '));
}

mkdirSync('out', { recursive: true });
writeFileSync('out/openapi.json', `${JSON.stringify(createOpenApiDocument(), null, 2)}\n`);
writeFileSync('out/extension.zip', buildExtensionArchive());
console.log(`\n${operations.length} operations; OpenAPI 3.1 document written to out/openapi.json`);

/** Starts xb-fake and resolves to the URL it prints first. */
function startFake(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [XB_FAKE, '--token', 'demo-token'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.stdout?.once('data', (chunk: Buffer) => resolve({ child, url: chunk.toString().trim() }));
    child.once('exit', (code) => reject(new Error(`xb-fake exited ${code}`)));
  });
}

const { child, url } = await startFake();
const env = { ...process.env, XB_BASE_URL: url, XB_TOKEN: 'demo-token', NO_COLOR: '' };
console.log(`\nThe self-hosted server is not built yet: the fake service answers at ${url}.\n`);

/** A command line as a person would type it: words with spaces or quotes are quoted. */
const shown = (args: readonly string[]) =>
  args
    .map((arg) => (/^[\w./:=@-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", "'\\''")}'`))
    .join(' ');

/** Runs one xb command as a person would, showing it and what it printed. */
function xb(...args: string[]): void {
  console.log(`$ xb ${shown(args)}`);
  const result = spawnSync(process.execPath, [XB, ...args], { env, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`xb ${args.join(' ')} exited ${result.status}`);
}

/** Runs one xb command with --json and gives its document. */
function xbJson<T>(...args: string[]): T {
  console.log(`$ xb ${shown(args)} --json`);
  const result = spawnSync(process.execPath, [XB, ...args, '--json'], { env, encoding: 'utf8' });
  if (result.status !== 0)
    throw new Error(`xb ${args.join(' ')} exited ${result.status}: ${result.stderr}`);
  return JSON.parse(result.stdout) as T;
}

try {
  const invocation = xbJson<{ id: string }>('invocations', 'create', 'demo', 'checkout');
  const { session_id: id } = xbJson<{ session_id: string }>(
    'browsers',
    'create',
    '--invocation-id',
    invocation.id,
    '--viewport',
    '{"width":1280,"height":800}',
  );
  xb('browsers', 'list');
  const { replay_id } = xbJson<{ replay_id: string }>('replays', 'start', id, '--framerate', '10');
  xb('computer', 'type', id, 'héllo 世界 👋', '--delay', '5');
  xb('computer', 'screenshot', id, '-o', 'out/screenshot.png');
  xb('replays', 'stop', id, replay_id);
  xb('replays', 'download', id, replay_id, '-o', 'out/replay.mp4');
  xb('process', 'exec', id, 'echo', 'from', 'the', 'instance');
  const { process_id } = xbJson<{ process_id: string }>('process', 'spawn', id, 'sleep', '30');
  xb('process', 'status', id, process_id);
  xb('process', 'kill', id, process_id);
  xb('extensions', 'upload', 'out/extension.zip', '--name', 'demo-extension');
  xb('pools', 'create', 'demo-pool', '--size', '2', '--extensions', '[{"name":"demo-extension"}]');
  const acquired = xbJson<{ session_id: string }>('pools', 'acquire', 'demo-pool');
  xb('pools', 'get', 'demo-pool');
  xb('pools', 'release', 'demo-pool', acquired.session_id);
  xb('invocations', 'browsers', invocation.id);
  xb('invocations', 'update', invocation.id, '--status', 'succeeded');
  console.log(
    '\nout/ holds openapi.json, extension.zip, screenshot.png (blank: the fake renders no page) and replay.mp4',
  );
} finally {
  child.kill('SIGTERM');
}
