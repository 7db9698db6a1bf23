import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { useFakeService } from '@x/testing/vitest';
import { describe, expect, it } from 'vitest';
import { onlyJson, scratchFolder, TRANSPORTS, xbAgainst } from '../test-support/run-xb.js';
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
