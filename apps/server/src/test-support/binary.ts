import { type ChildProcessByStdio, spawn } from 'node:child_process';
import type { Readable } from 'node:stream';
import { onTestFinished } from 'vitest';
import { TEST_ALLOW_NETWORKS } from './servers.js';

/** The built server, as `xb-server` runs it. */
export const MAIN = new URL('../../dist/main.js', import.meta.url).pathname;

/** Starts the built server on `dataDir`; resolves to its URL, the child and what it printed. */
export function startBinary(
  dataDir: string,
  env: Record<string, string> = {},
  args: readonly string[] = [],
) {
  return startServerProcess([process.execPath, MAIN, ...args], {
    ...process.env,
    XB_DATA_DIR: dataDir,
    XB_PORT: '0',
    XB_ALLOW_NETWORKS: TEST_ALLOW_NETWORKS,
    XB_TOKENS: '',
    // No spare browsers unless a test asks: a test counts the browsers and processes it made.
    XB_SPARE_BROWSERS: '0',
    ...env,
  });
}

/**
 * Starts a server by the command line `command` with exactly `env`, in `cwd`; resolves once it
 * says where it listens, to that URL, the child and what it printed. Killed when the test ends,
 * unless `isKeptPastTest` (started in a `beforeAll`, its `afterAll` kills it).
 */
export async function startServerProcess(
  command: readonly string[],
  env: NodeJS.ProcessEnv,
  cwd?: string,
  isKeptPastTest = false,
  inherited: readonly (number | 'ignore')[] = [],
) {
  const [program, ...args] = command;
  if (!program) throw new Error('no command');
  // `inherited`: descriptors of the test's it starts with besides (from 3 on), as a shell's.
  const child = spawn(program, args, {
    env,
    cwd,
    stdio: ['ignore', 'pipe', 'pipe', ...inherited],
  }) as ChildProcessByStdio<null, Readable, Readable>;
  // stdout is the JSON log; stderr what is said to people (where it listens, a new token).
  const output = { stdout: '', stderr: '' };
  child.stdout.on('data', (chunk) => {
    output.stdout += chunk;
  });
  const listening = new Promise<string>((resolve, reject) => {
    child.stderr.on('data', (chunk) => {
      output.stderr += chunk;
      const url = /^xb-server listening at (\S+)$/m.exec(output.stderr)?.[1];
      if (url) resolve(url);
    });
    child.once('exit', (code) =>
      reject(new Error(`xb-server exited ${code}: ${output.stderr}${output.stdout}`)),
    );
  });
  // However the test ends, the server it started does not outlive it.
  if (!isKeptPastTest)
    onTestFinished(() => {
      if (child.exitCode === null) child.kill('SIGKILL');
    });
  const url = await listening;
  return { url, child, output };
}
