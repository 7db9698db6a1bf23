import type { Extension } from '@x/types';
import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { uploadExtension } from '../contract/resources.js';
import { buildExtensionArchive } from '../fixtures/extension-archive.js';
import { buildZipBomb } from '../fixtures/zip-bomb.js';
import { apiOf } from '../test-support/api.js';
import { fakeService, newBrowser } from '../test-support/fakes.js';

describe('extension uploads', () => {
  it('refuse a zip bomb by its uncompressed size with 413', async () => {
    const fake = fakeService();
    const manifest = '{"manifest_version":3,"name":"b","version":"1"}';
    const bomb = await buildZipBomb(201 * 1024 * 1024, manifest);
    expect(bomb.byteLength).toBeLessThan(1024 * 1024);
    const { answer } = await uploadExtension(apiOf(fake), bomb);
    expect(answer.status).toBe(413);
    expect(answer.json).toMatchObject({ code: 'payload_too_large' });
    expect(fake.state.extensions.size).toBe(0);
  });

  it('refuse more than 10,000 entries with 413', async () => {
    const fake = fakeService();
    const files: Record<string, Uint8Array> = {
      'manifest.json': new TextEncoder().encode('{"manifest_version":3,"name":"b","version":"1"}'),
    };
    for (let index = 0; index < 10_000; index++) files[`f${index}.txt`] = new Uint8Array();
    const { answer } = await uploadExtension(apiOf(fake), zipSync(files));
    expect(answer.status).toBe(413);
  });

  it('refuse an archive over 50 MiB with 413 and keep nothing', async () => {
    const fake = fakeService();
    const { answer } = await uploadExtension(apiOf(fake), new Uint8Array(50 * 1024 * 1024 + 1));
    expect(answer.status).toBe(413);
    expect(fake.state.extensions.size).toBe(0);
  });

  it('say what is wrong with a manifest', async () => {
    const fake = fakeService();
    const { answer } = await uploadExtension(
      apiOf(fake),
      buildExtensionArchive({ manifest: { manifest_version: 3 } }),
    );
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({
      details: [{ code: 'invalid_input', message: 'file: manifest.json lacks name, version' }],
    });
  });

  it('set last_used_at when a browser loads the extension', async () => {
    const fake = fakeService();
    const { extension } = await uploadExtension(apiOf(fake), buildExtensionArchive(), 'adblock');
    expect(extension?.last_used_at).toBeUndefined();
    await newBrowser(fake, { extensions: [{ name: 'adblock' }] });
    const [listed] = (await apiOf(fake).call('GET', '/extensions')).json as Extension[];
    expect(listed?.last_used_at).toBeDefined();
    expect(
      (await apiOf(fake).call('POST', '/browsers', { json: { extensions: [{ name: 'missing' }] } }))
        .status,
    ).toBe(404);
  });
});
