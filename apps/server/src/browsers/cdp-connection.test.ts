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
  /** Writes a message as Chromium would, ended by its NUL byte. */
  const emit = (message: unknown) => fromBrowser.write(`${JSON.stringify(message)}\0`);
  return {
    connection: new CdpConnection(toBrowser, fromBrowser, timeoutMs),
    sent,
    answer,
    emit,
  };
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

  it("holds clients' input, and all a client sends after its first input, until let go", async () => {
    const { connection, sent, answer } = silentBrowser(1000);
    const ends: string[] = [];
    const open = async (name: string) => {
      const opening = connection.openChannel({ deliver() {}, end: () => ends.push(name) });
      await new Promise((resolve) => setTimeout(resolve, 5));
      answer(sent.at(-1)?.id as number, { sessionId: `S_${name}` });
      return opening;
    };
    const agent = await open('agent');
    const reader = await open('reader');
    const before = sent.length;
    connection.holdClientInput(true);
    expect(agent.send('{"id":1,"method":"Input.dispatchKeyEvent","params":{"type":"char"}}')).toBe(
      false,
    );
    expect(agent.send('{"id":2,"method":"Runtime.evaluate","params":{}}')).toBe(false);
    let resumed = false;
    agent.whenWritable(() => {
      resumed = true;
    });
    // Another client that sends no input is not held; the server's own commands never are.
    expect(reader.send('{"id":1,"method":"Runtime.evaluate","params":{}}')).toBe(true);
    void connection.send('Input.dispatchMouseEvent').catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(sent.slice(before).map((message) => message.method)).toEqual([
      'Runtime.evaluate',
      'Input.dispatchMouseEvent',
    ]);
    expect(resumed).toBe(false);
    connection.holdClientInput(false);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(sent.slice(before + 2).map((message) => [message.method, message.id])).toEqual([
      ['Input.dispatchKeyEvent', 1],
      ['Runtime.evaluate', 2],
    ]);
    expect(resumed).toBe(true);

    // A client that goes on sending past 16 MiB while held is ended, not kept.
    connection.holdClientInput(true);
    agent.send('{"id":3,"method":"Input.insertText","params":{"text":"a"}}');
    const big = `{"id":4,"method":"Runtime.evaluate","params":{"expression":"${'x'.repeat(17 * 1024 * 1024)}"}}`;
    agent.send(big);
    expect(ends).toEqual(['agent']);
    connection.holdClientInput(false);
    connection.close();
  });

  it("passes Chromium's messages to the channel owning their session, whole or by a scan alike", async () => {
    const { connection, sent, answer, emit: chromium } = silentBrowser(1000);
    const heard: Record<string, string[]> = { agent: [], other: [] };
    /** How each message reached the agent: as Chromium's bytes (scanned) or rewritten text. */
    const ways: string[] = [];
    const open = async (name: 'agent' | 'other') => {
      const opening = connection.openChannel({
        deliver: (message) => {
          heard[name]?.push(message.toString());
          if (name === 'agent') ways.push(Buffer.isBuffer(message) ? 'bytes' : 'text');
        },
        end() {},
      });
      await new Promise((resolve) => setTimeout(resolve, 5));
      answer(sent.at(-1)?.id as number, { sessionId: `B_${name}` });
      return opening;
    };
    const agent = await open('agent');
    await open('other');
    // An answer on the agent's browser session: its session is implied, so left out.
    agent.send('{"id":7,"method":"Browser.getVersion"}');
    chromium({ id: 7, result: { product: 'x'.repeat(100_000) }, sessionId: 'B_agent' });
    // The agent attaches a page: the answer names a second session, read whole, now its own.
    agent.send('{"id":8,"method":"Target.attachToTarget","params":{"targetId":"T"}}');
    chromium({ id: 8, result: { sessionId: 'P_agent' }, sessionId: 'B_agent' });
    // A page event and a large answer on that page go to the agent as they came.
    chromium({ method: 'Page.loadEventFired', params: { timestamp: 1 }, sessionId: 'P_agent' });
    const shot = { id: 9, result: { data: 'A'.repeat(1_000_000) }, sessionId: 'P_agent' };
    chromium(shot);
    // A message naming a session only in its content is not routed by it.
    chromium({ id: 3, result: { value: { sessionId: 'P_agent' } } });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(heard.agent?.map((text) => JSON.parse(text))).toEqual([
      { id: 7, result: { product: 'x'.repeat(100_000) } },
      { id: 8, result: { sessionId: 'P_agent' } },
      { method: 'Page.loadEventFired', params: { timestamp: 1 }, sessionId: 'P_agent' },
      shot,
    ]);
    expect(ways).toEqual(['bytes', 'text', 'bytes', 'bytes']);
    expect(heard.other).toEqual([]);
    connection.close();
  });
});
