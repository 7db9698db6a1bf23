import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { useFakeService } from '@x/testing/vitest';
import { describe, expect, it } from 'vitest';
import { TRANSPORTS, xbAgainst } from '../test-support/run-xb.js';

const fake = useFakeService({ listen: true });

describe.each(TRANSPORTS)('logs commands (%s)', (_, overHttp) => {
  const { run, newBrowser } = xbAgainst(fake, overHttp);

  it('logs stream prints the lines of a file, and of the session log', async () => {
    const id = await newBrowser();
    const folder = mkdtempSync(join(tmpdir(), 'xb-logs-'));
    writeFileSync(join(folder, 'app.log'), 'one\ntwo\n');
    expect(
      (await run(['fs', 'write', id, '/home/browser/app.log', join(folder, 'app.log')])).code,
    ).toBe(0);
    expect(await run(['logs', 'stream', id, '/home/browser/app.log', '--no-follow'])).toMatchObject(
      { code: 0, stdout: 'one\ntwo\n' },
    );
    const service = await run(['logs', 'stream', id, '--no-follow', '-t']);
    expect(service.stdout).toMatch(new RegExp(`^\\[\\d{4}-.*Z\\] browser ${id} started\\n$`));
  });
});
