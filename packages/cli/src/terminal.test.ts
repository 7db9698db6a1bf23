import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildExtensionArchive } from '@x/testing';
import { useFakeService } from '@x/testing/vitest';
import { describe, expect, it } from 'vitest';
import { scratchFolder } from './test-support/run-xb.js';

/** The built bin, as `npx xb` runs it. */
const BIN = new URL('../dist/bin/xb.js', import.meta.url).pathname;
const ESC = String.fromCharCode(27);

const fake = useFakeService({ listen: true });

/**
 * Runs the real bin on a real pseudo-terminal (util-linux `script`), as a person at a terminal
 * would, and gives everything the terminal showed, escape sequences included.
 */
function onTerminal(args: string[]): Promise<{ code: number | null; screen: string }> {
  const command = [process.execPath, BIN, ...args]
    .map((word) => `'${word.replaceAll("'", "'\\''")}'`)
    .join(' ');
  const child = spawn('script', ['--quiet', '--return', '--command', command, '/dev/null'], {
    env: {
      ...process.env,
      XB_BASE_URL: fake.url,
      XB_TOKEN: fake.tokens.token,
      TERM: 'xterm-256color',
      NO_COLOR: '',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let screen = '';
  child.stdout.on('data', (chunk) => {
    screen += chunk;
  });
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, screen })));
}

describe('xb on a real terminal', () => {
  it('shows a bold table header and colored ids', async () => {
    await fake.fetch(`${fake.url}/browsers`, {
      method: 'POST',
      headers: { authorization: `Bearer ${fake.tokens.token}` },
    });
    const { code, screen } = await onTerminal(['browsers', 'list']);
    expect(code).toBe(0);
    expect(screen).toContain(`${ESC}[1mID`);
    expect(screen).toMatch(new RegExp(`${ESC}\\[36mbr_\\w+${ESC}\\[39m`));
  });

  it('draws an upload progress bar in place, ending at 100%', async () => {
    const zip = join(scratchFolder(), 'big.zip');
    writeFileSync(
      zip,
      buildExtensionArchive({
        files: {
          'manifest.json': '{"manifest_version":3,"name":"b","version":"1"}',
          'blob.bin': randomBytes(8 * 1024 * 1024),
        },
      }),
    );
    fake.inject({ type: 'latency', ms: 300 }, { operation: 'extensions.upload' });
    const { code, screen } = await onTerminal(['extensions', 'upload', zip, '--name', 'big']);
    expect(code).toBe(0);
    expect(screen).toContain(`\r${ESC}[2K[`);
    expect(screen).toMatch(/\[=+\] 100% {2}8\.0 MiB \/ 8\.0 MiB {2}[\d.]+ [KMG]?i?B\/s/);
    expect(screen).toMatch(
      new RegExp(`✓${ESC}\\[39m Uploaded extension ${ESC}\\[36mext_\\w+${ESC}\\[39m \\(big\\)`),
    );
  });

  it('spins while it waits for a pool, then says why it gave up', async () => {
    await fake.fetch(`${fake.url}/browser_pools`, {
      method: 'POST',
      headers: { authorization: `Bearer ${fake.tokens.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'busy', size: 1 }),
    });
    await fake.fetch(`${fake.url}/browser_pools/busy/acquire`, {
      method: 'POST',
      headers: { authorization: `Bearer ${fake.tokens.token}` },
    });
    const { code, screen } = await onTerminal([
      'pools',
      'acquire',
      'busy',
      '--acquire-timeout-seconds',
      '1',
    ]);
    expect(code).toBe(3);
    expect(screen).toMatch(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] Waiting for a browser of pool busy…/);
    expect(screen).toContain(
      `${ESC}[31merror:${ESC}[39m No browser of pool busy came free within 1 s`,
    );
  });
});
