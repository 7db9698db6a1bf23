/** A DevTools protocol error answered to one command. */
export class CdpError extends Error {
  override readonly name = 'CdpError';
}

type Listener = (params: unknown, sessionId: string | undefined) => void;

interface PendingCommand {
  resolve(result: unknown): void;
  reject(error: Error): void;
  method: string;
}

/**
 * A connection to Chromium's DevTools socket: commands with their answers, events by name, and
 * flat sessions for page targets. Uses the platform WebSocket (Node 22+).
 */
export class CdpConnection {
  readonly #socket: WebSocket;
  readonly #pending = new Map<number, PendingCommand>();
  readonly #listeners = new Map<string, Set<Listener>>();
  #nextId = 1;
  #closed: Error | undefined;

  private constructor(socket: WebSocket) {
    this.#socket = socket;
    socket.addEventListener('message', (event) => this.#receive(String(event.data)));
    socket.addEventListener('close', () =>
      this.#fail(new CdpError('The DevTools connection closed.')),
    );
  }

  /** Connects to a DevTools WebSocket URL. */
  static connect(url: string, timeoutMs = 10_000): Promise<CdpConnection> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url);
      const timer = setTimeout(() => {
        socket.close();
        reject(new CdpError(`No DevTools connection to ${url} within ${timeoutMs} ms.`));
      }, timeoutMs);
      socket.addEventListener('open', () => {
        clearTimeout(timer);
        resolve(new CdpConnection(socket));
      });
      socket.addEventListener('error', () => {
        clearTimeout(timer);
        reject(new CdpError(`Cannot connect to DevTools at ${url}.`));
      });
    });
  }

  /** Sends a command (to a page's session when given) and resolves to its result. */
  send<T = unknown>(
    method: string,
    params: Record<string, unknown> = {},
    sessionId?: string,
  ): Promise<T> {
    if (this.#closed) return Promise.reject(this.#closed);
    const id = this.#nextId++;
    const message =
      sessionId === undefined ? { id, method, params } : { id, method, params, sessionId };
    return new Promise<T>((resolve, reject) => {
      this.#pending.set(id, { resolve: resolve as (result: unknown) => void, reject, method });
      this.#socket.send(JSON.stringify(message));
    });
  }

  /** Calls `listener` for each event `method`; returns a function that stops it. */
  on(method: string, listener: Listener): () => void {
    let listeners = this.#listeners.get(method);
    if (!listeners) {
      listeners = new Set();
      this.#listeners.set(method, listeners);
    }
    listeners.add(listener);
    return () => listeners.delete(listener);
  }

  /** Whether the connection is gone. */
  get isClosed(): boolean {
    return this.#closed !== undefined;
  }

  close(): void {
    this.#socket.close();
    this.#fail(new CdpError('The DevTools connection was closed.'));
  }

  #receive(text: string): void {
    const message = JSON.parse(text) as {
      id?: number;
      result?: unknown;
      error?: { message: string };
      method?: string;
      params?: unknown;
      sessionId?: string;
    };
    if (message.id !== undefined) {
      const pending = this.#pending.get(message.id);
      if (!pending) return;
      this.#pending.delete(message.id);
      if (message.error)
        pending.reject(new CdpError(`${pending.method}: ${message.error.message}`));
      else pending.resolve(message.result);
      return;
    }
    if (message.method) {
      for (const listener of this.#listeners.get(message.method) ?? [])
        listener(message.params, message.sessionId);
    }
  }

  #fail(error: Error): void {
    if (this.#closed) return;
    this.#closed = error;
    for (const pending of this.#pending.values()) pending.reject(error);
    this.#pending.clear();
  }
}
