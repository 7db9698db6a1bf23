import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { useFakeService } from '@x/testing/vitest';
import { strToU8, unzipSync, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { onlyJson, scratchFolder, TRANSPORTS, xbAgainst } from '../test-support/run-xb.js';

const fake = useFakeService({ listen: true });

describe.each(TRANSPORTS)('fs commands (%s)', (_, overHttp) => {
  const { run, newBrowser } = xbAgainst(fake, overHttp);

  it('write a local file or stdin, read it back to a file, stat and list it', async () => {
    const id = await newBrowser();
    const folder = scratchFolder();
    writeFileSync(join(folder, 'in.txt'), 'from disk');
    expect(
      await run(['fs', 'write', id, '/home/browser/in.txt', 'in.txt', '--mode', '600'], {
        cwd: folder,
      }),
    ).toMatchObject({ code: 0, stdout: `✓ Wrote /home/browser/in.txt on ${id}.\n` });
    expect(
      (await run(['fs', 'write', id, '/home/browser/piped.txt', '-'], { stdin: 'from stdin' }))
        .code,
    ).toBe(0);
    expect(new TextDecoder().decode(fake.file(id, '/home/browser/piped.txt'))).toBe('from stdin');
    const read = await run(['fs', 'read', id, '/home/browser/in.txt', '-o', 'out.txt'], {
      cwd: folder,
    });
    expect(read.code).toBe(0);
    expect(readFileSync(join(folder, 'out.txt'), 'utf8')).toBe('from disk');
    expect((await run(['fs', 'read', id, '/home/browser/in.txt', '-o', '-'])).stdout).toBe(
      'from disk',
    );
    // `xb fs read <id> <path> > file`: a redirected stdout is where it goes, no -o needed.
    expect(await run(['fs', 'read', id, '/home/browser/in.txt'])).toMatchObject({
      code: 0,
      stdout: 'from disk',
      stderr: '',
    });
    const stat = onlyJson((await run(['fs', 'stat', id, '/home/browser/in.txt', '--json'])).stdout);
    expect(stat).toMatchObject({ name: 'in.txt', size_bytes: 9, mode: '600', is_dir: false });
    const listed = await run(['fs', 'ls', id, '/home/browser']);
    expect(listed.stdout).toMatch(/^MODE\s+SIZE\s+MODIFIED\s+NAME\n/);
    expect(listed.stdout).toContain('Downloads/');
    expect(listed.stdout).toMatch(/600\s+9 B\s+\S+\s+in\.txt/);
  });

  it('mkdir, mv, chmod, rm and rmdir; mistakes say what is wrong', async () => {
    const id = await newBrowser();
    expect((await run(['fs', 'mkdir', id, '/home/browser/a/b'])).code).toBe(0);
    await run(['fs', 'write', id, '/home/browser/a/f', '-'], { stdin: 'f' });
    expect((await run(['fs', 'mv', id, '/home/browser/a/f', '/home/browser/a/b/g'])).code).toBe(0);
    expect((await run(['fs', 'chmod', id, '700', '/home/browser/a/b/g'])).stdout).toBe(
      `✓ Set /home/browser/a/b/g to 700 on ${id}.\n`,
    );
    expect(fake.state.browsers.get(id)?.files.get('/home/browser/a/b/g')).toBe('file');
    const wrongKind = await run(['fs', 'rm', id, '/home/browser/a']);
    expect(wrongKind.code).not.toBe(0);
    expect(wrongKind.stderr).toContain('is a directory: delete it with delete_directory');
    expect((await run(['fs', 'rm', id, '/home/browser/a/b/g'])).code).toBe(0);
    expect((await run(['fs', 'rmdir', id, '/home/browser/a'])).code).toBe(0);
    const outside = await run(['fs', 'ls', id, '/etc']);
    expect(outside.code).not.toBe(0);
    expect(outside.stderr).toContain('path must be inside /home/browser');
    const relative = await run(['fs', 'ls', id, 'Downloads']);
    expect(relative.stderr).toContain('must be an absolute path');
    const missing = await run(['fs', 'write', id, '/home/browser/x', 'no-such-local-file']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('Cannot read');
  });

  it('upload files into a folder, upload and download zips', async () => {
    const id = await newBrowser();
    const folder = scratchFolder();
    writeFileSync(join(folder, 'a.csv'), 'a');
    writeFileSync(join(folder, 'b.csv'), 'b');
    expect(
      await run(['fs', 'upload', id, '/home/browser/inputs', 'a.csv', 'b.csv'], { cwd: folder }),
    ).toMatchObject({ code: 0, stdout: `✓ Uploaded 2 file(s) on ${id}.\n` });
    expect(new TextDecoder().decode(fake.file(id, '/home/browser/inputs/b.csv'))).toBe('b');
    writeFileSync(join(folder, 'in.zip'), zipSync({ 'z/one.txt': strToU8('1') }));
    expect(
      (await run(['fs', 'upload-zip', id, 'in.zip', '/home/browser/unzipped'], { cwd: folder }))
        .code,
    ).toBe(0);
    const saved = await run(['fs', 'download-zip', id, '/home/browser', '-o', 'home.zip'], {
      cwd: folder,
    });
    expect(saved.code).toBe(0);
    const names = Object.keys(unzipSync(readFileSync(join(folder, 'home.zip'))));
    expect(names).toEqual(
      expect.arrayContaining(['inputs/a.csv', 'inputs/b.csv', 'unzipped/z/one.txt']),
    );
  });
});
