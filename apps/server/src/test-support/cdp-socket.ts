/** A raw DevTools client over a WebSocket, as an attacker holding a `cdp_ws_url` would use. */
export interface CdpSocket {
  /** Sends a command (to a session when given); rejects with the error Chromium answers. */
  send<T = Record<string, unknown>>(
    method: string,
    params?: Record<string, unknown>,
    sessionId?: string,
  ): Promise<T>;
  /** Events received so far, by method. */
  readonly events: { method: string; params: Record<string, unknown>; sessionId?: string }[];
  /** Resolves when the server ends the connection. */
  readonly closed: Promise<void>;
  close(): void;
}

/** Connects to a `cdp_ws_url`; rejects when the server refuses the upgrade. */
export function connectCdp(url: string, timeoutMs = 10_000): Promise<CdpSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url);
    const pending = new Map<
      number,
      { resolve(value: unknown): void; reject(error: Error): void }
    >();
    const events: CdpSocket['events'] = [];
    let nextId = 1;
    const timer = setTimeout(() => {
      socket.close();
      reject(new Error(`No DevTools connection within ${timeoutMs} ms.`));
    }, timeoutMs);
    const closed = new Promise<void>((done) =>
      socket.addEventListener('close', () => {
        for (const waiting of pending.values()) waiting.reject(new Error('The connection closed.'));
        pending.clear();
        done();
      }),
    );
    socket.addEventListener('message', (event) => {
      const message = JSON.parse(String(event.data));
      if (message.id === undefined) return void events.push(message);
      const waiting = pending.get(message.id);
      pending.delete(message.id);
      if (message.error) waiting?.reject(new Error(message.error.message));
      else waiting?.resolve(message.result);
    });
    socket.addEventListener('error', () => {
      clearTimeout(timer);
      reject(new Error(`Cannot connect to ${url}.`));
    });
    socket.addEventListener('open', () => {
      clearTimeout(timer);
      resolve({
        send(method, params = {}, sessionId) {
          const id = nextId++;
          return new Promise((done, fail) => {
            pending.set(id, { resolve: done as (value: unknown) => void, reject: fail });
            socket.send(
              JSON.stringify(
                sessionId ? { id, method, params, sessionId } : { id, method, params },
              ),
            );
          });
        },
        events,
        closed,
        close: () => socket.close(),
      });
    });
  });
}

/** Attaches to the browser's first page; resolves to the page's session. */
export async function attachToPage(cdp: CdpSocket): Promise<string> {
  const { targetInfos } = await cdp.send<{ targetInfos: { targetId: string; type: string }[] }>(
    'Target.getTargets',
  );
  const page = targetInfos.find((target) => target.type === 'page');
  const { sessionId } = await cdp.send<{ sessionId: string }>('Target.attachToTarget', {
    targetId: page?.targetId,
    flatten: true,
  });
  return sessionId;
}
