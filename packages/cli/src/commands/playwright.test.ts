import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { useFakeService } from '@x/testing/vitest';
import { describe, expect, it } from 'vitest';
import { onlyJson, TRANSPORTS, xbAgainst } from '../test-support/run-xb.js';

const fake = useFakeService({ listen: true });

describe.each(TRANSPORTS)('playwright commands (%s)', (_, overHttp) => {
  const { run, newBrowser } = xbAgainst(fake, overHttp);

  it('playwright exec prints what the code logged, then its result', async () => {
    const id = await newBrowser();
    fake.scriptPlaywright('return title()', {
      outcome: { success: true, result: { title: 'Example' }, stdout: 'loading\n' },
    });
    expect(await run(['playwright', 'exec', id, 'return title()'])).toMatchObject({
      code: 0,
      stdout: 'loading\n{\n  "title": "Example"\n}\n',
    });
    expect(onlyJson((await run(['playwright', 'exec', id, 'return 7', '--json'])).stdout)).toEqual({
      success: true,
      result: 7,
    });
    const folder = mkdtempSync(join(tmpdir(), 'xb-playwright-'));
    writeFileSync(join(folder, 'code.ts'), 'return [1, 2]');
    expect(
      (
        await run([
          'playwright',
          'exec',
          id,
          '--file',
          join(folder, 'code.ts'),
          '--timeout-sec',
          '5',
        ])
      ).stdout,
    ).toBe('[\n  1,\n  2\n]\n');
  });

  it('exits 3 when the code failed, 2 without code, 5 for a browser that is not there', async () => {
    const id = await newBrowser();
    const failed = await run(['playwright', 'exec', id, 'throw new Error("no button")']);
    expect(failed.code).toBe(3);
    expect(failed.stderr).toMatch(/Error: no button/);
    expect(failed.stderr).toMatch(/The code failed: no button/);
    expect((await run(['playwright', 'exec', id])).code).toBe(2);
    expect((await run(['playwright', 'exec', 'br_nothere', 'return 1'])).code).toBe(5);
  });
});
