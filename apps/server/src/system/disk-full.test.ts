import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildExtensionArchive } from '@x/testing';
import { zipSync } from 'fflate';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mountsUnder } from '../sandbox/instance-disks.js';
import { type RunningServer, startServer } from '../server.js';
import { openEventStream } from '../test-support/event-stream.js';
import { processesOfServer } from '../test-support/processes.js';
import { jsonCaller, TEST_TOKEN, testConfig } from '../test-support/servers.js';
import { freeBytes } from './free-space.js';

// A data directory on a small disk of its own (a tmpfs), to fill for real: root may mount one.
const isRoot = process.getuid?.() === 0;
let mount = '';
let server: RunningServer;
const call = jsonCaller(() => server.url);

let fillers = 0;

/**
 * Fills the disk until `leave` bytes are free (files allocated for real). Something else may be
 * writing meanwhile (a recording), so it measures again and goes on until it holds.
 */
function fillLeaving(leave: number): void {
  for (let attempt = 0; attempt < 20; attempt++) {
    const size = freeBytes(mount) - leave;
    if (size <= 0) return;
    try {
      execFileSync('fallocate', ['-l', String(size), join(mount, `filler-${fillers++}`)], {
        stdio: 'ignore',
      });
    } catch {
      // Less room than measured by the time it allocated: measure again.
    }
  }
  throw new Error(`the disk at ${mount} could not be filled`);
}

beforeAll(async () => {
  if (!isRoot) return;
  mount = mkdtempSync(join(tmpdir(), 'xb-disk-full-'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=512m,mode=0700', 'tmpfs', mount]);
  server = await startServer(
    testConfig({
      XB_ALLOW_NETWORKS: '127.0.0.1/32',
      XB_DATA_DIR: mount,
      XB_PORT: '0',
      XB_TOKENS: TEST_TOKEN,
      XB_SESSION_DISK_MB: '64',
    }),
    pino({ level: 'silent' }),
  );
});
afterAll(async () => {
  if (!isRoot) return;
  await server?.close();
  execFileSync('umount', [mount]);
  rmSync(mount, { recursive: true, force: true });
});

describe.runIf(isRoot)('a full disk', () => {
  it('answers 507 insufficient_storage for a browser, a replay or an upload, with nothing half-made', async () => {
    const running = (await call<{ session_id: string }>('POST', '/browsers', {})).json.session_id;
    fillLeaving(8 * 1024 * 1024);
    const before = processesOfServer(mount).length;
    const instances = readdirSync(join(mount, 'instances'));

    const browser = await call<{ code: string; message: string }>('POST', '/browsers', {});
    expect(browser.status).toBe(507);
    expect(browser.json.code).toBe('insufficient_storage');
    expect(browser.json.message).toContain('too full to start a browser');
    const replay = await call<{ code: string }>('POST', `/browsers/${running}/replays`, {});
    expect(replay.status).toBe(507);
    // Readiness says so, with the reason.
    const ready = await fetch(`${server.url}/readyz`);
    expect(ready.status).toBe(503);
    expect(((await ready.json()) as { reasons: string[] }).reasons).toEqual([
      expect.stringMatching(
        /^the disk of the data directory is full: \d+ MiB free, a browser needs 256 MiB$/,
      ),
    ]);
    // Nothing was started, kept or left: no process, no instance, no session, no recording.
    expect(processesOfServer(mount).length).toBe(before);
    expect(readdirSync(join(mount, 'instances'))).toEqual(instances);
    expect((await call<unknown[]>('GET', '/browsers')).json).toHaveLength(1);
    expect((await call<unknown[]>('GET', `/browsers/${running}/replays`)).json).toEqual([]);

    // An upload that cannot be written: 507, and its spooled part is gone.
    fillLeaving(0);
    const form = new FormData();
    form.set('name', 'too-big');
    const archive = buildExtensionArchive({ files: { 'pad.bin': 'x'.repeat(4_000_000) } });
    form.set('file', new Blob([archive as Uint8Array<ArrayBuffer>]), 'x.zip');
    const upload = await fetch(`${server.url}/extensions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_TOKEN}` },
      body: form,
    });
    expect(upload.status).toBe(507);
    expect(readdirSync(join(mount, 'uploads'))).toEqual([]);

    // Room again: the server carries on.
    for (let index = 0; index < fillers; index++) rmSync(join(mount, `filler-${index}`));
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
    const again = await call<{ session_id: string }>('POST', '/browsers', {});
    expect(again.status).toBe(201);
    await call('DELETE', `/browsers/${again.json.session_id}`);
    await call('DELETE', `/browsers/${running}`);
  });

  it('ends a recording browser deleted on a full disk whole, and marks it deleted once it freed its room', async () => {
    const id = (await call<{ session_id: string }>('POST', '/browsers', {})).json.session_id;
    const disk = join(mount, 'instances', id);
    expect(mountsUnder(mount)).toContain(disk);
    // Recording too: its replay's record cannot be stored either.
    expect((await call('POST', `/browsers/${id}/replays`, {})).status).toBe(201);
    fillLeaving(0);
    expect(freeBytes(mount)).toBe(0);
    try {
      // The store cannot take the record at first: the browser ends all the same.
      expect((await call('DELETE', `/browsers/${id}`)).status).toBe(204);
      expect(mountsUnder(mount)).not.toContain(disk);
      expect(processesOfServer(mount)).toEqual([]);
      expect(readdirSync(join(mount, 'instances'))).toEqual([]);
      const read = await call<{ deleted_at?: string }>('GET', `/browsers/${id}`);
      expect(read.json.deleted_at).toEqual(expect.any(String));
    } finally {
      for (const name of readdirSync(mount)) {
        if (name.startsWith('filler-')) rmSync(join(mount, name));
      }
    }
  });

  it('fails an install without room on the data disk, before it starts or before its copy, leaving nothing', async () => {
    /** Deploys `files` and follows it to its end: its events. */
    const deployed = async (files: Record<string, Uint8Array>) => {
      const form = new FormData();
      form.set('file', new Blob([zipSync(files) as Uint8Array<ArrayBuffer>]), 'app.zip');
      form.set('entrypoint_rel_path', 'app.ts');
      const created = await fetch(`${server.url}/deployments`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TEST_TOKEN}` },
        body: form,
      });
      expect(created.status).toBe(201);
      const { id } = (await created.json()) as { id: string };
      const stream = await openEventStream(`${server.url}/deployments/${id}/events`, {}, 60_000);
      const events: { event: string; message?: string; deployment?: Record<string, string> }[] = [];
      for (let frame = await stream.next(); frame; frame = await stream.next()) {
        events.push(JSON.parse(frame.data));
      }
      return { id, events, last: events.at(-1)?.deployment };
    };
    const nothingLeftOf = (id: string) => {
      for (const folder of ['deployments', 'instances']) {
        const names = existsSync(join(mount, folder)) ? readdirSync(join(mount, folder)) : [];
        expect(names.filter((name) => name.startsWith(id))).toEqual([]);
      }
    };
    const code = new TextEncoder().encode('export const nothing = 1;');
    try {
      // Less than an install needs to start: refused before anything is unpacked.
      fillLeaving(128 * 1024 * 1024);
      const early = await deployed({ 'app.ts': code });
      expect(early.last).toMatchObject({
        status: 'failed',
        status_reason: expect.stringMatching(
          /^The server's data disk has \d+ bytes free, less than an install needs to start \(268435456\): deploy again once there is room\.$/,
        ),
      });
      expect(early.events.some((event) => event.message?.startsWith('Unpacking'))).toBe(false);
      nothingLeftOf(early.id);

      // Room to start, not to keep 40 MiB and the reserve besides: refused before the copy.
      for (const name of readdirSync(mount)) {
        if (name.startsWith('filler-')) rmSync(join(mount, name));
      }
      fillLeaving(280 * 1024 * 1024);
      const late = await deployed({ 'app.ts': code, 'data.bin': new Uint8Array(40 * 1024 * 1024) });
      expect(late.last).toMatchObject({
        status: 'failed',
        status_reason: expect.stringMatching(
          /^The server's data disk has \d+ bytes free, too few to keep an app of \d+ bytes: deploy again once there is room\.$/,
        ),
      });
      nothingLeftOf(late.id);
    } finally {
      for (const name of readdirSync(mount)) {
        if (name.startsWith('filler-')) rmSync(join(mount, name));
      }
    }
  }, 120_000);
});
