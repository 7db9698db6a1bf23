import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliCreateCommand } from './cli-hint.js';

/** Writes `text` to `file`, making its folders. */
function put(file: string, text = ''): string {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
  return file;
}

describe('the command the start-up hint gives to make a browser', () => {
  const execPath = '/opt/node 24/bin/node';

  it('is xb when xb is on the PATH', () => {
    const folder = mkdtempSync(join(tmpdir(), 'xb-hint-'));
    chmodSync(put(join(folder, 'bin', 'xb')), 0o755);
    put(join(folder, 'other', 'xb')); // not executable: not it
    expect(
      cliCreateCommand({
        path: `${join(folder, 'empty')}:${join(folder, 'bin')}`,
        serverDist: join(folder, 'nowhere', 'dist'),
        execPath,
      }),
    ).toEqual(['xb browsers create']);
    expect(
      cliCreateCommand({ path: join(folder, 'other'), serverDist: join(folder, 'x'), execPath }),
    ).toEqual(['npx @x/cli browsers create']);
  });

  it('in a clone, is the built xb on this Node.js, and how to put it on the PATH', () => {
    const clone = mkdtempSync(join(tmpdir(), 'xb-hint-'));
    const bin = put(join(clone, 'packages', 'cli', 'dist', 'bin', 'xb.js'));
    const script = put(join(clone, 'scripts', 'install-bins.sh'));
    expect(
      cliCreateCommand({ path: '', serverDist: join(clone, 'apps', 'server', 'dist'), execPath }),
    ).toEqual([
      `'${execPath}' ${bin} browsers create`,
      `(bash ${script} puts xb and xb-server on the PATH)`,
    ]);
  });

  it('installed beside @x/cli, is that xb on this Node.js', () => {
    const prefix = mkdtempSync(join(tmpdir(), 'xb-hint-'));
    const modules = join(prefix, 'node_modules', '@x');
    put(
      join(modules, 'cli', 'package.json'),
      JSON.stringify({ name: '@x/cli', exports: { './package.json': './package.json' } }),
    );
    const bin = put(join(modules, 'cli', 'dist', 'bin', 'xb.js'));
    expect(
      cliCreateCommand({ path: undefined, serverDist: join(modules, 'server', 'dist'), execPath }),
    ).toEqual([`'${execPath}' ${bin} browsers create`]);
  });
});
