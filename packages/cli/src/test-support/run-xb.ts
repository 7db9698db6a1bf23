import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { FakeService } from '@x/testing';
import type { CliOutput, CliTerminal } from '../io.js';
import { run } from '../run.js';

/** A stream that keeps what is written, as a terminal or not. */
export class MemoryOutput implements CliOutput {
  readonly chunks: (string | Uint8Array)[] = [];
  readonly isTTY: boolean;
  readonly columns = 120;

  constructor(isTTY = false) {
    this.isTTY = isTTY;
  }

  write(chunk: string | Uint8Array): boolean {
    this.chunks.push(chunk);
    return true;
  }

  get text(): string {
    return this.chunks
      .map((chunk) => (typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8')))
      .join('');
  }
}

/** How a test runs xb. */
export interface XbOptions {
  /** The fake to reach; in-process unless `overHttp`. */
  readonly fake?: FakeService;
  readonly overHttp?: boolean;
  readonly stdin?: string;
  readonly env?: Record<string, string | undefined>;
  readonly isTTY?: boolean;
  readonly cwd?: string;
  readonly signal?: AbortSignal;
  /** The terminal the run is on, for `xb process attach`. */
  readonly terminal?: CliTerminal;
}

/** A folder no test shares: config files and downloads go here. */
export function scratchFolder(): string {
  return mkdtempSync(join(tmpdir(), 'xb-cli-'));
}

/** Runs xb in-process and gives its exit code, stdout and stderr. */
export async function xb(argv: readonly string[], options: XbOptions = {}) {
  const stdout = new MemoryOutput(options.isTTY);
  const stderr = new MemoryOutput(options.isTTY);
  const home = scratchFolder();
  const { fake } = options;
  const code = await run(argv, {
    stdout,
    stderr,
    stdin: Readable.from(options.stdin === undefined ? [] : [Buffer.from(options.stdin)]),
    env: {
      HOME: home,
      XDG_CONFIG_HOME: join(home, 'config'),
      ...(fake ? { XB_BASE_URL: fake.url, XB_TOKEN: fake.tokens.token } : {}),
      ...options.env,
    },
    cwd: options.cwd ?? home,
    ...(fake && !options.overHttp ? { fetch: fake.fetch } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.terminal ? { terminal: options.terminal } : {}),
  });
  return { code, stdout: stdout.text, stderr: stderr.text, stdoutChunks: stdout.chunks };
}

/** The single JSON document a `--json` run printed; throws if there is not exactly one. */
export function onlyJson(stdout: string): unknown {
  const lines = stdout.split('\n').filter(Boolean);
  if (lines.length !== 1)
    throw new Error(`expected one JSON document on stdout, got ${lines.length} lines: ${stdout}`);
  return JSON.parse(lines[0] as string);
}

/** The two ways tests reach the fake: its in-process fetch, and real HTTP on loopback. */
export const TRANSPORTS = [
  ['in-process', false],
  ['over HTTP', true],
] as const;

/** Runs xb against `fake` one way, and makes browsers through it. */
export function xbAgainst(fake: FakeService, overHttp: boolean) {
  const run = (argv: string[], options: XbOptions = {}) => xb(argv, { fake, overHttp, ...options });
  const newBrowser = async () =>
    (onlyJson((await run(['browsers', 'create', '--json'])).stdout) as { session_id: string })
      .session_id;
  return { run, newBrowser };
}
