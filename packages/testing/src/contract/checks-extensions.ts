import { LIMITS } from '@x/types';
import { type AsyncZipOptions, type Zippable, zip, zipSync } from 'fflate';
import { buildExtensionArchive } from '../fixtures/extension-archive.js';
import { buildZipBomb } from '../fixtures/zip-bomb.js';
import { type ContractCheck, defineChecks } from './check.js';
import { expect } from './context.js';
import { createBrowser, uniqueName, uploadExtension } from './resources.js';

/** A form loading `archives` into a running browser, each under its folder name. */
function loadForm(archives: Record<string, Uint8Array>): FormData {
  const form = new FormData();
  Object.entries(archives).forEach(([name, archive], index) => {
    form.set(`extensions[${index}][name]`, name);
    form.set(
      `extensions[${index}][zip_file]`,
      new Blob([archive as Uint8Array<ArrayBuffer>], { type: 'application/zip' }),
      `${name}.zip`,
    );
  });
  return form;
}

/** Archives the service must refuse with 400, by what is wrong with them. */
function badArchives(): Record<string, Uint8Array> {
  const valid = buildExtensionArchive();
  return {
    'not a zip': new TextEncoder().encode('this is not a zip archive'),
    truncated: valid.subarray(0, Math.floor(valid.byteLength / 2)),
    'no manifest.json': buildExtensionArchive({ manifest: null, files: { 'content.js': '1;' } }),
    'manifest.json not JSON': buildExtensionArchive({ manifest: '{ not json' }),
    'manifest.json without version': buildExtensionArchive({
      manifest: { manifest_version: 3, name: 'x' },
    }),
    'manifest.json only in a folder': zipSync({
      'inner/manifest.json': new TextEncoder().encode(
        '{"manifest_version":3,"name":"x","version":"1"}',
      ),
    }),
    'an entry escaping the root': buildExtensionArchive({
      manifest: { manifest_version: 3, name: 'x', version: '1' },
      files: { '../escape.js': 'evil();' },
    }),
    'an entry whose file name is past 255 bytes': buildExtensionArchive({
      manifest: { manifest_version: 3, name: 'x', version: '1' },
      files: { [`${'n'.repeat(300)}.js`]: '1;' },
    }),
  };
}

let oversized: Promise<Record<string, Uint8Array>> | undefined;

/** The manifest of the archives past the size limits. */
const BOMB_MANIFEST = '{"manifest_version":3,"name":"big","version":"1"}';

/**
 * Zips in fflate's worker, off the event loop: seconds spent compressing there would hold back
 * the caller's timers, its keep-alive ones among them, and a connection the server closed as idle
 * meanwhile would be taken for the next call (an ECONNRESET that is no one's fault).
 */
function zipAside(files: Zippable, options: AsyncZipOptions): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    zip(files, options, (error, data) => (error ? reject(error) : resolve(data)));
  });
}

/** Archives past the size limits, by what is too big; built once, they take a few seconds. */
function oversizedArchives(): Promise<Record<string, Uint8Array>> {
  oversized ??= (async () => {
    const manifest = new TextEncoder().encode(BOMB_MANIFEST);
    const tooLarge = new Uint8Array(LIMITS.extensionArchiveBytes + 1);
    tooLarge.set(buildExtensionArchive());
    const tooMany: Record<string, Uint8Array> = { 'manifest.json': manifest };
    for (let index = 0; index < LIMITS.extensionEntries; index++)
      tooMany[`f${index}`] = new Uint8Array();
    return {
      'over 50 MiB': tooLarge,
      'a zip bomb': await buildZipBomb(LIMITS.extensionUncompressedBytes + 1, BOMB_MANIFEST),
      'too many entries': await zipAside(tooMany, { level: 0 }),
    };
  })();
  return oversized;
}

/** Extensions, with upload (4.4). */
export const extensionChecks: readonly ContractCheck[] = defineChecks('extensions', {
  'upload (4.4) answers 201 with size_bytes of the archive and no last_used_at': async (
    context,
  ) => {
    const archive = buildExtensionArchive();
    const { answer } = await uploadExtension(context, archive, uniqueName('ext'));
    const extension = context.expectSuccess<{ size_bytes: number; last_used_at?: string }>(
      answer,
      'extensions.upload',
      201,
    );
    expect(
      extension.size_bytes === archive.byteLength,
      `size_bytes is ${extension.size_bytes}, the archive ${archive.byteLength}`,
    );
    expect(extension.last_used_at === undefined, 'a new extension has last_used_at');
  },
  'metadata answers the record with the SHA-256 of the archive, by id or name; unknown is 404':
    async (context) => {
      const archive = buildExtensionArchive();
      const name = uniqueName('ext');
      const { extension } = await uploadExtension(context, archive, name);
      expect(extension, 'the upload failed');
      const digest = new Uint8Array(
        await crypto.subtle.digest('SHA-256', archive as Uint8Array<ArrayBuffer>),
      );
      const sha256 = [...digest].map((byte) => byte.toString(16).padStart(2, '0')).join('');
      for (const key of [extension.id, name]) {
        const metadata = context.expectSuccess<{
          id: string;
          name?: string;
          size_bytes: number;
          checksum?: string;
        }>(await context.call('GET', `/extensions/${key}/metadata`), 'extensions.metadata', 200);
        expect(
          metadata.id === extension.id &&
            metadata.name === name &&
            metadata.size_bytes === archive.byteLength &&
            metadata.checksum === sha256,
          `metadata by ${key} reads ${JSON.stringify(metadata)}, the archive's SHA-256 is ${sha256}`,
        );
      }
      context.expectError(
        await context.call('GET', '/extensions/no-such-extension/metadata'),
        404,
        'not_found',
      );
    },
  'load puts extensions into a running browser and answers their ids; a bad one loads none': async (
    context,
  ) => {
    const { session_id: id } = await createBrowser(context);
    const loaded = context.expectSuccess<{ extensions: { name: string; extension_id: string }[] }>(
      await context.call('POST', `/browsers/${id}/extensions`, {
        body: loadForm({ first: buildExtensionArchive(), second: buildExtensionArchive() }),
      }),
      'browsers.loadExtensions',
      200,
    );
    const [first, second] = loaded.extensions;
    expect(
      loaded.extensions.length === 2 &&
        first?.name === 'first' &&
        second?.name === 'second' &&
        /^[a-p]{32}$/.test(first.extension_id) &&
        /^[a-p]{32}$/.test(second.extension_id) &&
        first.extension_id !== second.extension_id,
      `load answered ${JSON.stringify(loaded)}`,
    );
    // Its files are the session's: the folder it was unpacked into is listed.
    const listed = context.expectSuccess<{ name: string }[]>(
      await context.call('GET', `/browsers/${id}/fs/list_files?path=/home/browser/.extensions`),
      'browsers.fs.listFiles',
      200,
    );
    expect(
      listed
        .map((entry) => entry.name)
        .sort()
        .join(',') === 'first,second',
      `~/.extensions holds ${listed.map((entry) => entry.name).join(', ')}`,
    );
    const notZip = new TextEncoder().encode('not a zip');
    context.expectError(
      await context.call('POST', `/browsers/${id}/extensions`, {
        body: loadForm({ third: buildExtensionArchive(), broken: notZip }),
      }),
      400,
      'bad_request',
    );
    const after = context.expectSuccess<{ name: string }[]>(
      await context.call('GET', `/browsers/${id}/fs/list_files?path=/home/browser/.extensions`),
      'browsers.fs.listFiles',
      200,
    );
    expect(
      !after.some((entry) => entry.name === 'third'),
      'a call with a bad archive unpacked the good one before it',
    );
    const twice = new FormData();
    for (const index of [0, 1]) {
      twice.set(`extensions[${index}][name]`, 'same');
      twice.set(
        `extensions[${index}][zip_file]`,
        new Blob([buildExtensionArchive() as Uint8Array<ArrayBuffer>]),
        'same.zip',
      );
    }
    context.expectError(
      await context.call('POST', `/browsers/${id}/extensions`, { body: twice }),
      400,
      'bad_request',
    );
    context.expectError(
      await context.call('POST', '/browsers/br_nothere/extensions', {
        body: loadForm({ first: buildExtensionArchive() }),
      }),
      404,
      'not_found',
    );
  },
  'a duplicate name is 409': async (context) => {
    const name = uniqueName('ext');
    await uploadExtension(context, buildExtensionArchive(), name);
    const { answer } = await uploadExtension(context, buildExtensionArchive(), name);
    context.expectError(answer, 409, 'conflict');
  },
  'bad archives are 400 and leave nothing behind': async (context) => {
    const before = context.expectSuccess<unknown[]>(
      await context.call('GET', '/extensions'),
      'extensions.list',
      200,
    );
    for (const [problem, archive] of Object.entries(badArchives())) {
      const { answer } = await uploadExtension(context, archive, uniqueName('bad'));
      expect(
        answer.status === 400,
        `an archive with ${problem} answered ${answer.status}: ${answer.text.slice(0, 200)}`,
      );
      context.expectError(answer, 400, 'bad_request');
    }
    const after = context.expectSuccess<unknown[]>(
      await context.call('GET', '/extensions'),
      'extensions.list',
      200,
    );
    expect(
      after.length === before.length,
      `rejected uploads left ${after.length - before.length} extension(s)`,
    );
  },
  'an archive over 50 MiB, or one that unpacks past the limits, is 413 and leaves nothing': async (
    context,
  ) => {
    const archives = await oversizedArchives();
    const before = context.expectSuccess<unknown[]>(
      await context.call('GET', '/extensions'),
      'extensions.list',
      200,
    );
    for (const [problem, archive] of Object.entries(archives)) {
      const { answer } = await uploadExtension(context, archive, uniqueName('big'));
      expect(
        answer.status === 413,
        `an archive with ${problem} answered ${answer.status}: ${answer.text.slice(0, 200)}`,
      );
      context.expectError(answer, 413, 'payload_too_large');
    }
    const after = context.expectSuccess<unknown[]>(
      await context.call('GET', '/extensions'),
      'extensions.list',
      200,
    );
    expect(after.length === before.length, 'a refused upload left an extension behind');
  },
  'an upload without a file is 400; one that is not multipart is 415': async (context) => {
    const form = new FormData();
    form.set('name', uniqueName('nofile'));
    context.expectError(
      await context.call('POST', '/extensions', { body: form }),
      400,
      'bad_request',
    );
    context.expectError(
      await context.call('POST', '/extensions', { json: { name: 'x' } }),
      415,
      'unsupported_media_type',
    );
  },
  'list, download (the same bytes) and delete; then 404': async (context) => {
    const archive = buildExtensionArchive();
    const name = uniqueName('ext');
    const { extension } = await uploadExtension(context, archive, name);
    expect(extension, 'the upload failed');
    const list = context.expectSuccess<{ id: string }[]>(
      await context.call('GET', '/extensions'),
      'extensions.list',
      200,
    );
    expect(
      list.some((entry) => entry.id === extension.id),
      'the list lacks the extension',
    );
    const download = await context.call('GET', `/extensions/${name}`);
    context.expectSuccess(download, 'extensions.download', 200);
    expect(
      Buffer.from(download.bytes).equals(Buffer.from(archive)),
      'the download differs from the upload',
    );
    context.expectSuccess(
      await context.call('DELETE', `/extensions/${extension.id}`),
      'extensions.delete',
      204,
    );
    context.expectError(await context.call('GET', `/extensions/${extension.id}`), 404, 'not_found');
  },
});
