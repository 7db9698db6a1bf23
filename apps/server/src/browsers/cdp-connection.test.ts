import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { CdpConnection } from './cdp-connection.js';

/** A connection to a "Chromium" that reads what is sent and answers only when told. */
function silentBrowser(timeoutMs: number) {
  const toBrowser = new PassThrough();
  const fromBrowser = new PassThrough();
  const sent: { id: number; method: string }[] = [];
  toBrowser.on('data', (chunk: Buffer) => {
    for (const text of chunk.toString().split('\0').filter(Boolean)) sent.push(JSON.parse(text));
  });
  const answer = (id: number, result: unknown) =>
    fromBrowser.write(`${JSON.stringify({ id, result })}\0`);
  return { connection: new CdpConnection(toBrowser, fromBrowser, timeoutMs), sent, answer };
}

describe('CdpConnection', () => {
  it('fails a command Chromium does not answer in time, naming it', async () => {
    const { connection } = silentBrowser(50);
    const started = performance.now();
    await expect(connection.send('Page.captureScreenshot')).rejects.toThrow(
      'Page.captureScreenshot: Chromium did not answer within 50 ms.',
    );
    expect(performance.now() - started).toBeGreaterThanOrEqual(45);
  });

  it('answers a command in time, and drops an answer that comes after its time-out', async () => {
    const { connection, sent, answer } = silentBrowser(100);
    const late = connection.send('Slow.method').catch((error: Error) => error.message);
    const quick = connection.send<{ ok: boolean }>('Quick.method');
    answer(sent[1]?.id as number, { ok: true });
    expect(await quick).toEqual({ ok: true });
    expect(await late).toContain('did not answer');
    answer(sent[0]?.id as number, { ok: 'too late' });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(connection.isClosed).toBe(false);
  });
});
