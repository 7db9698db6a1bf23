import { describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { heldBytes } from '../test-support/memory.js';
import { useTestServer } from '../test-support/servers.js';

const test = useTestServer();

/** A DevTools client over the proxy: commands answered by id, and a count of what arrived. */
async function devtoolsClient(url: string) {
  const socket = new WebSocket(url, { maxPayload: 1024 * 1024 * 1024 });
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  let nextId = 1;
  const waiting = new Map<number, (message: Record<string, unknown>) => void>();
  let received = 0;
  socket.on('message', (data) => {
    received++;
    const message = JSON.parse(data.toString()) as { id?: number };
    if (message.id !== undefined) waiting.get(message.id)?.(message);
  });
  const send = (method: string, params: object = {}, sessionId?: string) => {
    const id = nextId++;
    socket.send(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }));
    return new Promise<Record<string, unknown>>((resolve) => waiting.set(id, resolve));
  };
  return { socket, send, received: () => received };
}

describe('the CDP proxy', () => {
  it('stops reading a browser whose client stops reading, instead of growing the server', async () => {
    const created = (await test.api.call('POST', '/browsers', { json: {} })).json as {
      session_id: string;
      cdp_ws_url: string;
    };
    const client = await devtoolsClient(created.cdp_ws_url);
    const targets = (await client.send('Target.getTargets')) as {
      result: { targetInfos: { targetId: string; type: string }[] };
    };
    const page = targets.result.targetInfos.find((target) => target.type === 'page');
    const attached = (await client.send('Target.attachToTarget', {
      targetId: page?.targetId,
      flatten: true,
    })) as { result: { sessionId: string } };
    const session = attached.result.sessionId;

    const before = await heldBytes();
    // The client stops reading, and asks for 400 answers of 1 MB each.
    (client.socket as unknown as { _socket: { pause(): void } })._socket.pause();
    const answers = Array.from({ length: 400 }, () =>
      client.send('Runtime.evaluate', { expression: "'x'.repeat(1000000)" }, session),
    );
    await new Promise((resolve) => setTimeout(resolve, 4_000));
    const grown = (await heldBytes()) - before;
    // Without backpressure the server would hold about 400 MB here.
    expect(grown).toBeLessThan(48 * 1024 * 1024);

    // Once it reads again, every answer arrives, none lost.
    (client.socket as unknown as { _socket: { resume(): void } })._socket.resume();
    const all = await Promise.all(answers);
    expect(
      all.every(
        (answer) =>
          (answer.result as { result: { value: string } }).result.value.length === 1000000,
      ),
    ).toBe(true);
    client.socket.close();
    await test.api.call('DELETE', `/browsers/${created.session_id}`);
  }, 120_000);
});
