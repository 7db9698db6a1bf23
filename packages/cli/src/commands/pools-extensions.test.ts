import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildExtensionArchive, ContractContext, deployContractApp } from '@x/testing';
import { useFakeService } from '@x/testing/vitest';
import {
  BrowserPoolSchema,
  BrowserSessionSchema,
  ExtensionSchema,
  InvocationBrowsersSchema,
  InvocationSchema,
} from '@x/types';
import { unzipSync } from 'fflate';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { onlyJson, scratchFolder, TRANSPORTS, xbAgainst } from '../test-support/run-xb.js';

const fake = useFakeService({ listen: true });

/** A caller of the fake over HTTP, to deploy the contract suite's app with. */
function contractContext(): ContractContext {
  return new ContractContext({ baseUrl: fake.url, ...fake.tokens });
}

/** An unpacked extension folder, with manifest.json unless told otherwise. */
function extensionFolder(
  manifest: string | null = '{"manifest_version":3,"name":"demo","version":"1.0"}',
): string {
  const folder = scratchFolder();
  const root = join(folder, 'ext');
  mkdirSync(join(root, 'scripts'), { recursive: true });
  if (manifest !== null) writeFileSync(join(root, 'manifest.json'), manifest);
  writeFileSync(join(root, 'scripts', 'content.js'), 'document.title = "x";\n');
  return root;
}

describe.each(TRANSPORTS)('pool, extension and invocation commands (%s)', (_, overHttp) => {
  const { run } = xbAgainst(fake, overHttp);

  it('pools create, list, get, update, acquire, release, flush and delete', async () => {
    const created = v.parse(
      BrowserPoolSchema,
      onlyJson((await run(['pools', 'create', 'checkout', '--size', '1', '--json'])).stdout),
    );
    expect(created).toMatchObject({ name: 'checkout', available_count: 1 });
    expect((await run(['pools', 'list'])).stdout).toMatch(
      /^ID +NAME +SIZE +AVAILABLE +ACQUIRED +CREATED\npool_\w+ +checkout +1 +1 +0 /,
    );
    expect((await run(['pools', 'get', 'checkout'])).stdout).toMatch(
      /^id +pool_\w+\nname +checkout\n/,
    );
    const acquired = v.parse(
      BrowserSessionSchema,
      onlyJson((await run(['pools', 'acquire', 'checkout', '--json'])).stdout),
    );
    const none = await run(['pools', 'acquire', 'checkout', '--acquire-timeout-seconds', '0']);
    expect(none).toMatchObject({ code: 3, stdout: '' });
    expect(none.stderr).toBe(
      'error: No browser of pool checkout came free within 0 s (the service answered 204).\n',
    );
    expect((await run(['pools', 'delete', 'checkout'])).code).toBe(3);
    expect(
      await run(['pools', 'release', 'checkout', acquired.session_id, '--no-reuse']),
    ).toMatchObject({
      code: 0,
      stdout: `✓ Released ${acquired.session_id} to pool checkout.\n`,
    });
    fake.journal.assertCalled('browserPools.release', {
      body: { session_id: acquired.session_id, reuse: false },
    });
    expect((await run(['pools', 'flush', 'checkout'])).stdout).toBe(
      '✓ Flushed the idle browsers of pool checkout.\n',
    );
    const updated = v.parse(
      BrowserPoolSchema,
      onlyJson((await run(['pools', 'update', 'checkout', '--size', '3', '--json'])).stdout),
    );
    expect(updated.browser_pool_config.size).toBe(3);
    expect((await run(['pools', 'delete', 'checkout', '--force'])).stdout).toBe(
      '✓ Deleted pool checkout.\n',
    );
    expect((await run(['pools', 'get', 'checkout'])).code).toBe(5);
  });

  it('extensions upload a folder zipped on the fly, and a .zip as it is', async () => {
    const folder = extensionFolder();
    const uploaded = await run(['extensions', 'upload', folder, '--name', 'from-folder']);
    expect(uploaded.code).toBe(0);
    expect(uploaded.stdout).toMatch(
      /^✓ Uploaded extension ext_\w+ \(from-folder\), \d+ bytes\.\n$/,
    );
    const zipPath = join(scratchFolder(), 'ext.zip');
    const archive = buildExtensionArchive();
    writeFileSync(zipPath, archive);
    const json = v.parse(
      ExtensionSchema,
      onlyJson((await run(['extensions', 'upload', zipPath, '--json'])).stdout),
    );
    expect(json.size_bytes).toBe(archive.byteLength);
    expect((await run(['extensions', 'list'])).stdout).toMatch(
      /^ID +NAME +SIZE +CREATED +LAST USED\n/,
    );
    const saved = scratchFolder();
    expect(
      (await run(['extensions', 'download', json.id, '-o', 'copy.zip'], { cwd: saved })).code,
    ).toBe(0);
    expect(readFileSync(join(saved, 'copy.zip'))).toEqual(Buffer.from(archive));
    expect((await run(['extensions', 'delete', 'from-folder'])).stdout).toBe(
      '✓ Deleted extension from-folder.\n',
    );
    expect(onlyJson((await run(['extensions', 'list', '--json'])).stdout)).toHaveLength(1);
  });

  it('extensions load puts a folder and a .zip into a running browser, and get shows the SHA-256', async () => {
    const runXb = run;
    const session = v.parse(
      BrowserSessionSchema,
      onlyJson((await runXb(['browsers', 'create', '--json'])).stdout),
    );
    const zipPath = join(scratchFolder(), 'Other Ext.zip');
    writeFileSync(zipPath, buildExtensionArchive());
    const loaded = await runXb([
      'extensions',
      'load',
      session.session_id,
      extensionFolder(),
      zipPath,
    ]);
    expect(loaded.code).toBe(0);
    expect(loaded.stdout).toMatch(
      /^✓ Loaded ext \([a-p]{32}\)\.\n✓ Loaded Other-Ext \([a-p]{32}\)\.\n$/,
    );
    expect([...fake.loadedExtensions(session.session_id).values()]).toEqual([
      '/home/browser/.extensions/ext',
      '/home/browser/.extensions/Other-Ext',
    ]);
    const none = await runXb(['extensions', 'load', session.session_id]);
    expect(none.code).toBe(2);
    const uploaded = onlyJson(
      (await runXb(['extensions', 'upload', zipPath, '--name', 'with-sum', '--json'])).stdout,
    ) as { id: string };
    const shown = await runXb(['extensions', 'get', 'with-sum']);
    expect(shown.stdout).toMatch(/^sha256 +[0-9a-f]{64}$/m);
    expect(shown.stdout).toContain(uploaded.id);
  });

  it('a folder upload leaves out .git, node_modules, .DS_Store and .env* unless --include-hidden', async () => {
    const folder = extensionFolder();
    for (const path of ['.git/config', 'node_modules/dep/index.js', 'scripts/.env.local']) {
      mkdirSync(join(folder, path, '..'), { recursive: true });
      writeFileSync(join(folder, path), 'secret');
    }
    writeFileSync(join(folder, '.DS_Store'), 'x');
    writeFileSync(join(folder, '.env'), 'TOKEN=secret');
    writeFileSync(join(folder, '.eslintrc'), '{}');
    const entriesOf = async (flags: string[]) => {
      const json = v.parse(
        ExtensionSchema,
        onlyJson((await run(['extensions', 'upload', folder, '--json', ...flags])).stdout),
      );
      const saved = scratchFolder();
      await run(['extensions', 'download', json.id, '-o', 'copy.zip'], { cwd: saved });
      return Object.keys(unzipSync(readFileSync(join(saved, 'copy.zip')))).sort();
    };
    expect(await entriesOf([])).toEqual(['.eslintrc', 'manifest.json', 'scripts/content.js']);
    expect(await entriesOf(['--include-hidden'])).toEqual([
      '.DS_Store',
      '.env',
      '.eslintrc',
      '.git/config',
      'manifest.json',
      'node_modules/dep/index.js',
      'scripts/.env.local',
      'scripts/content.js',
    ]);
  });

  it('invocations list by page and filter; --all walks every page', async () => {
    const app = `app-${Math.random().toString(36).slice(2, 8)}`;
    const deployed = await deployContractApp(contractContext(), { app });
    for (const action of ['build', 'build', 'ship']) {
      const created = await run([
        'invocations',
        'create',
        app,
        action,
        '--version',
        deployed.version,
        '--async',
      ]);
      expect(created.code).toBe(0);
    }
    const first = await run(['invocations', 'list', '--app-name', app, '--limit', '2', '--json']);
    expect(onlyJson(first.stdout)).toHaveLength(2);
    expect(first.stderr).toContain(
      'More follow: --offset 2 for the next page, or --all for every page.',
    );
    const all = await run(['invocations', 'list', '--app-name', app, '--limit', '1', '--all']);
    expect(all.stdout.trim().split('\n')).toHaveLength(4);
    expect(all.stderr).toBe('');
    const shipped = onlyJson(
      (await run(['invocations', 'list', '--app-name', app, '--action-name', 'ship', '--json']))
        .stdout,
    ) as { action_name: string }[];
    expect(shipped.map((invocation) => invocation.action_name)).toEqual(['ship']);
  });

  it('extensions upload refuses bad input with exit 2 and says how to fix it, sending nothing', async () => {
    const notZip = join(scratchFolder(), 'notes.txt');
    writeFileSync(notZip, 'hello');
    const cases: [string, RegExp][] = [
      [
        extensionFolder(null),
        /has no manifest\.json at its root: point at the folder that holds manifest\.json/,
      ],
      [extensionFolder('{ nope'), /manifest\.json is not valid JSON/],
      [extensionFolder('{"manifest_version":3}'), /manifest\.json lacks name, version/],
      [notZip, /is not a zip archive: give a \.zip, or the extension's folder/],
      ['/no/such/path', /Cannot read \/no\/such\/path \(ENOENT\)/],
    ];
    for (const [path, message] of cases) {
      const result = await run(['extensions', 'upload', path]);
      expect(result.code, path).toBe(2);
      expect(result.stderr).toMatch(message);
    }
    fake.journal.assertNotCalled('extensions.upload');
  });

  it('invocations create, get, browsers and update', async () => {
    const app = `shop-${Math.random().toString(36).slice(2, 8)}`;
    const deployed = await deployContractApp(contractContext(), { app });
    const invocation = v.parse(
      InvocationSchema,
      onlyJson(
        (
          await run([
            'invocations',
            'create',
            app,
            'contract',
            '--version',
            deployed.version,
            '--payload',
            '{"cart":1}',
            '--async',
            '--json',
          ])
        ).stdout,
      ),
    );
    expect(invocation).toMatchObject({
      app_name: app,
      action_name: 'contract',
      payload: '{"cart":1}',
      status: 'queued',
    });
    expect((await run(['invocations', 'get', invocation.id])).stdout).toMatch(/status +running/);
    await run(['browsers', 'create', '--invocation-id', invocation.id]);
    const browsers = v.parse(
      InvocationBrowsersSchema,
      onlyJson((await run(['invocations', 'browsers', invocation.id, '--json'])).stdout),
    );
    expect(browsers.browsers).toHaveLength(1);
    expect(
      (await run(['invocations', 'update', invocation.id, '--status', 'succeeded'])).stdout,
    ).toMatch(/status +succeeded/);
    expect((await run(['invocations', 'browsers', invocation.id])).stdout).toBe(
      'No active browsers.\n',
    );
    const bad = await run(['invocations', 'update', invocation.id, '--status', 'maybe']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/status: must be succeeded or failed/);
  });
});
