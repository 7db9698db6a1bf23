import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { processesOfServer } from './test-support/processes.js';

/** The built server, as `xb-server` runs it. */
const MAIN = new URL('../dist/main.js', import.meta.url).pathname;

describe('xb-server', () => {
  it('generates and prints a token on a first start, and leaves no Chromium behind on SIGTERM', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'xb-main-'));
    const child = spawn(process.execPath, [MAIN], {
      env: { ...process.env, XB_DATA_DIR: dataDir, XB_PORT: '0', XB_TOKENS: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    const listening = new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk) => {
        stdout += chunk;
        const url = /^xb-server listening at (\S+)$/m.exec(stdout)?.[1];
        if (url) resolve(url);
      });
      child.once('exit', (code) => reject(new Error(`xb-server exited ${code}: ${stdout}`)));
    });
    // However the test ends, the server it started does not outlive it.
    onTestFinished(() => {
      if (child.exitCode === null) child.kill('SIGKILL');
    });
    const url = await listening;
    await new Promise((resolve) => setTimeout(resolve, 100));
    const token = readFileSync(join(dataDir, 'token'), 'utf8').trim();
    expect(statSync(join(dataDir, 'token')).mode & 0o777).toBe(0o600);
    expect(stdout).toContain(`generated an API token (saved in ${dataDir}/token):\n\n  ${token}\n`);

    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    for (let index = 0; index < 2; index++) {
      expect((await fetch(`${url}/browsers`, { method: 'POST', headers, body: '{}' })).status).toBe(
        201,
      );
    }
    expect(processesOfServer(dataDir).length).toBeGreaterThanOrEqual(2);

    child.kill('SIGTERM');
    const [code] = await once(child, 'exit');
    expect(code).toBe(0);
    expect(processesOfServer(dataDir)).toEqual([]);
    // Printed once, in the banner; no log line carries it.
    expect(stdout.split(token).length - 1).toBe(1);
  });
});
