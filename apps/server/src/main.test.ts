import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/** The built server, as `xb-server` runs it. */
const MAIN = new URL('../dist/main.js', import.meta.url).pathname;

/** Ids of the processes whose command line mentions `text`, read from /proc. */
function processesWith(text: string): string[] {
  return readdirSync('/proc').filter((entry) => {
    if (!/^\d+$/.test(entry)) return false;
    try {
      return readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(text);
    } catch {
      return false; // It ended while the list was read.
    }
  });
}

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
        const line = stdout.split('\n').find((entry) => entry.includes('"msg":"listening"'));
        if (line) resolve((JSON.parse(line) as { url: string }).url);
      });
      child.once('exit', (code) => reject(new Error(`xb-server exited ${code}: ${stdout}`)));
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
    expect(processesWith(dataDir).length).toBeGreaterThanOrEqual(2);

    child.kill('SIGTERM');
    const [code] = await once(child, 'exit');
    expect(code).toBe(0);
    expect(processesWith(dataDir)).toEqual([]);
    // Printed once, in the banner; no log line carries it.
    expect(stdout.split(token).length - 1).toBe(1);
  });
});
