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

describe.each(TRANSPORTS)('curl and logs commands (%s)', (_, overHttp) => {
  const { run, newBrowser } = xbAgainst(fake, overHttp);

  it('browsers curl prints the body, the status and headers with -i, and JSON with --json', async () => {
    const id = await newBrowser();
    fake.scriptSite('https://shop.example', (request) => ({
      status: 201,
      headers: [['content-type', 'text/plain']],
      body: `${request.method} ${request.body ?? ''}`,
    }));
    expect(
      await run([
        'browsers',
        'curl',
        id,
        'https://shop.example/cart',
        '--method',
        'POST',
        '--body',
        'apples',
      ]),
    ).toMatchObject({ code: 0, stdout: 'POST apples' });
    expect((await run(['browsers', 'curl', id, 'https://shop.example/', '-i'])).stdout).toBe(
      'HTTP 201\ncontent-type: text/plain\n\nGET ',
    );
    expect(
      onlyJson((await run(['browsers', 'curl', id, 'https://shop.example/', '--json'])).stdout),
    ).toMatchObject({
      status: 201,
      headers: { 'content-type': ['text/plain'] },
    });
    const nowhere = await run(['browsers', 'curl', id, 'https://nowhere.example/']);
    expect(nowhere.code).not.toBe(0);
    expect(nowhere.stderr).toMatch(/nowhere\.example/);
  });

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

  it('telemetry events lists what a session captured; telemetry stream replays it', async () => {
    const created = await run([
      'browsers',
      'create',
      '--telemetry',
      '{"browser":{"console":{"enabled":true}}}',
      '--json',
    ]);
    const { session_id: id, telemetry } = onlyJson(created.stdout) as {
      session_id: string;
      telemetry: { browser: Record<string, { enabled: boolean }> };
    };
    expect(telemetry.browser.console).toEqual({ enabled: true });
    fake.pageEvent(id, { category: 'console', type: 'console_log', data: { text: 'hello there' } });
    await run(['computer', 'type', id, 'hi']);
    const listed = await run(['telemetry', 'events', id]);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(/console\s+console_log\s+hello there/);
    expect(listed.stdout).toMatch(/control\s+api_call\s+browsers\.computer\.type 204/);
    const consoleOnly = onlyJson(
      (await run(['telemetry', 'events', id, '--category', 'console', '--json'])).stdout,
    ) as { seq: number }[];
    expect(consoleOnly.map((envelope) => envelope.seq)).toEqual([1]);
    // A stream follows until the session ends; replay=all starts from the oldest event kept.
    const opened = fake.journal.count('browsers.telemetry.stream');
    const streaming = run(['telemetry', 'stream', id, '--replay', 'all']);
    // The browser ends once the stream is open (by the journal, not by the clock).
    await expect
      .poll(() => fake.journal.count('browsers.telemetry.stream'), { timeout: 10_000 })
      .toBeGreaterThan(opened);
    await run(['browsers', 'delete', id]);
    const streamed = await streaming;
    expect(streamed.code).toBe(0);
    expect(streamed.stdout).toMatch(/^1 \S+ \S+ console console_log hello there$/m);
    expect(streamed.stdout).toMatch(/^2 \S+ \S+ control api_call browsers\.computer\.type/m);
  });
});
