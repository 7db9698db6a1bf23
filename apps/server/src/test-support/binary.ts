import { spawn } from 'node:child_process';
import { onTestFinished } from 'vitest';

/** The built server, as `xb-server` runs it. */
export const MAIN = new URL('../../dist/main.js', import.meta.url).pathname;

/** Starts the built server on `dataDir`; resolves to its URL, the child and what it printed. */
export async function startBinary(dataDir: string, env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [MAIN], {
    env: { ...process.env, XB_DATA_DIR: dataDir, XB_PORT: '0', XB_TOKENS: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = { stdout: '' };
  const listening = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      output.stdout += chunk;
      const url = /^xb-server listening at (\S+)$/m.exec(output.stdout)?.[1];
      if (url) resolve(url);
    });
    child.once('exit', (code) => reject(new Error(`xb-server exited ${code}: ${output.stdout}`)));
  });
  // However the test ends, the server it started does not outlive it.
  onTestFinished(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  const url = await listening;
  return { url, child, output };
}
