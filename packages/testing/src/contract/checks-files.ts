import { type FileEntry, INSTANCE_HOME } from '@x/types';
import { unzipSync, zipSync } from 'fflate';
import { type ContractCheck, defineChecks } from './check.js';
import { type ContractContext, expect } from './context.js';
import { createBrowser } from './resources.js';

const encoder = new TextEncoder();
/** The `path` query of a file operation. */
export const at = (path: string) => `path=${encodeURIComponent(path)}`;

/** A browser's file operations, as calls of the API. */
async function filesOf(context: ContractContext) {
  const { session_id: id } = await createBrowser(context);
  const base = `/browsers/${id}/fs`;
  return {
    write: (path: string, body: BodyInit, query = '') =>
      context.call('PUT', `${base}/write_file?${at(path)}${query}`, {
        body,
        headers: { 'content-type': 'application/octet-stream' },
      }),
    get: (operation: string, path: string) =>
      context.call('GET', `${base}/${operation}?${at(path)}`),
    put: (operation: string, json: unknown) =>
      context.call('PUT', `${base}/${operation}`, { json }),
    post: (operation: string, body: FormData) =>
      context.call('POST', `${base}/${operation}`, { body }),
  };
}

/** Files on instances: bytes in and out, entries, changes, uploads and zips, every refusal. */
export const fileChecks: readonly ContractCheck[] = defineChecks('files', {
  'a written file reads back byte for byte, and is listed and described': async (context) => {
    const files = await filesOf(context);
    const bytes = Uint8Array.from({ length: 70_000 }, (_, index) => (index * 7) % 256);
    const path = `${INSTANCE_HOME}/data/blob.bin`;
    context.expectSuccess(
      await files.write(path, bytes, '&mode=600'),
      'browsers.fs.writeFile',
      201,
    );
    const read = await files.get('read_file', path);
    context.expectSuccess(read, 'browsers.fs.readFile', 200);
    expect(
      read.bytes.byteLength === bytes.byteLength &&
        read.bytes.every((byte, i) => byte === bytes[i]),
      `read_file gave ${read.bytes.byteLength} other bytes`,
    );
    const info = context.expectSuccess<FileEntry>(
      await files.get('file_info', path),
      'browsers.fs.fileInfo',
      200,
    );
    expect(
      info.name === 'blob.bin' && info.path === path && !info.is_dir && info.size_bytes === 70_000,
      `file_info gave ${JSON.stringify(info)}`,
    );
    expect(info.mode === '600', `the mode is ${info.mode}, not 600`);
    context.expectSuccess(
      await files.write(`${INSTANCE_HOME}/data/empty`, ''),
      'browsers.fs.writeFile',
      201,
    );
    const listed = context.expectSuccess<FileEntry[]>(
      await files.get('list_files', `${INSTANCE_HOME}/data`),
      'browsers.fs.listFiles',
      200,
    );
    expect(
      JSON.stringify(listed.map((entry) => [entry.name, entry.size_bytes])) ===
        JSON.stringify([
          ['blob.bin', 70_000],
          ['empty', 0],
        ]),
      `list_files gave ${JSON.stringify(listed)}`,
    );
  },
  'directories are made, moved, changed and deleted': async (context) => {
    const files = await filesOf(context);
    const deep = `${INSTANCE_HOME}/a/b/c`;
    context.expectSuccess(
      await files.put('create_directory', { path: deep }),
      'browsers.fs.createDirectory',
      201,
    );
    context.expectSuccess(
      await files.put('create_directory', { path: deep }),
      'browsers.fs.createDirectory',
      201,
    );
    await files.write(`${deep}/f.txt`, 'f');
    context.expectSuccess(
      await files.put('move', {
        src_path: `${INSTANCE_HOME}/a/b`,
        dest_path: `${INSTANCE_HOME}/b`,
      }),
      'browsers.fs.move',
      200,
    );
    const moved = await files.get('read_file', `${INSTANCE_HOME}/b/c/f.txt`);
    expect(moved.status === 200 && moved.text === 'f', `the moved file reads ${moved.status}`);
    context.expectSuccess(
      await files.put('set_file_permissions', {
        path: `${INSTANCE_HOME}/b/c/f.txt`,
        mode: '0700',
        owner: 'browser',
        group: 'browser',
      }),
      'browsers.fs.setFilePermissions',
      200,
    );
    const info = (await files.get('file_info', `${INSTANCE_HOME}/b/c/f.txt`)).json as FileEntry;
    expect(info.mode === '700', `the mode is ${info.mode}, not 700`);
    context.expectSuccess(
      await files.put('delete_file', { path: `${INSTANCE_HOME}/b/c/f.txt` }),
      'browsers.fs.deleteFile',
      200,
    );
    context.expectSuccess(
      await files.put('delete_directory', { path: `${INSTANCE_HOME}/b` }),
      'browsers.fs.deleteDirectory',
      200,
    );
    context.expectError(await files.get('file_info', `${INSTANCE_HOME}/b`), 404, 'not_found');
  },
  'every path is absolute and inside the home; what is in the way is named': async (context) => {
    const files = await filesOf(context);
    await files.write(`${INSTANCE_HOME}/f`, 'f');
    await files.put('create_directory', { path: `${INSTANCE_HOME}/d` });
    const outside = await files.get('read_file', `${INSTANCE_HOME}/../../etc/passwd`);
    context.expectError(outside, 400, 'bad_request');
    expect(/query\.path/.test(outside.text), `the 400 does not name query.path: ${outside.text}`);
    context.expectError(await files.get('read_file', 'relative/path'), 400, 'bad_request');
    context.expectError(await files.get('read_file', `${INSTANCE_HOME}/none`), 404, 'not_found');
    context.expectError(await files.get('read_file', `${INSTANCE_HOME}/d`), 400, 'bad_request');
    context.expectError(await files.get('list_files', `${INSTANCE_HOME}/f`), 400, 'bad_request');
    context.expectError(await files.write(`${INSTANCE_HOME}/d`, 'x'), 409, 'conflict');
    context.expectError(
      await files.put('create_directory', { path: `${INSTANCE_HOME}/f/sub` }),
      409,
      'conflict',
    );
    context.expectError(
      await files.put('delete_file', { path: `${INSTANCE_HOME}/d` }),
      400,
      'bad_request',
    );
    context.expectError(
      await files.put('delete_directory', { path: `${INSTANCE_HOME}/f` }),
      400,
      'bad_request',
    );
    context.expectError(
      await files.put('delete_directory', { path: INSTANCE_HOME }),
      400,
      'bad_request',
    );
    context.expectError(
      await files.put('move', { src_path: `${INSTANCE_HOME}/f`, dest_path: `${INSTANCE_HOME}/d` }),
      409,
      'conflict',
    );
    context.expectError(
      await files.put('move', {
        src_path: `${INSTANCE_HOME}/none`,
        dest_path: `${INSTANCE_HOME}/x`,
      }),
      404,
      'not_found',
    );
    context.expectError(
      await files.put('move', {
        src_path: `${INSTANCE_HOME}/d`,
        dest_path: `${INSTANCE_HOME}/d/in`,
      }),
      400,
      'bad_request',
    );
    context.expectError(
      await files.put('set_file_permissions', { path: `${INSTANCE_HOME}/f`, mode: '4755' }),
      400,
      'bad_request',
    );
    context.expectError(
      await files.put('set_file_permissions', {
        path: `${INSTANCE_HOME}/f`,
        mode: '644',
        owner: 'root',
      }),
      400,
      'bad_request',
    );
    context.expectError(
      await files.put('set_file_permissions', { path: `${INSTANCE_HOME}/f`, mode: '999' }),
      400,
      'bad_request',
    );
    context.expectError(
      await context.call('PUT', `/browsers/${'no-such-browser'}/fs/delete_file`, {
        json: { path: `${INSTANCE_HOME}/f` },
      }),
      404,
      'not_found',
    );
  },
  'a read-only token neither reads nor changes files (records only)': async (context) => {
    const { session_id: id } = await createBrowser(context);
    const token = context.target.readOnlyToken;
    const write = await context.call(
      'PUT',
      `/browsers/${id}/fs/write_file?${at(`${INSTANCE_HOME}/x`)}`,
      { body: 'x', token },
    );
    context.expectError(write, 403, 'forbidden');
    for (const look of ['read_file', 'list_files', 'file_info', 'download_dir_zip']) {
      const path = look === 'read_file' ? `${INSTANCE_HOME}/.bashrc` : INSTANCE_HOME;
      const answer = await context.call('GET', `/browsers/${id}/fs/${look}?${at(path)}`, { token });
      context.expectError(answer, 403, 'forbidden');
    }
    const list = await context.call('GET', `/browsers/${id}/fs/list_files?${at(INSTANCE_HOME)}`);
    context.expectSuccess(list, 'browsers.fs.listFiles', 200);
    expect(!list.text.includes('"x"'), 'the refused write left a file');
  },
  'many files upload at once, a zip unpacks, a directory downloads as a zip': async (context) => {
    const files = await filesOf(context);
    const form = new FormData();
    form.append('files[0][dest_path]', `${INSTANCE_HOME}/up/one.txt`);
    form.append('files[0][file]', new Blob(['one']), 'one.txt');
    form.append('files[1][dest_path]', `${INSTANCE_HOME}/up/deep/two.txt`);
    form.append('files[1][file]', new Blob(['two']), 'two.txt');
    context.expectSuccess(await files.post('upload', form), 'browsers.fs.upload', 201);
    const zip = new FormData();
    zip.append('dest_path', `${INSTANCE_HOME}/up/zipped`);
    const archive = zipSync({ 'a.txt': encoder.encode('A'), 'b/c.txt': encoder.encode('C') });
    zip.append('zip_file', new Blob([archive as Uint8Array<ArrayBuffer>]), 'files.zip');
    context.expectSuccess(await files.post('upload_zip', zip), 'browsers.fs.uploadZip', 201);
    const download = await files.get('download_dir_zip', `${INSTANCE_HOME}/up`);
    context.expectSuccess(download, 'browsers.fs.downloadDirZip', 200);
    const unpacked = unzipSync(download.bytes);
    const names = Object.keys(unpacked)
      .filter((name) => !name.endsWith('/'))
      .sort();
    expect(
      JSON.stringify(names) ===
        JSON.stringify(['deep/two.txt', 'one.txt', 'zipped/a.txt', 'zipped/b/c.txt']),
      `the zip holds ${JSON.stringify(names)}`,
    );
    expect(new TextDecoder().decode(unpacked['zipped/b/c.txt']) === 'C', 'zipped/b/c.txt is not C');
  },
  'uploads that break a rule are refused and write nothing': async (context) => {
    const files = await filesOf(context);
    const same = new FormData();
    same.append('files[0][dest_path]', `${INSTANCE_HOME}/same`);
    same.append('files[0][file]', new Blob(['1']), '1');
    same.append('files[1][dest_path]', `${INSTANCE_HOME}/same`);
    same.append('files[1][file]', new Blob(['2']), '2');
    context.expectError(await files.post('upload', same), 400, 'bad_request');
    const missing = new FormData();
    missing.append('files[0][dest_path]', `${INSTANCE_HOME}/alone`);
    context.expectError(await files.post('upload', missing), 400, 'bad_request');
    const escaping = new FormData();
    escaping.append('dest_path', `${INSTANCE_HOME}/z`);
    escaping.append(
      'zip_file',
      new Blob([zipSync({ '../out.txt': encoder.encode('x') }) as Uint8Array<ArrayBuffer>]),
      'z.zip',
    );
    context.expectError(await files.post('upload_zip', escaping), 400, 'bad_request');
    const notZip = new FormData();
    notZip.append('dest_path', `${INSTANCE_HOME}/z`);
    notZip.append('zip_file', new Blob(['not a zip']), 'z.zip');
    context.expectError(await files.post('upload_zip', notZip), 400, 'bad_request');
    const listed = (await files.get('list_files', INSTANCE_HOME)).json as FileEntry[];
    const names = listed.map((entry) => entry.name);
    expect(
      !names.includes('same') && !names.includes('alone') && !names.includes('z'),
      `a refused upload left ${JSON.stringify(names)}`,
    );
  },
});
