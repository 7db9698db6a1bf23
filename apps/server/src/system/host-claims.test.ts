import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HostClaims, processStartTime } from './host-claims.js';

/** A host's coordination folder of the test's own (never the machine's /run/xb-server). */
const hostFolder = () => mkdtempSync(join(tmpdir(), 'xb-host-'));

describe("the host's claims", () => {
  it('lets one server hold a name; another sees who holds it; given back, it is free', async () => {
    const folder = hostFolder();
    const one = new HostClaims('/data/one', folder);
    const two = new HostClaims('/data/two', folder);
    await one.withLock(async () => {
      expect(one.heldByOther('subnet-10-200-0-0-16')).toBeUndefined();
      one.take('subnet-10-200-0-0-16');
    });
    await two.withLock(async () => {
      expect(two.heldByOther('subnet-10-200-0-0-16')).toMatchObject({
        pid: process.pid,
        dataDir: '/data/one',
      });
    });
    // Its own claim is not another's.
    expect(one.heldByOther('subnet-10-200-0-0-16')).toBeUndefined();
    one.releaseAll();
    expect(two.heldByOther('subnet-10-200-0-0-16')).toBeUndefined();
  });

  it('treats a claim whose process has ended as free, and finds it by the data directory that left it', async () => {
    const folder = hostFolder();
    const child = spawn(process.execPath, ['-e', '0']);
    const pid = child.pid as number;
    const startTime = processStartTime(pid) ?? '1';
    await once(child, 'exit');
    const next = new HostClaims('/data/crashed', folder);
    writeFileSync(
      join(folder, 'claims', 'net-abcd'),
      JSON.stringify({ pid, startTime, dataDir: '/data/crashed' }),
    );
    expect(next.heldByOther('net-abcd')).toBeUndefined();
    expect(next.left('net-')).toEqual(['net-abcd']);
    expect(next.left('subnet-')).toEqual([]);
    // A live server's claim is never left, nor forgotten.
    const live = new HostClaims('/data/live', folder);
    live.take('net-beef');
    next.forget('net-beef');
    expect(next.left('net-')).toEqual(['net-abcd']);
    next.forget('net-abcd');
    expect(next.left('net-')).toEqual([]);
    expect(next.heldByOther('net-beef')).toMatchObject({ dataDir: '/data/live' });
  });

  it('takes the lock one at a time: work under it never overlaps', async () => {
    const folder = hostFolder();
    const servers = [0, 1, 2, 3].map((index) => new HostClaims(`/data/${index}`, folder));
    let inside = 0;
    let most = 0;
    await Promise.all(
      servers.map((server) =>
        server.withLock(async () => {
          inside++;
          most = Math.max(most, inside);
          await new Promise((resolve) => setTimeout(resolve, 50));
          inside--;
        }),
      ),
    );
    expect(most).toBe(1);
  });

  it('gives the lock back when its work throws, and refuses a name that is not one', async () => {
    const folder = hostFolder();
    const claims = new HostClaims('/data/one', folder);
    await expect(
      claims.withLock(async () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    await expect(claims.withLock(async () => 'again')).resolves.toBe('again');
    expect(() => claims.take('../escape')).toThrow(/not a claim name/);
    expect(readdirSync(join(folder, 'claims'))).toEqual([]);
  });
});
