import { describe, expect, it } from 'vitest';
import { ServiceError } from '../service-error.js';
import { newTestBrowser as newBrowser } from '../test-support/memory-engines.js';

const bytes = (text: string) => new Blob([text]).stream() as unknown as ReadableStream<Uint8Array>;

async function refusal(work: Promise<unknown>): Promise<ServiceError> {
  try {
    await work;
  } catch (error) {
    if (error instanceof ServiceError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('the file model', () => {
  it('bounds the file operations of one browser at once; a read holds its place until its stream ends', async () => {
    const { model, id } = await newBrowser();
    await model.files.write(id, '/home/browser/f', '644', bytes('f'));
    const reads = await Promise.all(
      Array.from({ length: 8 }, () => model.files.read(id, '/home/browser/f')),
    );
    const refused = await refusal(model.files.info(id, '/home/browser/f'));
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('1');
    await reads[0]?.stream.cancel();
    await new Response(reads[1]?.stream).text();
    await expect(model.files.info(id, '/home/browser/f')).resolves.toMatchObject({ size_bytes: 1 });
    for (const read of reads.slice(2)) await read.stream.cancel();
  });

  it('keeps a write past the limit of its call out, whole', async () => {
    const { model, id, instance } = await newBrowser();
    const tooMuch = new Blob([
      new Uint8Array(2 * 1024 * 1024),
    ]).stream() as unknown as ReadableStream<Uint8Array>;
    const refused = await refusal(model.files.write(id, '/home/browser/big', '644', tooMuch));
    expect(refused.status).toBe(507);
    expect(instance.files.kind('/home/browser/big')).toBeUndefined();
  });

  it('refuses set-id bits, other owners, the home itself, and paths outside it', async () => {
    const { model, id } = await newBrowser();
    await model.files.write(id, '/home/browser/f', '644', bytes('f'));
    expect(
      (await refusal(model.files.setPermissions(id, { path: '/home/browser/f', mode: '2755' })))
        .status,
    ).toBe(400);
    expect(
      (
        await refusal(
          model.files.setPermissions(id, { path: '/home/browser/f', mode: '644', group: 'root' }),
        )
      ).message,
    ).toContain('browser');
    expect((await refusal(model.files.removeDirectory(id, '/home/browser/'))).status).toBe(400);
    expect((await refusal(model.files.move(id, '/home/browser', '/home/browser/x'))).status).toBe(
      400,
    );
    const outside = await refusal(model.files.list(id, '/home/browser/../root'));
    expect(outside.details?.[0]?.message).toBe(
      'query.path: /home/browser/../root leads outside /home/browser',
    );
  });
});
