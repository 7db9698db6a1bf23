import { useFakeService } from '@x/testing/vitest';
import { describe, expect, it } from 'vitest';
import { onlyJson, TRANSPORTS, xbAgainst } from '../test-support/run-xb.js';

const fake = useFakeService({ listen: true });

describe.each(TRANSPORTS)('telemetry commands (%s)', (_, overHttp) => {
  const { run } = xbAgainst(fake, overHttp);

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
