import { execFile } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { useFakeService } from '@x/testing/vitest';
import { describe, expect, it } from 'vitest';
import { onlyJson, scratchFolder, TRANSPORTS, xb, xbAgainst } from '../test-support/run-xb.js';
import { COMMANDS } from './registry.js';

const fake = useFakeService({ listen: true });

/** Every command that takes a running browser, and where. */
const BROWSER_COMMANDS = COMMANDS.filter((command) => command.args.some((arg) => arg.isBrowser));

describe.each(TRANSPORTS)('a browser by its name (%s)', (_, overHttp) => {
  const { run } = xbAgainst(fake, overHttp);
  const named = async (name: string) =>
    (
      onlyJson((await run(['browsers', 'create', '--name', name, '--json'])).stdout) as {
        session_id: string;
      }
    ).session_id;

  it('xb browsers live, computer, replays, process and fs take a running browser’s name', async () => {
    const id = await named('checkout-agent');
    const live = await run(['browsers', 'live', 'checkout-agent', '--json']);
    expect(live).toMatchObject({ code: 0, stderr: '' });
    expect(onlyJson(live.stdout)).toMatchObject({ url: expect.stringContaining(id) });
    fake.journal.assertCalled({
      operation: 'browsers.liveView.create',
      path: `/browsers/${id}/live_view`,
    });

    const folder = scratchFolder();
    const shot = await run([
      'computer',
      'screenshot',
      'checkout-agent',
      '-o',
      join(folder, 'a.png'),
    ]);
    expect(shot).toMatchObject({ code: 0, stderr: '' });
    expect(existsSync(join(folder, 'a.png'))).toBe(true);

    const replay = await run(['replays', 'start', 'checkout-agent', '--json']);
    expect(replay).toMatchObject({ code: 0, stderr: '' });

    const exec = await run(['process', 'exec', 'checkout-agent', 'echo', 'hi', '--json']);
    expect(exec).toMatchObject({ code: 0, stderr: '' });
    fake.journal.assertCalled({
      operation: 'browsers.process.exec',
      path: `/browsers/${id}/process/exec`,
    });

    const renamed = await run(['browsers', 'rename', 'checkout-agent', 'checkout-2']);
    expect(renamed).toMatchObject({ code: 0, stdout: `✓ Browser ${id} is named checkout-2.\n` });
    const deleted = await run(['browsers', 'delete', 'checkout-2']);
    expect(deleted).toMatchObject({ code: 0, stdout: `✓ Deleted browser ${id}.\n` });
  });

  it('every command that takes a browser looks a name up first; an unknown one is not found (exit 5)', async () => {
    expect(BROWSER_COMMANDS.length).toBeGreaterThan(30);
    for (const command of BROWSER_COMMANDS) {
      const argv = [
        command.group,
        command.name,
        ...command.args.map((arg) =>
          arg.isBrowser ? 'nobody-runs-this' : arg.isNumber ? '1' : 'x',
        ),
      ].filter(Boolean);
      fake.journal.clear();
      const result = await run(argv);
      expect({ argv, code: result.code }).toEqual({ argv, code: 5 });
      expect(result.stderr).toContain('nobody-runs-this');
      // The name went to the one lookup, and no further.
      expect(fake.journal.entries.map((entry) => `${entry.method} ${entry.path}`)).toEqual([
        'GET /browsers/nobody-runs-this',
      ]);
    }
  });

  it('a session id is sent as it is, without a lookup', async () => {
    const id = await named('by-id');
    fake.journal.clear();
    expect((await run(['browsers', 'live', id])).code).toBe(0);
    expect(fake.journal.entries.map((entry) => entry.operation)).toEqual([
      'browsers.liveView.create',
    ]);
  });
});

describe('completing a browser', () => {
  const BIN = new URL('../../dist/bin/xb.js', import.meta.url).pathname;

  it('xb __complete offers the running browsers’ ids and names where a browser goes, else files', async () => {
    const { run } = xbAgainst(fake, true);
    const id = (
      onlyJson((await run(['browsers', 'create', '--name', 'shop', '--json'])).stdout) as {
        session_id: string;
      }
    ).session_id;
    const complete = async (words: string[]) => (await run(['__complete', ...words])).stdout;
    expect(await complete(['browsers', 'live', ''])).toBe(`browsers\n${id}\nshop\n`);
    expect(await complete(['computer', 'type', 'sh'])).toBe(`browsers\n${id}\nshop\n`);
    // After the flags, and their values, before the browser.
    expect(
      await complete([
        'browsers',
        'live',
        '--mode',
        'read',
        '--request-timeout',
        '5',
        '--json',
        '',
      ]),
    ).toBe(`browsers\n${id}\nshop\n`);
    expect(await complete(['pools', 'release', 'checkout', ''])).toBe(`browsers\n${id}\nshop\n`);
    // What is not a browser: a path, a flag's value, a pool, an unknown command.
    expect(await complete(['fs', 'ls', 'shop', ''])).toBe('files\n');
    expect(await complete(['computer', 'screenshot', '-o', ''])).toBe('files\n');
    expect(await complete(['pools', 'release', ''])).toBe('files\n');
    expect(await complete(['nothing', 'here', ''])).toBe('files\n');
  });

  it('offers nothing, quietly and at once, without a service or a token', async () => {
    for (const env of [
      { XB_BASE_URL: 'http://127.0.0.1:9', XB_TOKEN: 't' },
      { XB_BASE_URL: fake.url, XB_TOKEN: undefined },
      { XB_BASE_URL: fake.url, XB_TOKEN: 'wrong-token' },
    ]) {
      const started = Date.now();
      const result = await xb(['__complete', 'browsers', 'live', ''], { env });
      expect(result).toEqual({
        code: 0,
        stdout: 'browsers\n',
        stderr: '',
        stdoutChunks: expect.anything(),
      });
      expect(Date.now() - started).toBeLessThan(3000);
    }
  });

  it('bash completes a browser from the service, and file names elsewhere', async () => {
    if (!existsSync(BIN)) throw new Error(`build @x/cli first: ${BIN} is missing`);
    const { run } = xbAgainst(fake, true);
    const id = (
      onlyJson((await run(['browsers', 'create', '--name', 'shop', '--json'])).stdout) as {
        session_id: string;
      }
    ).session_id;
    const folder = scratchFolder();
    writeFileSync(join(folder, 'xb.bash'), (await xb(['completion', 'bash'])).stdout);
    mkdirSync(join(folder, 'bin'));
    writeFileSync(
      join(folder, 'bin', 'xb'),
      `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`,
    );
    chmodSync(join(folder, 'bin', 'xb'), 0o755);
    writeFileSync(join(folder, 'shot.png'), '');
    // Not spawnSync: the fake answers from this process.
    const complete = async (words: string[], env: Record<string, string>) => {
      const script = `cd ${folder}; source xb.bash; COMP_WORDS=(${words.map((word) => `'${word}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _xb; echo "\${COMPREPLY[@]}"`;
      const result = await promisify(execFile)('bash', ['-c', script], {
        encoding: 'utf8',
        env: { PATH: `${join(folder, 'bin')}:${process.env.PATH}`, HOME: folder, ...env },
      });
      return { stdout: result.stdout.trim(), stderr: result.stderr };
    };
    const served = { XB_BASE_URL: fake.url, XB_TOKEN: fake.tokens.token };
    expect(await complete(['xb', 'browsers', 'live', ''], served)).toEqual({
      stdout: `${id} shop`,
      stderr: '',
    });
    expect(await complete(['xb', 'process', 'exec', 'sh'], served)).toEqual({
      stdout: 'shop',
      stderr: '',
    });
    expect(
      (await complete(['xb', 'computer', 'screenshot', 'shop', '-o', 'sh'], served)).stdout,
    ).toBe('shot.png');
    const none = { XB_BASE_URL: 'http://127.0.0.1:9', XB_TOKEN: 't' };
    expect(await complete(['xb', 'browsers', 'live', ''], none)).toEqual({
      stdout: '',
      stderr: '',
    });
  });
});
