import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { startServer } from '../server.js';
import { freeBytes } from '../system/free-space.js';
import {
  jsonCaller,
  shellRunner,
  TEST_TOKEN,
  testConfig,
  useTestServer,
} from '../test-support/servers.js';
import { mountsUnder } from './instance-disks.js';

// Mounting a disk per session needs root: elsewhere the server says so at start and runs without.
const isRoot = process.getuid?.() === 0;
const test = useTestServer({ XB_SESSION_DISK_MB: '64' });
const call = jsonCaller(() => test.server.url);
const exec = shellRunner(() => test.server.url);
const MiB = 1024 * 1024;

describe.runIf(isRoot)('a disk per session', () => {
  it('gives a session ENOSPC past its budget, never the data disk, and goes with it', async () => {
    const [writer, bystander] = await Promise.all(
      [0, 1].map(
        async () => (await call<{ session_id: string }>('POST', '/browsers', {})).json.session_id,
      ),
    );
    expect(mountsUnder(test.dataDir)).toHaveLength(2);
    const home = test.server.instance(writer as string).home;
    const free = freeBytes(test.dataDir);

    // 200 MiB into a 64 MiB home: the write fails for the writer alone.
    const flood = await exec(
      writer as string,
      'dd if=/dev/zero of=/home/browser/flood bs=1M count=200 2>&1; echo "exit $?"; df -k /home/browser | tail -n 1',
    );
    expect(flood.stdout).toContain('No space left on device');
    expect(flood.stdout).not.toContain('exit 0');
    // The home is 0700, owned by the browser's user, with nothing but what the browser made.
    expect(readdirSync(home)).not.toContain('lost+found');
    // The space was reserved when the browser started: the data disk lost nothing more to it.
    expect(Math.abs(freeBytes(test.dataDir) - free)).toBeLessThan(16 * MiB);

    // The other session writes to its own disk; the writer's browser still answers.
    const other = await exec(
      bystander as string,
      'dd if=/dev/zero of=/home/browser/file bs=1M count=16 2>&1; echo "exit $?"',
    );
    expect(other.stdout).toContain('exit 0');
    const shot = await fetch(`${test.server.url}/browsers/${writer}/computer/screenshot`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_TOKEN}` },
    });
    expect([200, 507]).toContain(shot.status);

    // Deleted: the disks are unmounted, their images gone.
    await Promise.all([writer, bystander].map((id) => call('DELETE', `/browsers/${id}`)));
    expect(mountsUnder(test.dataDir)).toEqual([]);
    expect(readdirSync(join(test.dataDir, 'instances'))).toEqual([]);
  });

  it('says at start whether sessions get a disk, and of what size', async () => {
    const startUpLine = async (disk: string) => {
      const lines: string[] = [];
      const dataDir = mkdtempSync(join(tmpdir(), 'xb-disk-line-'));
      const server = await startServer(
        testConfig({
          XB_ALLOW_NETWORKS: '127.0.0.1/32',
          XB_DATA_DIR: dataDir,
          XB_PORT: '0',
          XB_SESSION_DISK_MB: disk,
        }),
        pino({ level: 'info' }, { write: (line: string) => lines.push(line) }),
      );
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
      return lines
        .map((line) => JSON.parse(line).msg as string)
        .find((msg) => msg.startsWith('session limits'));
    };
    expect(await startUpLine('64')).toMatch(/^session limits \(cgroup v[12]\): .*disk 64 MiB/);
    expect(await startUpLine('0')).toContain(
      'turned off: a disk per session (XB_SESSION_DISK_MB=0)',
    );
  });
});

describe.runIf(isRoot)('files written through the API count against the session disk', () => {
  it('a write past it is 507 and leaves nothing; a zip too big for it is 507 before it unpacks', async () => {
    const id = (await call<{ session_id: string }>('POST', '/browsers', {})).json.session_id;
    const url = `${test.server.url}/browsers/${id}/fs`;
    const auth = { authorization: `Bearer ${TEST_TOKEN}` };
    const big = await fetch(`${url}/write_file?path=%2Fhome%2Fbrowser%2Fbig.bin`, {
      method: 'PUT',
      headers: auth,
      body: new Uint8Array(100 * MiB),
    });
    expect(big.status).toBe(507);
    expect(((await big.json()) as { message: string }).message).toContain(
      "instance's disk is full",
    );
    expect((await exec(id, 'ls -A /home/browser')).stdout).not.toMatch(/big\.bin|xb-partial/);
    const { zipSync } = await import('fflate');
    const form = new FormData();
    form.append('dest_path', '/home/browser/unzipped');
    form.append(
      'zip_file',
      new Blob([zipSync({ 'zeros.bin': new Uint8Array(100 * MiB) }) as Uint8Array<ArrayBuffer>]),
      'zeros.zip',
    );
    const zip = await fetch(`${url}/upload_zip`, { method: 'POST', headers: auth, body: form });
    expect(zip.status).toBe(507);
    expect((await exec(id, 'ls -A /home/browser/unzipped 2>/dev/null | wc -l')).stdout.trim()).toBe(
      '0',
    );
    const small = await fetch(`${url}/write_file?path=%2Fhome%2Fbrowser%2Fsmall.txt`, {
      method: 'PUT',
      headers: auth,
      body: 'fits',
    });
    expect(small.status).toBe(201);
    await call('DELETE', `/browsers/${id}`);
  });
});
