import { describe, expect, it } from 'vitest';
import { InputValidationError } from '../errors/index.js';
import { useRecordingServer } from '../test-support/recording-server.js';

const rig = useRecordingServer();

/** The parts of a multipart body the server received, by name. */
async function partsOf(body: Buffer, contentType: string): Promise<Map<string, string>> {
  const form = await new Response(new Uint8Array(body), {
    headers: { 'content-type': contentType },
  }).formData();
  const parts = new Map<string, string>();
  for (const [name, value] of form.entries())
    parts.set(name, typeof value === 'string' ? value : `file:${await value.text()}`);
  return parts;
}

describe('files on an instance, from the client', () => {
  it('writes a file from bytes or a stream with PUT and the raw body, never retried', async () => {
    rig.server.respond('PUT', '/browsers/br_1/fs/write_file', { status: 201 });
    await rig.client.browsers.fs.writeFile({
      id: 'br_1',
      path: '/home/browser/a b.txt',
      mode: '600',
      content: new TextEncoder().encode('hello'),
    });
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('chunk 1, '));
        controller.enqueue(new TextEncoder().encode('chunk 2'));
        controller.close();
      },
    });
    await rig.client.browsers.fs.writeFile({
      id: 'br_1',
      path: '/home/browser/s',
      content: stream,
    });
    const [bytes, streamed] = rig.server.calls;
    expect(bytes?.method).toBe('PUT');
    expect(bytes?.url).toBe(
      '/browsers/br_1/fs/write_file?path=%2Fhome%2Fbrowser%2Fa%20b.txt&mode=600',
    );
    expect(bytes?.headers['content-type']).toBe('application/octet-stream');
    expect(bytes?.headers['idempotency-key']).toBeUndefined();
    expect(bytes?.body.toString()).toBe('hello');
    expect(streamed?.body.toString()).toBe('chunk 1, chunk 2');

    rig.server.reset();
    rig.server.respond('PUT', '/browsers/br_1/fs/write_file', {
      status: 503,
      json: { code: 'unavailable', message: 'later' },
    });
    await expect(
      rig.client.browsers.fs.writeFile({
        id: 'br_1',
        path: '/home/browser/x',
        content: new Blob(['x']),
      }),
    ).rejects.toMatchObject({ status: 503 });
    expect(rig.server.calls).toHaveLength(1);
  });

  it('refuses a bad path or content before anything is sent', async () => {
    await expect(
      rig.checkedClient.browsers.fs.writeFile({
        id: 'br_1',
        path: 'relative',
        content: 'text' as never,
      }),
    ).rejects.toBeInstanceOf(InputValidationError);
    await expect(
      rig.checkedClient.browsers.fs.readFile({ id: 'br_1', path: 'no/slash' }),
    ).rejects.toThrow(/path: must be an absolute path/);
    expect(rig.server.calls).toHaveLength(0);
  });

  it('reads a file as a stream', async () => {
    rig.server.respond('GET', '/browsers/br_1/fs/read_file', {
      status: 200,
      headers: { 'content-type': 'application/octet-stream' },
      body: new Uint8Array([1, 2, 3]),
    });
    const file = await rig.client.browsers.fs.readFile({ id: 'br_1', path: '/home/browser/f' });
    expect(file.contentLength).toBe(3);
    expect(await file.bytes()).toEqual(new Uint8Array([1, 2, 3]));
    expect(rig.server.calls[0]?.url).toBe('/browsers/br_1/fs/read_file?path=%2Fhome%2Fbrowser%2Ff');
  });

  it('uploads many files as files[i][dest_path] and files[i][file] parts', async () => {
    rig.server.respond('POST', '/browsers/br_1/fs/upload', { status: 201 });
    await rig.client.browsers.fs.upload({
      id: 'br_1',
      files: [
        { dest_path: '/home/browser/one.txt', file: new Blob(['one']) },
        { dest_path: '/home/browser/two.txt', file: new File(['two'], 'two.txt') },
      ],
    });
    const call = rig.server.calls[0];
    const parts = await partsOf(call?.body as Buffer, call?.headers['content-type'] as string);
    expect([...parts]).toEqual([
      ['files[0][dest_path]', '/home/browser/one.txt'],
      ['files[0][file]', 'file:one'],
      ['files[1][dest_path]', '/home/browser/two.txt'],
      ['files[1][file]', 'file:two'],
    ]);
    await expect(rig.checkedClient.browsers.fs.upload({ id: 'br_1', files: [] })).rejects.toThrow(
      /files: must hold at least one file/,
    );
  });

  it('uploads a zip and downloads a directory as one', async () => {
    rig.server.respond('POST', '/browsers/br_1/fs/upload_zip', { status: 201 });
    // The client carries the bytes as they are; what a zip holds is the server's to read.
    const zip = Uint8Array.from([0x50, 0x4b, 0x05, 0x06, ...new Array(18).fill(0)]);
    await rig.client.browsers.fs.uploadZip({
      id: 'br_1',
      dest_path: '/home/browser/unpacked',
      zip_file: new Blob([zip as Uint8Array<ArrayBuffer>]),
    });
    const call = rig.server.calls[0];
    const parts = await partsOf(call?.body as Buffer, call?.headers['content-type'] as string);
    expect(parts.get('dest_path')).toBe('/home/browser/unpacked');

    rig.server.respond('GET', '/browsers/br_1/fs/download_dir_zip', {
      status: 200,
      headers: { 'content-type': 'application/zip' },
      body: zip,
    });
    const download = await rig.client.browsers.fs.downloadDirZip({
      id: 'br_1',
      path: '/home/browser',
    });
    expect(download.contentType).toBe('application/zip');
    expect(await download.bytes()).toEqual(zip);
  });
});
