import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { connect } from 'node:net';
import { promisify } from 'node:util';
import { unzipSync, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachToPage, connectCdp } from '../test-support/cdp-socket.js';
import { heldBytes, sampleLiveBytes } from '../test-support/memory.js';
import { shellRunner, TEST_TOKEN, useTestServer } from '../test-support/servers.js';

const test = useTestServer();
const shell = shellRunner(() => test.server.url);
const run = promisify(execFile);
let id = '';
let cdpUrl = '';

/** A call of the API with any body; the answer's status, bytes and parsed JSON (when JSON). */
async function call(method: string, path: string, init: { body?: BodyInit; json?: unknown } = {}) {
  const response = await fetch(`${test.server.url}/browsers/${id}/fs/${path}`, {
    method,
    headers: {
      authorization: `Bearer ${TEST_TOKEN}`,
      ...(init.json === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: init.json === undefined ? init.body : JSON.stringify(init.json),
    ...(init.body instanceof ReadableStream ? { duplex: 'half' } : {}),
  } as RequestInit);
  const bytes = new Uint8Array(await response.arrayBuffer());
  const isJson = response.headers.get('content-type')?.includes('json');
  const json = isJson ? JSON.parse(new TextDecoder().decode(bytes)) : undefined;
  return { status: response.status, bytes, json, headers: response.headers };
}

const at = (path: string) => `path=${encodeURIComponent(path)}`;

beforeAll(async () => {
  const session = (await test.api.call('POST', '/browsers', { json: {} })).json as {
    session_id: string;
    cdp_ws_url: string;
  };
  id = session.session_id;
  cdpUrl = session.cdp_ws_url;
});
afterAll(async () => {
  await test.api.call('DELETE', `/browsers/${id}`);
});

describe('files on the server', () => {
  it('writes a file a sandboxed process reads, and reads back what a process wrote', async () => {
    const written = await call('PUT', `write_file?${at('/home/browser/notes/a.txt')}&mode=600`, {
      body: 'hello from the API\n',
    });
    expect(written.status).toBe(201);
    const seen = await shell(id, 'cat notes/a.txt; stat -c %a notes/a.txt');
    expect(seen.stdout).toBe('hello from the API\n600\n');
    await shell(id, 'printf "from a process" > notes/b.txt');
    const read = await call('GET', `read_file?${at('/home/browser/notes/b.txt')}`);
    expect(read.status).toBe(200);
    expect(read.headers.get('content-length')).toBe('14');
    expect(new TextDecoder().decode(read.bytes)).toBe('from a process');
  });

  it('lists and describes entries, makes, moves, chmods and deletes', async () => {
    expect(
      (await call('PUT', 'create_directory', { json: { path: '/home/browser/x/y/z' } })).status,
    ).toBe(201);
    expect(
      (await call('PUT', 'create_directory', { json: { path: '/home/browser/x/y/z' } })).status,
    ).toBe(201);
    await call('PUT', `write_file?${at('/home/browser/x/f.bin')}`, { body: new Uint8Array(1000) });
    const listed = await call('GET', `list_files?${at('/home/browser/x')}`);
    expect(listed.status).toBe(200);
    expect(listed.json).toEqual([
      expect.objectContaining({
        name: 'f.bin',
        path: '/home/browser/x/f.bin',
        is_dir: false,
        size_bytes: 1000,
        mode: '644',
      }),
      expect.objectContaining({ name: 'y', path: '/home/browser/x/y', is_dir: true, mode: '755' }),
    ]);
    const info = await call('GET', `file_info?${at('/home/browser/x/f.bin')}`);
    expect(info.json).toMatchObject({ name: 'f.bin', size_bytes: 1000 });
    expect(Date.now() - Date.parse(info.json.mod_time)).toBeLessThan(60_000);
    expect(
      (
        await call('PUT', 'move', {
          json: { src_path: '/home/browser/x/f.bin', dest_path: '/home/browser/x/y/g.bin' },
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await call('PUT', 'set_file_permissions', {
          json: { path: '/home/browser/x/y/g.bin', mode: '700', owner: 'browser' },
        })
      ).status,
    ).toBe(200);
    expect((await shell(id, 'stat -c %a x/y/g.bin')).stdout).toBe('700\n');
    expect(
      (await call('PUT', 'delete_file', { json: { path: '/home/browser/x/y/g.bin' } })).status,
    ).toBe(200);
    expect(
      (await call('PUT', 'delete_directory', { json: { path: '/home/browser/x' } })).status,
    ).toBe(200);
    expect((await shell(id, 'ls -A')).stdout).not.toContain('x\n');
  });

  it('answers each mistake with its status, naming the field', async () => {
    await shell(
      id,
      'mkdir -p d && echo 1 > d/file && ln -sfn /etc d/etc && ln -sfn /home/browser/d/file d/inside',
    );
    const outside = await call('GET', `read_file?${at('/home/browser/d/etc/passwd')}`);
    expect(outside.status).toBe(400);
    expect(outside.json.details[0].message).toContain('query.path');
    expect((await call('GET', `read_file?${at('/home/browser/../../etc/passwd')}`)).status).toBe(
      400,
    );
    expect((await call('GET', `read_file?${at('relative.txt')}`)).status).toBe(400);
    expect((await call('GET', `read_file?${at('/home/browser/nothing')}`)).status).toBe(404);
    expect((await call('GET', `read_file?${at('/home/browser/d')}`)).status).toBe(400);
    expect(
      new TextDecoder().decode(
        (await call('GET', `read_file?${at('/home/browser/d/inside')}`)).bytes,
      ),
    ).toBe('1\n');
    expect((await call('GET', `list_files?${at('/home/browser/d/file')}`)).status).toBe(400);
    expect(
      (await call('PUT', 'create_directory', { json: { path: '/home/browser/d/file/sub' } }))
        .status,
    ).toBe(409);
    expect((await call('PUT', `write_file?${at('/home/browser/d')}`, { body: 'x' })).status).toBe(
      409,
    );
    expect((await call('PUT', 'delete_file', { json: { path: '/home/browser/d' } })).status).toBe(
      400,
    );
    expect(
      (await call('PUT', 'delete_directory', { json: { path: '/home/browser/d/file' } })).status,
    ).toBe(400);
    expect(
      (await call('PUT', 'delete_directory', { json: { path: '/home/browser' } })).status,
    ).toBe(400);
    expect(
      (
        await call('PUT', 'move', {
          json: { src_path: '/home/browser/d/file', dest_path: '/home/browser/d/inside' },
        })
      ).status,
    ).toBe(409);
    expect(
      (
        await call('PUT', 'move', {
          json: { src_path: '/home/browser/d/none', dest_path: '/home/browser/d/x' },
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await call('PUT', 'set_file_permissions', {
          json: { path: '/home/browser/d/file', mode: '4755' },
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await call('PUT', 'set_file_permissions', {
          json: { path: '/home/browser/d/file', mode: '644', owner: 'root' },
        })
      ).status,
    ).toBe(400);
    // A link is deleted, not what it names; /etc is untouched.
    expect(
      (await call('PUT', 'delete_file', { json: { path: '/home/browser/d/etc' } })).status,
    ).toBe(200);
    expect((await shell(id, 'ls d')).stdout).toBe('file\ninside\n');
  });

  it('uploads many files, a zip, and downloads a directory as a zip', async () => {
    const form = new FormData();
    form.append('files[0][dest_path]', '/home/browser/up/one.txt');
    form.append('files[0][file]', new Blob(['one']), 'one.txt');
    form.append('files[1][dest_path]', '/home/browser/up/deep/two.txt');
    form.append('files[1][file]', new Blob(['two']), 'two.txt');
    expect((await call('POST', 'upload', { body: form })).status).toBe(201);
    const zip = new FormData();
    zip.append('dest_path', '/home/browser/up/zipped');
    zip.append(
      'zip_file',
      new Blob([
        zipSync({
          'a.txt': new TextEncoder().encode('A'),
          'b/c.txt': new TextEncoder().encode('C'),
        }) as Uint8Array<ArrayBuffer>,
      ]),
      'z.zip',
    );
    expect((await call('POST', 'upload_zip', { body: zip })).status).toBe(201);
    expect((await shell(id, 'cd up && find . -type f | sort && cat zipped/b/c.txt')).stdout).toBe(
      './deep/two.txt\n./one.txt\n./zipped/a.txt\n./zipped/b/c.txt\nC',
    );
    await shell(id, 'ln -s /etc/passwd up/passwd-link');
    const download = await call('GET', `download_dir_zip?${at('/home/browser/up')}`);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('application/zip');
    const files = unzipSync(download.bytes);
    expect(Object.keys(files).sort()).toEqual([
      'deep/',
      'deep/two.txt',
      'one.txt',
      'zipped/',
      'zipped/a.txt',
      'zipped/b/',
      'zipped/b/c.txt',
    ]);
    expect(new TextDecoder().decode(files['deep/two.txt'])).toBe('two');
    const bad = new FormData();
    bad.append('dest_path', '/home/browser/up/evil');
    bad.append(
      'zip_file',
      new Blob([zipSync({ '../escape.txt': new Uint8Array(1) }) as Uint8Array<ArrayBuffer>]),
      'z.zip',
    );
    expect((await call('POST', 'upload_zip', { body: bad })).status).toBe(400);
  });
});

/** Runs a shell pipeline on the host (never blocking the server in this process); its stdout. */
async function sh(script: string): Promise<string> {
  const { stdout } = await run('sh', ['-c', script], { maxBuffer: 1024 * 1024 });
  return stdout.trim();
}

describe('files as the browser sees them', () => {
  it('a file written through the API is what a page uploads; a download is listed and read', async () => {
    await call('PUT', `write_file?${at('/home/browser/upload-me.txt')}`, {
      body: 'picked by the page',
    });
    const cdp = await connectCdp(cdpUrl);
    try {
      const session = await attachToPage(cdp);
      await cdp.send('DOM.enable', {}, session);
      await cdp.send(
        'Runtime.evaluate',
        { expression: `document.body.innerHTML = '<input type="file" id="f">'` },
        session,
      );
      const { root } = (await cdp.send('DOM.getDocument', {}, session)) as {
        root: { nodeId: number };
      };
      const { nodeId } = (await cdp.send(
        'DOM.querySelector',
        { nodeId: root.nodeId, selector: '#f' },
        session,
      )) as { nodeId: number };
      await cdp.send(
        'DOM.setFileInputFiles',
        { nodeId, files: ['/home/browser/upload-me.txt'] },
        session,
      );
      const picked = (await cdp.send(
        'Runtime.evaluate',
        {
          expression: `document.getElementById('f').files[0].text()`,
          awaitPromise: true,
          returnByValue: true,
        },
        session,
      )) as { result: { value: string } };
      expect(picked.result.value).toBe('picked by the page');

      const click = `const a = document.createElement('a'); a.href = 'data:text/plain,downloaded';
        a.download = 'got.txt'; document.body.append(a); a.click();`;
      await cdp.send('Runtime.evaluate', { expression: click }, session);
      let names: string[] = [];
      for (let attempt = 0; attempt < 50 && !names.includes('got.txt'); attempt++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        const listed = await call('GET', `list_files?${at('/home/browser/Downloads')}`);
        names = (listed.json as { name: string }[]).map((entry) => entry.name);
      }
      expect(names).toContain('got.txt');
      const read = await call('GET', `read_file?${at('/home/browser/Downloads/got.txt')}`);
      expect(new TextDecoder().decode(read.bytes)).toBe('downloaded');
    } finally {
      cdp.close();
    }
  });

  it('writes and reads back 200 MiB with the memory of the server flat', async () => {
    // curl is the client, in a process of its own: what is measured here is the server alone.
    const url = (operation: string) =>
      `${test.server.url}/browsers/${id}/fs/${operation}?${at('/home/browser/big.bin')}`;
    const auth = `authorization: Bearer ${TEST_TOKEN}`;
    const size = 200 * 1024 * 1024;
    const source = `yes 0123456789abcdef | head -c ${size}`;
    const before = await heldBytes();
    const sampler = sampleLiveBytes();
    let peak = before;
    try {
      const written = await sh(
        `${source} | curl -sS -o /dev/null -w '%{http_code}' -T - -X PUT -H '${auth}' '${url('write_file')}'`,
      );
      expect(written).toBe('201');
      const [expected, read] = await Promise.all([
        sh(`${source} | sha256sum`),
        sh(`curl -sS -H '${auth}' '${url('read_file')}' | sha256sum`),
      ]);
      expect(read).toBe(expected);
    } finally {
      peak = Math.max(peak, sampler.stop());
    }
    // The file passed through in pipes: neither direction held more than a few chunks of it.
    expect(peak - before).toBeLessThan(48 * 1024 * 1024);
    await call('PUT', 'delete_file', { json: { path: '/home/browser/big.bin' } });
  });

  it('a write cut short leaves nothing: no file, no partial one, however often', async () => {
    // A raw socket, so the cut is exactly that: part of a declared 10 MiB, then the socket closes.
    // The end of a cut body looks like the end of a whole one to the script that writes it; only
    // the server's word after the whole body commits a file, so no cut can race a rename.
    const { hostname, port } = new URL(test.server.url);
    for (const mebibytes of [4, 1, 7]) {
      const socket = connect(Number(port), hostname);
      await once(socket, 'connect');
      socket.write(
        `PUT /browsers/${id}/fs/write_file?${at('/home/browser/cut/short.bin')} HTTP/1.1\r\n` +
          `host: ${hostname}:${port}\r\nauthorization: Bearer ${TEST_TOKEN}\r\n` +
          `content-length: ${10 * 1024 * 1024}\r\n\r\n`,
      );
      for (let sent = 0; sent < mebibytes; sent++) {
        if (!socket.write(new Uint8Array(1024 * 1024))) await once(socket, 'drain');
      }
      // The write is under way: its bytes are landing under a hidden name.
      let during = '';
      for (let attempt = 0; attempt < 50 && !during.includes('.xb-partial-'); attempt++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        during = (await shell(id, 'ls -A cut 2>/dev/null')).stdout;
      }
      expect(during).toMatch(/^\.xb-partial-/);
      socket.destroy();
      // The server hears of the cut when the socket closes: on a busy machine that may take a while.
      let left = '';
      const deadline = Date.now() + 20_000;
      do {
        await new Promise((resolve) => setTimeout(resolve, 100));
        left = (await shell(id, 'ls -A cut 2>/dev/null')).stdout;
      } while (left !== '' && Date.now() < deadline);
      expect(left).toBe('');
    }
  });
});
