import { once } from 'node:events';
import { createServer } from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { TEST_TOKEN, useTestServer } from '../test-support/servers.js';
import { ConnectionGuard } from './connection-guard.js';

const test = useTestServer({
  XB_MAX_CONNECTIONS_PER_CLIENT: '48',
  XB_MAX_UNAUTHENTICATED_CONNECTIONS: '16',
});

/** Opens a TCP connection to the server (or `url`); resolves once it is connected. */
function open(url = test.server.url): Promise<Socket> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Whether the server has closed the socket, within `ms`. */
function closedWithin(socket: Socket, ms: number): Promise<boolean> {
  if (socket.destroyed || socket.readableEnded) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve(true);
    });
    socket.resume();
  });
}

/** A keep-alive request with the token on `socket`; resolves with its status line. */
function authenticate(socket: Socket): Promise<string> {
  return new Promise((resolve) => {
    socket.once('data', (chunk: Buffer) => resolve(chunk.toString().split('\r\n')[0] ?? ''));
    socket.write(
      `GET /browsers HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TEST_TOKEN}\r\n\r\n`,
    );
  });
}

async function refused(): Promise<Record<string, number>> {
  const text = await (
    await fetch(`${test.server.url}/metrics`, {
      headers: { authorization: `Bearer ${TEST_TOKEN}` },
    })
  ).text();
  const counts: Record<string, number> = {};
  for (const [, reason, value] of text.matchAll(
    /^xb_connections_refused_total\{reason="(\w+)"\} (\d+)$/gm,
  ))
    counts[reason as string] = Number(value);
  return counts;
}

describe('connections a caller may hold', () => {
  it('closes the oldest idle connections with no credential, and a caller with a token gets in', async () => {
    const idle: Socket[] = [];
    try {
      for (let count = 0; count < 100; count++) idle.push(await open());
      // The bound holds however many came: at most 16 idle ones stay open.
      const closed = await Promise.all(idle.map((socket) => closedWithin(socket, 1_000)));
      expect(closed.filter((isClosed) => !isClosed).length).toBeLessThanOrEqual(16);
      expect(closed.slice(0, 50).every(Boolean)).toBe(true); // the oldest went first
      const created = await fetch(`${test.server.url}/browsers`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TEST_TOKEN}`, 'content-type': 'application/json' },
        body: '{}',
      });
      expect(created.status).toBe(201);
      const { session_id } = (await created.json()) as { session_id: string };
      await fetch(`${test.server.url}/browsers/${session_id}`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${TEST_TOKEN}` },
      });
      expect((await refused()).unauthenticated).toBeGreaterThanOrEqual(84);
    } finally {
      for (const socket of idle) socket.destroy();
    }
  });

  it('keeps authenticated connections, up to what one address may hold', async () => {
    const held: Socket[] = [];
    try {
      const before = (await refused()).per_client ?? 0;
      // Control: each of these shows the token, so none is an idle one to close.
      for (let count = 0; count < 40; count++) {
        const socket = await open();
        held.push(socket);
        expect(await authenticate(socket)).toBe('HTTP/1.1 200 OK');
      }
      const more: Socket[] = [];
      for (let count = 0; count < 20; count++) more.push(await open());
      held.push(...more);
      const closed = await Promise.all(more.map((socket) => closedWithin(socket, 1_000)));
      expect(closed.filter(Boolean).length).toBeGreaterThanOrEqual(12); // 48 at most, with others' own
      expect((await refused()).per_client).toBeGreaterThan(before);
      const still = await Promise.all(held.slice(0, 40).map((socket) => closedWithin(socket, 50)));
      expect(still.every((isClosed) => !isClosed)).toBe(true);
    } finally {
      for (const socket of held) socket.destroy();
    }
  });

  it("closes none of another node's connections for newer ones, however many arrive at once", async () => {
    const server = createServer((_, response) => response.end());
    const limits = { perClient: 4, unauthenticated: 2 };
    let isNode = true;
    const guard = new ConnectionGuard(
      server,
      limits,
      () => false,
      () => isNode,
    );
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const sockets: Socket[] = [];
    try {
      // A burst from a node: past both bounds, and none closed.
      for (let count = 0; count < 8; count++) sockets.push(await open(url));
      const closed = await Promise.all(sockets.map((socket) => closedWithin(socket, 300)));
      expect(closed.filter(Boolean)).toHaveLength(0);
      expect(guard.refused).toEqual({ perClient: 0, unauthenticated: 0 });
      // The same from a client: the oldest idle ones go, and the address's bound holds.
      isNode = false;
      const more: Socket[] = [];
      for (let count = 0; count < 3; count++) more.push(await open(url));
      sockets.push(...more);
      const closedMore = await Promise.all(more.map((socket) => closedWithin(socket, 300)));
      expect(closedMore.every(Boolean)).toBe(true);
      expect(guard.refused.perClient).toBe(3);
    } finally {
      for (const socket of sockets) socket.destroy();
      server.close();
    }
  });
});
