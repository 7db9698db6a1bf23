import { once } from 'node:events';
import { Agent, createServer, type IncomingMessage, request, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { NodeAgent, passCall } from './relay.js';

/** What the node a call is passed to saw: each call's method, path and connection's count. */
interface Seen {
  readonly method: string | undefined;
  readonly path: string | undefined;
  readonly onCall: number;
}

const opened: Server[] = [];
const agents: Agent[] = [];

afterEach(async () => {
  for (const agent of agents.splice(0)) agent.destroy();
  for (const server of opened.splice(0)) {
    server.closeAllConnections();
    server.close();
    await once(server, 'close');
  }
});

async function listen(server: Server): Promise<string> {
  opened.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/**
 * A node a call is passed to, which closes a connection instead of answering when `cuts` says so
 * (given the call and how many calls its connection carried, this one counted): as a node does
 * whose idle time-out ran out as a call went out on the connection.
 */
async function target(cuts: (incoming: IncomingMessage, onCall: number) => boolean) {
  const seen: Seen[] = [];
  const calls = new WeakMap<Socket, number>();
  const url = await listen(
    createServer((incoming, response) => {
      const onCall = (calls.get(incoming.socket) ?? 0) + 1;
      calls.set(incoming.socket, onCall);
      seen.push({ method: incoming.method, path: incoming.url, onCall });
      if (cuts(incoming, onCall)) {
        incoming.socket.destroy();
        return;
      }
      incoming.resume();
      incoming.on('end', () => response.end(`${incoming.method} ${incoming.url}`));
    }),
  );
  return { url: new URL(url), seen };
}

/** A node that passes every call to `to`, on one kept-alive connection at most. */
async function passer(to: URL): Promise<string> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  agents.push(agent);
  const via = { agent, logger: pino({ level: 'silent' }) };
  return listen(
    createServer((incoming, response) =>
      passCall(via, { incoming, response, target: to, headers: incoming.rawHeaders }),
    ),
  );
}

describe('passCall', () => {
  it('sends a read again when the kept-alive connection it went out on is closed', async () => {
    const { url, seen } = await target((_, onCall) => onCall === 2);
    const front = await passer(url);

    const first = await fetch(`${front}/browser_pools/bench`);
    expect(await first.text()).toBe('GET /browser_pools/bench');
    const second = await fetch(`${front}/browser_pools/bench`);

    expect(second.status).toBe(200);
    expect(await second.text()).toBe('GET /browser_pools/bench');
    // Cut on the kept-alive connection (its second call), answered on a new one.
    expect(seen.map((call) => call.onCall)).toEqual([1, 2, 1]);
  });

  it('does not send again a call with a body, nor one cut on a new connection', async () => {
    const { url, seen } = await target(
      (incoming, onCall) => onCall === 2 || incoming.url === '/always',
    );
    const front = await passer(url);
    await (await fetch(`${front}/warm`)).text();

    const write = await fetch(`${front}/browser_pools/bench/acquire`, {
      method: 'POST',
      body: '{}',
    });
    expect(write.status).toBe(502);
    expect(write.headers.get('retry-after')).toBe('2');
    expect(await write.json()).toMatchObject({ code: 'bad_gateway' });

    // A new connection each time now (the last one was closed): a cut there is not a race.
    const read = await fetch(`${front}/always`);
    expect(read.status).toBe(502);
    await read.text();

    expect(seen.map((call) => `${call.method} ${call.path} ${call.onCall}`)).toEqual([
      'GET /warm 1',
      'POST /browser_pools/bench/acquire 2',
      'GET /always 1',
    ]);
  });

  it('sends a read again once at most', async () => {
    // Cut on the reused connection, then again on the new one it is sent on: 502, no third try.
    const { url, seen } = await target((incoming, onCall) => onCall > 1 || incoming.url === '/b');
    const front = await passer(url);
    await (await fetch(`${front}/a`)).text();

    const cut = await fetch(`${front}/b`);
    expect(cut.status).toBe(502);
    await cut.text();
    expect(seen.map((call) => `${call.path} ${call.onCall}`)).toEqual(['/a 1', '/b 2', '/b 1']);
  });
});

describe('NodeAgent', () => {
  /** A GET of `path` through `agent`: whether it went out on a kept-alive connection. */
  function get(agent: Agent, url: string, path: string): Promise<boolean> {
    return new Promise((resolve, reject) => {
      const call = request(`${url}${path}`, { agent }, (answer) => {
        answer.resume();
        answer.on('end', () => resolve(call.reusedSocket));
      });
      call.on('error', reject);
      call.end();
    });
  }

  it('closes a connection idle for its time, before the node at the other end would', async () => {
    const closed: number[] = [];
    const server = createServer((incoming, response) => {
      const wait = Number(new URL(incoming.url ?? '/', 'http://node').searchParams.get('wait'));
      setTimeout(() => response.end('answered'), wait);
    });
    server.on('connection', (socket: Socket) =>
      socket.on('close', () => closed.push(performance.now())),
    );
    const url = await listen(server);
    const agent = new NodeAgent(300);
    agents.push(agent);

    expect(await get(agent, url, '/')).toBe(false);
    // A call longer than the idle time, on the kept connection, is not cut by it.
    expect(await get(agent, url, '/?wait=700')).toBe(true);
    const idleFrom = performance.now();
    while (closed.length === 0 && performance.now() - idleFrom < 3_000) await delay(20);

    expect(closed).toHaveLength(1);
    const idle = (closed[0] as number) - idleFrom;
    expect(idle).toBeGreaterThanOrEqual(250);
    expect(idle).toBeLessThan(server.keepAliveTimeout);
    expect(await get(agent, url, '/')).toBe(false);
  });
});
