import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONTRACT_APP_CODE } from '@x/testing';
import { useFakeService } from '@x/testing/vitest';
import { DeploymentSchema } from '@x/types';
import { unzipSync } from 'fflate';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { onlyJson, scratchFolder, TRANSPORTS, xbAgainst } from '../test-support/run-xb.js';
import { appArchive } from './app-archive.js';
import { parseEnvFile } from './deploy.js';

const fake = useFakeService({ listen: true });

/** An app as `@x/client/apps`' defineApp registers it (the fake loads it in-process). */
function appCode(name: string): string {
  return `const apps = (globalThis[Symbol.for('@x/client.apps')] ??= new Map());
apps.set('${name}', { name: '${name}', actions: new Map([['run', async () => 1]]) });
`;
}

/** An app folder with a .gitignore, secrets and installed packages beside its code. */
function appFolder(code: string): string {
  const root = join(scratchFolder(), 'agent');
  mkdirSync(join(root, 'src', 'build'), { recursive: true });
  mkdirSync(join(root, 'node_modules', 'dep'), { recursive: true });
  mkdirSync(join(root, 'build'), { recursive: true });
  writeFileSync(join(root, 'package.json'), '{"name":"agent","type":"module","main":"app.ts"}');
  writeFileSync(join(root, 'app.ts'), code);
  writeFileSync(join(root, '.gitignore'), 'build/\n*.log\n');
  writeFileSync(join(root, 'src', '.gitignore'), 'local.json\n');
  writeFileSync(join(root, 'src', 'helper.ts'), 'export const x = 1;\n');
  writeFileSync(join(root, 'src', 'local.json'), '{}');
  writeFileSync(join(root, 'src', 'build', 'kept.txt'), 'nested build/ is ignored too');
  writeFileSync(join(root, 'build', 'out.js'), '');
  writeFileSync(join(root, 'debug.log'), '');
  writeFileSync(join(root, '.env'), 'SECRET=1\n');
  writeFileSync(join(root, 'node_modules', 'dep', 'index.js'), '');
  return root;
}

describe('the archive xb deploy sends', () => {
  it("leaves out what .gitignore files ignore, .env files and installed packages; the entrypoint is package.json's main", async () => {
    const root = appFolder(appCode('x'));
    const archive = await appArchive(root, '.', undefined);
    const names = Object.keys(unzipSync(new Uint8Array(await archive.file.arrayBuffer()))).sort();
    expect(names).toEqual([
      '.gitignore',
      'app.ts',
      'package.json',
      'src/.gitignore',
      'src/helper.ts',
    ]);
    expect(archive.entrypoint).toBe('app.ts');
    await expect(appArchive(root, '.', 'missing.ts')).rejects.toThrow(/missing\.ts is not in \./);
    const withModules = await appArchive(root, '.', undefined, true);
    const zipped = unzipSync(new Uint8Array(await withModules.file.arrayBuffer()));
    expect(Object.keys(zipped)).toContain('node_modules/dep/index.js');
    expect(Object.keys(zipped)).not.toContain('.env');
  });

  it('reads dotenv files', () => {
    expect(
      parseEnvFile('# c\nexport A=1\nB="two\\nlines"\nC=\'x y\'\nD=plain # note\n', '.env'),
    ).toEqual({ A: '1', B: 'two\nlines', C: 'x y', D: 'plain' });
    expect(() => parseEnvFile('1BAD=x', '.env')).toThrow(/\.env:1 is not NAME=value/);
  });
});

describe.each(TRANSPORTS)('xb deploy, deployments and apps (%s)', (_, overHttp) => {
  const { run } = xbAgainst(fake, overHttp);

  it('deploys a folder and follows it to running; apps and deployments list it', async () => {
    const root = appFolder(appCode(`cli-app-${overHttp}`));
    const deployed = await run([
      'deploy',
      root,
      '--version',
      'v1',
      '--env',
      '{"API_TOKEN":"s3cret"}',
    ]);
    expect(deployed.code).toBe(0);
    expect(deployed.stdout).toMatch(/^✓ Deployed cli-app-\w+ v1 \(dep_\w+\)\.\n$/);
    expect(deployed.stderr).toMatch(/entrypoint app\.ts/);
    expect(deployed.stderr).toMatch(/\+ app cli-app-\w+ v1: run/);
    expect(deployed.stderr).not.toContain('s3cret');
    const apps = await run(['apps', '--app-name', `cli-app-${overHttp}`]);
    expect(apps.stdout).toMatch(
      /^APP +VERSION +ACTIONS +DEPLOYMENT\ncli-app-\w+ +v1 +run +dep_\w+\n$/,
    );
    const id = /dep_\w+/.exec(deployed.stdout)?.[0] as string;
    const got = v.parse(
      DeploymentSchema,
      onlyJson((await run(['deployments', 'get', id, '--json'])).stdout),
    );
    expect(got).toMatchObject({ status: 'running', env_vars: { API_TOKEN: '' } });
    expect((await run(['deployments', 'delete', id])).code).toBe(0);
    expect((await run(['apps', '--app-name', `cli-app-${overHttp}`])).stdout).toBe(
      'No apps deployed.\n',
    );
  });

  it('xb invoke prints the output; --async follows the console; a failure exits 3 with its reason', async () => {
    const app = `invoke-${overHttp}-${Math.random().toString(36).slice(2, 6)}`;
    const root = join(scratchFolder(), 'contract');
    mkdirSync(root);
    writeFileSync(join(root, 'app.js'), CONTRACT_APP_CODE);
    expect(
      (
        await run([
          'deploy',
          root,
          '--version',
          'v1',
          '--env',
          JSON.stringify({ CONTRACT_APP_NAME: app }),
        ])
      ).code,
    ).toBe(0);
    const echoed = await run([
      'invoke',
      app,
      'echo',
      '--version',
      'v1',
      '--payload',
      '{"cart":42}',
    ]);
    expect(echoed).toMatchObject({ code: 0, stdout: '{"cart":42}\n' });
    const logged = await run(['invoke', app, 'log', '--version', 'v1', '--async']);
    expect(logged.code).toBe(0);
    expect(logged.stdout).toBe('"logged"\n');
    expect(logged.stderr).toMatch(/queued inv_\w+\ncontract line\n/);
    const failed = await run(['invoke', app, 'fail', '--version', 'v1']);
    expect(failed.code).toBe(3);
    expect(failed.stderr).toMatch(/error: The invocation inv_\w+ failed: contract failure/);
    expect((await run(['invoke', app, 'nothing', '--version', 'v1'])).code).toBe(5);
    // xb logs app follows the app's invocations until Ctrl-C.
    const controller = new AbortController();
    const listed = fake.journal.count('invocations.list');
    const following = run(['logs', 'app', app], { signal: controller.signal });
    // It follows once it has listed what ran before (by the journal, not by the clock).
    await expect
      .poll(() => fake.journal.count('invocations.list'), { timeout: 10_000 })
      .toBeGreaterThan(listed);
    await run(['invoke', app, 'log', '--version', 'v1']);
    // Its next listing, a second later, finds the new invocation and prints its lines.
    await new Promise((resolve) => setTimeout(resolve, 4_000));
    controller.abort();
    const followed = await following;
    expect(followed.code).toBe(130);
    expect(followed.stdout).toMatch(/^inv_\w+ contract line\ninv_\w+ — succeeded\n/);
    expect((await run(['invoke', app, 'echo', '--payload', '{bad'])).code).toBe(2);
  });

  it('a deploy that fails exits 3 with its reason; --detach returns the queued deployment', async () => {
    const failed = await run(['deploy', appFolder('throw new Error("bad at load");')]);
    expect(failed.code).toBe(3);
    expect(failed.stderr).toMatch(/error: The deployment dep_\w+ failed: .*bad at load/);
    const detached = await run([
      'deploy',
      appFolder(appCode(`detached-${overHttp}`)),
      '--detach',
      '--json',
    ]);
    expect(v.parse(DeploymentSchema, onlyJson(detached.stdout)).status).toBe('queued');
    const missing = await run(['deploy', join(scratchFolder(), 'nowhere')]);
    expect(missing).toMatchObject({ code: 2 });
  });
});
