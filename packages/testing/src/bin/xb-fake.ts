#!/usr/bin/env node
/**
 * xb-fake: the fake service as a program, for tests in any language. It prints the URL it
 * listens at as its first line on stdout, serves until SIGTERM or SIGINT, then exits 0. On a
 * Node.js older than the package declares (`engines`) it says so in one line and exits 1, before
 * loading the fake.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { FakeSeed } from '../fake/fake-service.js';

/** The oldest Node.js major the fake runs on: `engines.node` of its package.json. */
export const NODE_MAJOR = 22;

if (Number(process.versions.node.split('.')[0]) < NODE_MAJOR) {
  process.stderr.write(
    `xb-fake: needs Node.js ${NODE_MAJOR} or newer, and ${process.execPath} is Node.js ${process.versions.node}.\n`,
  );
  process.exit(1);
}

const USAGE = `Usage: xb-fake [--port N] [--host ADDRESS] [--token T]... [--read-only-token T]...
               [--seed FILE.json] [--max-browsers N] [--allow-networks LIST]
               [--no-processes] [--id-seed N]

Starts a fake of the cloud browser service and prints its URL on the first line of stdout.

  --port N              port to listen on (default 0: a free one)
  --host ADDRESS        address to listen on (default 127.0.0.1)
  --token T             a token with every right (default test-token); repeatable
  --read-only-token T   a token that may only read (default test-read-only-token); repeatable
  --seed FILE.json      records to start from: {"browsers":[…],"pools":[…],"extensions":[…],"invocations":[…]}
  --max-browsers N      live browsers allowed at once (default 50)
  --allow-networks LIST private destinations sessions may reach, comma-separated, as the
                        server's XB_ALLOW_NETWORKS (127.0.0.1/32,10.1.0.0/16 or *);
                        records show network.allow (default: none, as the server's)
  --no-processes        answer process operations 403, as when an operator turns them off
  --id-seed N           make generated ids repeat from run to run
  -h, --help            show this help

Example: xb-fake --port 8931 --token secret`;

function fail(message: string): never {
  process.stderr.write(`xb-fake: ${message}\n\n${USAGE}\n`);
  process.exit(2);
}

function wholeNumber(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!Number.isInteger(number) || number < 0)
    fail(`--${name} must be a whole number, got "${value}"`);
  return number;
}

let parsed: ReturnType<typeof parse>;
function parse() {
  return parseArgs({
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      token: { type: 'string', multiple: true },
      'read-only-token': { type: 'string', multiple: true },
      seed: { type: 'string' },
      'max-browsers': { type: 'string' },
      'allow-networks': { type: 'string' },
      'no-processes': { type: 'boolean' },
      'id-seed': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    allowPositionals: false,
  });
}
try {
  parsed = parse();
} catch (error) {
  fail((error as Error).message);
}
const { values } = parsed;
if (values.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}

let seed: FakeSeed | undefined;
if (values.seed !== undefined) {
  try {
    seed = JSON.parse(readFileSync(values.seed, 'utf8')) as FakeSeed;
  } catch (error) {
    fail(`cannot read the seed file ${values.seed}: ${(error as Error).message}`);
  }
}

const maxBrowsers = wholeNumber('max-browsers', values['max-browsers']);
const idSeed = wholeNumber('id-seed', values['id-seed']);
const { createFakeService } = await import('../fake/fake-service.js');
let fake: ReturnType<typeof createFakeService>;
try {
  fake = createFakeService({
    ...(values['allow-networks'] === undefined ? {} : { allowNetworks: values['allow-networks'] }),
    ...(values.token ? { token: values.token } : {}),
    ...(values['read-only-token'] ? { readOnlyToken: values['read-only-token'] } : {}),
    ...(maxBrowsers === undefined ? {} : { maxBrowsers }),
    ...(idSeed === undefined ? {} : { seed: idSeed }),
    processExecution: !values['no-processes'],
  });
} catch (error) {
  fail((error as Error).message);
}
if (seed) {
  try {
    fake.seed(seed);
  } catch (error) {
    fail(`the seed file ${values.seed} is not valid: ${(error as Error).message}`);
  }
}

const port = wholeNumber('port', values.port);
try {
  const url = await fake.listen({
    ...(port === undefined ? {} : { port }),
    host: values.host ?? '127.0.0.1',
  });
  process.stdout.write(`${url}\n`);
} catch (error) {
  process.stderr.write(`xb-fake: cannot listen: ${(error as Error).message}\n`);
  process.exit(1);
}

let isStopping = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (isStopping) return;
    isStopping = true;
    fake.close().then(() => process.exit(0));
  });
}
