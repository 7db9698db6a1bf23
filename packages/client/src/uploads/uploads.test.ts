import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createClient } from '../client/create-client.js';
import { InputValidationError } from '../errors/index.js';
import { fileFromPath } from '../node/index.js';
import { startRecordingServer, useRecordingServer } from '../test-support/recording-server.js';
import * as samples from '../test-support/samples.js';

const rig = useRecordingServer();
let directory: string;
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'xb-upload-'));
});
afterAll(() => rm(directory, { recursive: true, force: true }));
beforeEach(() => {
  rig.server.reset();
  rig.server.respond('POST', '/extensions', { status: 201, json: samples.extension });
});

/** The parts of a multipart body, parsed with the platform's own parser. */
async function formOf(call: { headers: Record<string, unknown>; body: Buffer }): Promise<FormData> {
  return new Response(new Uint8Array(call.body), {
    headers: { 'content-type': String(call.headers['content-type']) },
  }).formData();
}

const zipBytes = new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2, 3]);

describe('deployments', () => {
  it('sends the archive, its fields and one part per environment variable', async () => {
    rig.server.respond('POST', '/deployments', { status: 201, json: samples.deployment });
    const deployment = await rig.client.deployments.create({
      file: new Blob([zipBytes]),
      entrypoint_rel_path: 'app.ts',
      version: 'v1',
      force: 'true',
      env_vars: { API_TOKEN: 's3cret', REGION: 'eu' },
    });
    expect(deployment).toEqual(samples.deployment);
    const form = await formOf(rig.server.calls.at(-1)!);
    expect([...form.keys()].sort()).toEqual([
      'entrypoint_rel_path',
      'env_vars[API_TOKEN]',
      'env_vars[REGION]',
      'file',
      'force',
      'version',
    ]);
    expect(form.get('env_vars[API_TOKEN]')).toBe('s3cret');
    expect(new Uint8Array(await (form.get('file') as File).arrayBuffer())).toEqual(zipBytes);
  });

  it('refuses a bad variable name before sending', async () => {
    await expect(
      rig.checkedClient.deployments.create({
        file: new Blob([zipBytes]),
        entrypoint_rel_path: 'app.ts',
        env_vars: { '1BAD': 'x' },
      }),
    ).rejects.toBeInstanceOf(InputValidationError);
    expect(rig.server.calls).toHaveLength(0);
  });
});

describe('extension uploads', () => {
  it.each([
    ['a Blob', () => new Blob([zipBytes], { type: 'application/zip' })],
    ['a File', () => new File([zipBytes], 'my-ext.zip', { type: 'application/zip' })],
    ['a Uint8Array', () => zipBytes],
    ['an ArrayBuffer', () => zipBytes.slice().buffer],
    [
      'a ReadableStream',
      () =>
        new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(zipBytes.slice(0, 3));
            controller.enqueue(zipBytes.slice(3));
            controller.close();
          },
        }),
    ],
  ])('sends %s as multipart/form-data with its name', async (_, makeFile) => {
    const extension = await rig.client.extensions.upload({ file: makeFile(), name: 'adblock' });
    expect(extension).toEqual(samples.extension);
    const call = rig.server.calls[0]!;
    expect(call.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(call.headers['idempotency-key']).toBeDefined();
    const form = await formOf(call);
    expect(form.get('name')).toBe('adblock');
    const file = form.get('file') as File;
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(zipBytes);
  });

  it('uploads a file from a path with its file name', async () => {
    const path = join(directory, 'ext.zip');
    const handle = await open(path, 'w');
    await handle.write(zipBytes);
    await handle.close();
    await rig.client.extensions.upload({ file: await fileFromPath(path, 'application/zip') });
    const file = (await formOf(rig.server.calls[0]!)).get('file') as File;
    expect(file.name).toBe('ext.zip');
    expect(file.type).toBe('application/zip');
  });

  it('reports progress up to the whole size', async () => {
    const seen: number[] = [];
    let total = 0;
    await rig.client.extensions.upload(
      { file: new Blob([new Uint8Array(300_000)]) },
      {
        onUploadProgress: (progress) => {
          seen.push(progress.transferredBytes);
          total = progress.totalBytes;
        },
      },
    );
    expect(seen.length).toBeGreaterThan(1);
    expect(seen.at(-1)).toBe(total);
    expect(total).toBeGreaterThan(300_000);
  });

  it('rejects a missing file or one of the wrong kind before sending', async () => {
    await expect(
      rig.checkedClient.extensions.upload({ name: 'x' } as never),
    ).rejects.toBeInstanceOf(InputValidationError);
    await expect(rig.checkedClient.extensions.upload({ file: 'ext.zip' as never })).rejects.toThrow(
      /file: must be a Blob/,
    );
    await expect(
      rig.checkedClient.extensions.upload({ file: new Blob([zipBytes]), name: 'bad name' }),
    ).rejects.toThrow(/name: must be/);
    expect(rig.server.calls).toHaveLength(0);
  });

  it('sends an upload once, never buffering it for a retry', async () => {
    rig.server.respond('POST', '/extensions', {
      status: 503,
      json: { code: 'unavailable', message: 'busy' },
    });
    await expect(rig.client.extensions.upload({ file: new Blob([zipBytes]) })).rejects.toThrow(
      /busy/,
    );
    expect(rig.server.calls).toHaveLength(1);
  });

  it('streams a 50 MiB file from disk, holding no more memory than raw fetch does', async () => {
    const size = 50 * 1024 * 1024;
    const path = join(directory, 'big.zip');
    const handle = await open(path, 'w');
    const chunk = Buffer.alloc(1024 * 1024, 7);
    for (let written = 0; written < size; written += chunk.byteLength) await handle.write(chunk);
    await handle.close();

    // Collect garbage before each sample, so what is measured is what an upload holds on to,
    // not chunks already sent and waiting for a lazy collector.
    setFlagsFromString('--expose_gc');
    const gc = runInNewContext('gc') as () => void;
    const memory = () => {
      gc();
      const usage = process.memoryUsage();
      return usage.heapUsed + usage.arrayBuffers;
    };
    /** Peak growth of heap and buffers while `upload` runs against a fresh server, in MiB. */
    const peakGrowth = async (upload: (url: string) => Promise<unknown>) => {
      const target = await startRecordingServer();
      target.discardBodies();
      target.respond('POST', '/extensions', {
        status: 201,
        json: { ...samples.extension, size_bytes: size },
      });
      const before = memory();
      let peak = before;
      const sampler = setInterval(() => {
        peak = Math.max(peak, memory());
      }, 100);
      try {
        await upload(target.url);
      } finally {
        clearInterval(sampler);
      }
      peak = Math.max(peak, memory());
      expect(Number(target.calls[0]!.body.toString())).toBeGreaterThanOrEqual(size);
      await target.close();
      return (peak - before) / 1024 / 1024;
    };

    const raw = await peakGrowth(async (url) => {
      const response = await fetch(`${url}/extensions`, {
        method: 'POST',
        body: await fileFromPath(path),
      });
      await response.text();
    });
    const viaClient = await peakGrowth(async (url) => {
      const uploader = createClient({ baseUrl: url, token: 't' });
      await uploader.extensions.upload({ file: await fileFromPath(path) });
    });
    console.log(
      `50 MiB upload, peak heap + buffers growth: raw fetch ${raw.toFixed(1)} MiB, client ${viaClient.toFixed(1)} MiB`,
    );
    // Buffering the archive in the client (a tee for retries, reading it into a Buffer) would add
    // its whole 50 MiB on top of whatever the runtime itself holds.
    expect(viaClient).toBeLessThan(Math.max(raw, 0) + 10);
    // 50 MiB through loopback twice: seconds alone, far longer on a loaded CI machine.
  }, 120_000);
});

describe('extensions loaded into a running browser', () => {
  it('sends each as extensions[i][name] and extensions[i][zip_file], and reads the ids', async () => {
    const answer = {
      extensions: [
        { name: 'one', extension_id: 'a'.repeat(32) },
        { name: 'two', extension_id: 'b'.repeat(32) },
      ],
    };
    rig.server.respond('POST', '/browsers/br_1/extensions', { status: 200, json: answer });
    const loaded = await rig.client.browsers.loadExtensions({
      id: 'br_1',
      extensions: [
        { name: 'one', zip_file: new Blob([zipBytes]) },
        { name: 'two', zip_file: new Blob([zipBytes]) },
      ],
    });
    expect(loaded).toEqual(answer);
    const call = rig.server.calls.find((one) => one.url === '/browsers/br_1/extensions');
    if (!call) throw new Error('no call');
    const form = await formOf(call);
    expect(form.get('extensions[0][name]')).toBe('one');
    expect(form.get('extensions[1][name]')).toBe('two');
    const second = form.get('extensions[1][zip_file]') as File;
    expect(new Uint8Array(await second.arrayBuffer())).toEqual(zipBytes);
  });

  it('refuses a folder name twice, or none, before sending', async () => {
    const zip_file = new Blob([zipBytes]);
    await expect(
      rig.checkedClient.browsers.loadExtensions({
        id: 'br_1',
        extensions: [
          { name: 'same', zip_file },
          { name: 'same', zip_file },
        ],
      }),
    ).rejects.toThrow(/must not name one folder twice/);
    await expect(
      rig.checkedClient.browsers.loadExtensions({ id: 'br_1', extensions: [] }),
    ).rejects.toThrow(InputValidationError);
    expect(rig.server.calls.filter((one) => one.url === '/browsers/br_1/extensions')).toHaveLength(
      0,
    );
  });
});
