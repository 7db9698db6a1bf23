import { createHash } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { buildExtensionArchive } from '@x/testing';
import { type ErrorBody, type Extension, LIMITS } from '@x/types';
import { zipSync } from 'fflate';
import { describe, expect, it, vi } from 'vitest';
import { TEST_TOKEN, useTestServer } from '../test-support/servers.js';

const target = useTestServer();
const encoder = new TextEncoder();
const manifest = encoder.encode('{"manifest_version":3,"name":"x","version":"1"}');

/** Every file and folder under `folder`, relative to it; none when it does not exist. */
function filesUnder(folder: string): string[] {
  if (!existsSync(folder)) return [];
  return readdirSync(folder, { recursive: true, encoding: 'utf8' }).sort();
}

/** What the server keeps of uploads on disk: the spool and the extension store. */
function uploadFiles() {
  return {
    uploads: filesUnder(join(target.dataDir, 'uploads')),
    extensions: filesUnder(join(target.dataDir, 'extensions')),
  };
}

/** Resolves once `condition` holds; fails the test after 10 s. */
const until = (condition: () => boolean) =>
  vi.waitUntil(condition, { timeout: 10_000, interval: 20 });

function form(archive: Uint8Array, name?: string): FormData {
  const body = new FormData();
  body.set('file', new Blob([archive as Uint8Array<ArrayBuffer>]), 'extension.zip');
  if (name !== undefined) body.set('name', name);
  return body;
}

let names = 0;
const uniqueName = () => `upload-${++names}`;

/**
 * Rewrites the uncompressed size an archive declares for one entry, in its central directory and
 * its local header: the sizes a zip bomb lies about.
 */
function declareSize(archive: Uint8Array, entry: string, size: number): Uint8Array {
  const patched = archive.slice();
  const view = new DataView(patched.buffer);
  const nameBytes = encoder.encode(entry);
  const nameAt = (offset: number) =>
    Buffer.from(patched.subarray(offset, offset + nameBytes.length)).equals(nameBytes);
  let patches = 0;
  for (let offset = 0; offset + 46 < patched.length; offset++) {
    const signature = view.getUint32(offset, true);
    if (signature === 0x04034b50 && view.getUint16(offset + 26, true) === nameBytes.length) {
      if (nameAt(offset + 30)) {
        view.setUint32(offset + 22, size, true);
        patches++;
      }
    } else if (signature === 0x02014b50 && view.getUint16(offset + 28, true) === nameBytes.length) {
      if (nameAt(offset + 46)) {
        view.setUint32(offset + 24, size, true);
        patches++;
      }
    }
  }
  if (patches !== 2) throw new Error(`entry ${entry} not found in both headers`);
  return patched;
}

/** A multipart body's framing around one file part, for bodies sent by hand. */
function framing(boundary: string) {
  return {
    head: encoder.encode(
      `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="big.zip"\r\n` +
        'content-type: application/zip\r\n\r\n',
    ),
    tail: encoder.encode(`\r\n--${boundary}--\r\n`),
  };
}

describe('extension uploads on the server', () => {
  it('refuses a corpus of bad archives with the status the contract names, writing nothing', async () => {
    const valid = buildExtensionArchive();
    const tooMany: Record<string, Uint8Array> = { 'manifest.json': manifest };
    for (let index = 0; index < LIMITS.extensionEntries; index++)
      tooMany[`f${index}`] = new Uint8Array();
    const oversized = new Uint8Array(LIMITS.extensionArchiveBytes + 1);
    oversized.set(valid);
    const corpus: [string, Uint8Array, number, string][] = [
      ['not a zip', encoder.encode('plain text, not a zip'), 400, 'not a zip archive'],
      ['a truncated zip', valid.subarray(0, valid.length - 30), 400, 'not a zip archive'],
      ['no manifest.json', zipSync({ 'content.js': encoder.encode('1;') }), 400, 'missing'],
      [
        'manifest.json not JSON',
        buildExtensionArchive({ manifest: '{ nope' }),
        400,
        'not valid JSON',
      ],
      [
        'a manifest without version',
        buildExtensionArchive({ manifest: { manifest_version: 3, name: 'x' } }),
        400,
        'lacks version',
      ],
      [
        'an entry escaping the root',
        zipSync({ 'manifest.json': manifest, '../../escape.js': encoder.encode('evil();') }),
        400,
        'outside the extension folder',
      ],
      [
        'an absolute entry',
        zipSync({ 'manifest.json': manifest, '/etc/cron.d/evil': encoder.encode('* * * * *') }),
        400,
        'outside the extension folder',
      ],
      [
        'a bomb by its declared sizes',
        declareSize(
          zipSync({ 'manifest.json': manifest, 'zeros.bin': new Uint8Array(1024) }),
          'zeros.bin',
          LIMITS.extensionUncompressedBytes + 1,
        ),
        413,
        'unpacks to more than',
      ],
      [
        'a bomb lying about its sizes',
        declareSize(
          zipSync({ 'manifest.json': manifest, 'zeros.bin': new Uint8Array(4 * 1024 * 1024) }),
          'zeros.bin',
          1000,
        ),
        400,
        'larger than it declares',
      ],
      [
        'an entry named longer than the limit',
        zipSync({ 'manifest.json': manifest, [`${'d/'.repeat(600)}x.js`]: encoder.encode('1;') }),
        400,
        'more than 1024',
      ],
      [
        'an entry with a file name past 255 bytes',
        zipSync({ 'manifest.json': manifest, [`${'n'.repeat(300)}.js`]: encoder.encode('1;') }),
        400,
        'longer than 255 bytes',
      ],
      ['too many entries', zipSync(tooMany, { level: 0 }), 413, 'more than 10000 entries'],
      ['an archive over 50 MiB', oversized, 413, 'larger than'],
    ];
    const before = uploadFiles();
    const listed = (await target.api.call('GET', '/extensions')).json as Extension[];
    for (const [problem, archive, status, words] of corpus) {
      const answer = await target.api.call('POST', '/extensions', {
        body: form(archive, uniqueName()),
      });
      expect({ problem, status: answer.status }).toEqual({ problem, status });
      expect((answer.json as ErrorBody).message, problem).toContain(words);
      expect(uploadFiles(), problem).toEqual(before);
    }
    expect((await target.api.call('GET', '/extensions')).json).toEqual(listed);
  });

  it('stores an archive once under its SHA-256, keeps it for another name, and removes it with the last', async () => {
    const archive = buildExtensionArchive({ files: { 'a.js': 'shared();' } });
    const first = await target.api.call('POST', '/extensions', { body: form(archive, 'twin-a') });
    const second = await target.api.call('POST', '/extensions', { body: form(archive, 'twin-b') });
    expect([first.status, second.status]).toEqual([201, 201]);
    const sha = createHash('sha256').update(archive).digest('hex');
    expect(uploadFiles().extensions).toEqual(
      expect.arrayContaining([`${sha}.zip`, sha, `${sha}/a.js`, `${sha}/manifest.json`]),
    );
    expect((await target.api.call('DELETE', '/extensions/twin-a')).status).toBe(204);
    expect(uploadFiles().extensions).toContain(`${sha}.zip`);
    const download = await target.api.call('GET', '/extensions/twin-b');
    expect(Buffer.from(download.bytes).equals(Buffer.from(archive))).toBe(true);
    expect(download.headers.get('content-length')).toBe(String(archive.length));
    expect((await target.api.call('DELETE', '/extensions/twin-b')).status).toBe(204);
    expect(uploadFiles().extensions.filter((file) => file.startsWith(sha))).toEqual([]);
  });

  it('answers 409 for a taken name and keeps only the first archive', async () => {
    expect(
      (
        await target.api.call('POST', '/extensions', {
          body: form(buildExtensionArchive(), 'taken'),
        })
      ).status,
    ).toBe(201);
    const before = uploadFiles();
    const other = buildExtensionArchive({ files: { 'other.js': 'other();' } });
    const answer = await target.api.call('POST', '/extensions', { body: form(other, 'taken') });
    expect(answer.status).toBe(409);
    expect(uploadFiles()).toEqual(before);
  });

  it('answers a repeated Idempotency-Key once, and 422 when the archive differs', async () => {
    const archive = buildExtensionArchive({ files: { 'once.js': 'once();' } });
    const headers = { 'idempotency-key': 'upload-once' };
    const name = uniqueName();
    const first = await target.api.call('POST', '/extensions', {
      body: form(archive, name),
      headers,
    });
    const again = await target.api.call('POST', '/extensions', {
      body: form(archive, name),
      headers,
    });
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(again.json).toEqual(first.json);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    const other = buildExtensionArchive({ files: { 'twice.js': 'twice();' } });
    const reused = await target.api.call('POST', '/extensions', {
      body: form(other, name),
      headers,
    });
    expect(reused.status).toBe(422);
  });

  it('answers 400 for a form that is malformed or cut short, and 401 before reading a body', async () => {
    const before = uploadFiles();
    const boundary = 'xb-boundary';
    const { head } = framing(boundary);
    const cutShort = await target.api.call('POST', '/extensions', {
      body: Buffer.concat([head, buildExtensionArchive()]),
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
    expect(cutShort.status).toBe(400);
    expect((cutShort.json as ErrorBody).details?.[0]?.message).toContain('malformed');
    const noBoundary = await target.api.call('POST', '/extensions', {
      body: 'x',
      headers: { 'content-type': 'multipart/form-data' },
    });
    expect(noBoundary.status).toBe(400);
    const twice = new FormData();
    twice.append('file', new Blob([buildExtensionArchive() as Uint8Array<ArrayBuffer>]), 'a.zip');
    twice.append('file', new Blob([buildExtensionArchive() as Uint8Array<ArrayBuffer>]), 'b.zip');
    const repeated = await target.api.call('POST', '/extensions', { body: twice });
    expect(repeated.status).toBe(400);
    expect((repeated.json as ErrorBody).message).toContain('given twice');
    const anonymous = await target.api.call('POST', '/extensions', {
      body: form(buildExtensionArchive(), uniqueName()),
      token: null,
    });
    expect(anonymous.status).toBe(401);
    expect(uploadFiles()).toEqual(before);
  });

  it('answers 413 for a body past the limit sent without a length, and keeps none of it', async () => {
    const before = uploadFiles();
    const boundary = 'xb-chunked';
    const { head, tail } = framing(boundary);
    const chunk = new Uint8Array(1024 * 1024);
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(head);
      },
      pull(controller) {
        if (sent > LIMITS.extensionArchiveBytes + 1024 * 1024) {
          controller.enqueue(tail);
          controller.close();
          return;
        }
        sent += chunk.length;
        controller.enqueue(chunk);
      },
    });
    const response = await fetch(`${target.server.url}/extensions`, {
      method: 'POST',
      body,
      duplex: 'half',
      headers: {
        authorization: `Bearer ${TEST_TOKEN}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
      },
    } as RequestInit);
    expect(response.status).toBe(413);
    expect(((await response.json()) as ErrorBody).code).toBe('payload_too_large');
    await until(() => filesUnder(join(target.dataDir, 'uploads')).length === 0);
    expect(uploadFiles()).toEqual(before);
  });

  it('spools an upload to disk as it arrives, and removes it when the caller goes away', async () => {
    const before = uploadFiles();
    const boundary = 'xb-interrupted';
    const { head } = framing(boundary);
    const request = httpRequest(`${target.server.url}/extensions`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${TEST_TOKEN}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': String(20 * 1024 * 1024),
      },
    });
    request.on('error', () => undefined); // The socket is destroyed on purpose.
    request.write(head);
    for (let index = 0; index < 5; index++) request.write(new Uint8Array(1024 * 1024));
    // Half the body is on the server's disk before the rest is sent: it is streamed, not held.
    await until(() => filesUnder(join(target.dataDir, 'uploads')).length === 1);
    request.destroy();
    await until(() => filesUnder(join(target.dataDir, 'uploads')).length === 0);
    expect(uploadFiles()).toEqual(before);
    expect((await target.api.call('GET', '/healthz')).status).toBe(200);
  });
});
