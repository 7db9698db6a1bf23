import type { Readable, Writable } from 'node:stream';
import { describeOverflow, readBoundedRecords } from '../system/bounded-records.js';

/** A DevTools protocol error answered to one command. */
export class CdpError extends Error {
  override readonly name = 'CdpError';
}

type Listener = (params: unknown, sessionId: string | undefined) => void;

interface PendingCommand {
  resolve(result: unknown): void;
  reject(error: Error): void;
  method: string;
  sessionId: string | undefined;
  timer: ReturnType<typeof setTimeout>;
}

/**
 * Longest the server waits for Chromium to answer one of its own commands: a browser that hangs
 * fails the call that needed it (and nothing waits on it forever) instead of hanging it.
 */
export const CDP_COMMAND_TIMEOUT_MS = 30_000;

/** One message of the DevTools protocol. */
interface CdpMessage {
  id?: number;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { code?: number; message: string };
  sessionId?: string;
}

/** How a channel's client is reached: what Chromium sends it, and its end. */
export interface ChannelClient {
  /** A DevTools message for the client: JSON text, as a string or its UTF-8 bytes. */
  deliver(message: string | Buffer): void;
  /** The browser is gone or the channel was closed: the client's connection ends. */
  end(): void;
  /**
   * Whether more waits to reach the client than it should hold: the connection then stops
   * reading Chromium until the channel hears `drained()`, so a client that does not read slows
   * its browser down instead of growing the server.
   */
  isCongested?(): boolean;
}

/** A client's own DevTools session over the browser's one connection (see `openChannel`). */
export interface CdpChannel {
  /**
   * Passes a message from the client to Chromium; false when Chromium has more waiting than it
   * should hold (the client should pause until `whenWritable`).
   */
  send(text: string): boolean;
  /** Calls `resume` once what waits for Chromium has gone down. */
  whenWritable(resume: () => void): void;
  /** The client caught up after being congested: Chromium is read again. */
  drained(): void;
  /** Detaches the client's sessions; the client is not told (it is leaving). */
  close(): void;
}

/** A channel's state: its browser session and every session it attached since. */
interface OpenChannel {
  readonly client: ChannelClient;
  readonly browserSession: string;
  readonly sessions: Set<string>;
  /** What it sent from its first input command on, while clients' input is held; in order. */
  held: string[] | undefined;
  heldBytes: number;
  /** Who waits for it to be writable again (the held messages gone on). */
  readonly resumes: (() => void)[];
}

/** A client's input command (`Input.dispatchMouseEvent`, `Input.insertText`, …), by its text. */
const INPUT_COMMAND = /"method"\s*:\s*"Input\./;

/** Bytes a channel may have held past which it is ended: a client that does not stop sending. */
const MAX_HELD_BYTES = 16 * 1024 * 1024;

/** The byte that ends every message on Chromium's DevTools pipe. */
const NUL = 0;

/**
 * Longest message read from Chromium: what a page can make it send (a console call's
 * arguments, a script's result) stays below the longest string the server can hold; past it
 * the connection fails, and with it only this browser.
 */
const MAX_MESSAGE_BYTES = 480 * 1024 * 1024;

/** How Chromium writes a message's session: the last member of the message, without spaces. */
const SESSION_MEMBER = Buffer.from('"sessionId":"');
const [QUOTE, CLOSING_BRACE, COMMA] = [0x22, 0x7d, 0x2c];
/** A message that starts so is a `Target.*` event: the channel may gain or lose a session. */
const TARGET_EVENT = Buffer.from('{"method":"Target.');

/**
 * The DevTools connection to one Chromium, over the pipe Chromium was started with
 * (`--remote-debugging-pipe`: it reads fd 3, writes fd 4, messages end with a NUL byte), so no
 * port ever listens. Commands with their answers, events by name, flat sessions for page
 * targets; and channels: clients of the CDP proxy, each with a browser session of its own on
 * this one connection, who only ever see and drive the sessions they attached.
 */
export class CdpConnection {
  readonly #input: Writable;
  readonly #pending = new Map<number, PendingCommand>();
  readonly #listeners = new Map<string, Set<Listener>>();
  /** Channels by every session they own. */
  readonly #channelOf = new Map<string, OpenChannel>();
  readonly #channels = new Set<OpenChannel>();
  /** Channels whose client is congested: while any is, Chromium is not read. */
  readonly #holds = new Set<OpenChannel>();
  readonly #output: Readable;
  #nextId = 1;
  #closed: Error | undefined;
  /** Whether clients' input waits now (a person holds the session's control). */
  #isInputHeld = false;

  readonly #timeoutMs: number;

  constructor(input: Writable, output: Readable, timeoutMs = CDP_COMMAND_TIMEOUT_MS) {
    this.#input = input;
    this.#output = output;
    this.#timeoutMs = timeoutMs;
    readBoundedRecords(output, {
      delimiter: NUL,
      maxRecordBytes: MAX_MESSAGE_BYTES,
      onRecord: (raw) => {
        if (!this.#relay(raw)) this.#receive(raw.toString('utf8'));
      },
      onOverflow: (overflow) => {
        this.#fail(new CdpError(describeOverflow(overflow, 'Chromium')));
        this.#input.destroy();
      },
    });
    const fail = () => this.#fail(new CdpError('The DevTools connection closed.'));
    output.on('close', fail);
    output.on('error', fail);
    input.on('error', fail);
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
      const timer = setTimeout(() => {
        // A late answer finds nothing pending and is dropped.
        this.#pending.delete(id);
        reject(new CdpError(`${method}: Chromium did not answer within ${this.#timeoutMs} ms.`));
      }, this.#timeoutMs);
      timer.unref();
      this.#pending.set(id, {
        resolve: resolve as (result: unknown) => void,
        reject,
        method,
        sessionId,
        timer,
      });
      this.#write(JSON.stringify(message));
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

  /**
   * Opens a channel for a client: a browser session of its own (`Target.attachToBrowserTarget`),
   * so what it sets at browser level (auto-attach, discovery, downloads) is its own. Its messages
   * without a session go to that browser session; a session it did not attach is refused, and
   * it hears only its sessions' answers and events.
   */
  async openChannel(client: ChannelClient): Promise<CdpChannel> {
    const { sessionId } = await this.send<{ sessionId: string }>('Target.attachToBrowserTarget');
    const channel: OpenChannel = {
      client,
      browserSession: sessionId,
      sessions: new Set(),
      held: undefined,
      heldBytes: 0,
      resumes: [],
    };
    if (this.#closed) {
      client.end();
      return { send: () => true, whenWritable() {}, drained() {}, close() {} };
    }
    this.#channels.add(channel);
    this.#channelOf.set(sessionId, channel);
    return {
      send: (text) => {
        // Input is held: its first input command and all it sends after wait, in order.
        if (channel.held || (this.#isInputHeld && INPUT_COMMAND.test(text))) {
          channel.held ??= [];
          channel.held.push(text);
          channel.heldBytes += text.length;
          if (channel.heldBytes > MAX_HELD_BYTES) {
            this.#closeChannel(channel, true);
            channel.client.end();
          }
          return false;
        }
        this.#fromClient(channel, text);
        return this.#input.writableLength < this.#input.writableHighWaterMark;
      },
      whenWritable: (resume) => {
        if (channel.held) channel.resumes.push(resume);
        else this.#whenWritable(resume);
      },
      drained: () => this.#release(channel),
      close: () => this.#closeChannel(channel, true),
    };
  }

  /**
   * Holds (true) or lets go (false) the input of every client: while held, a client's first
   * input command (`Input.*`) and everything it sends after wait, in order, and the client is
   * not read meanwhile; let go, they go on as sent. The server's own commands are never held.
   */
  holdClientInput(isHeld: boolean): void {
    this.#isInputHeld = isHeld;
    if (isHeld) return;
    for (const channel of this.#channels) {
      const held = channel.held;
      if (!held) continue;
      channel.held = undefined;
      channel.heldBytes = 0;
      for (const text of held) this.#fromClient(channel, text);
      for (const resume of channel.resumes.splice(0)) this.#whenWritable(resume);
    }
  }

  #whenWritable(resume: () => void): void {
    if (this.#input.writableLength < this.#input.writableHighWaterMark) resume();
    else this.#input.once('drain', resume);
  }

  /** Whether the connection is gone. */
  get isClosed(): boolean {
    return this.#closed !== undefined;
  }

  close(): void {
    this.#input.destroy();
    this.#fail(new CdpError('The DevTools connection was closed.'));
  }

  #write(text: string): void {
    this.#input.write(Buffer.concat([Buffer.from(text), Buffer.of(NUL)]));
  }

  /**
   * Passes a message for a channel on as it came, without reading it whole: a screenshot or a
   * large answer costs the proxy a scan for its session instead of a parse and a rewrite. Only
   * what cannot change the channel's sessions goes so: one session member, last, and no
   * `Target.*` event (attach answers carry a second session and are read whole). False when the
   * message must be read.
   */
  #relay(raw: Buffer): boolean {
    const member = raw.indexOf(SESSION_MEMBER);
    if (member === -1 || raw.indexOf(SESSION_MEMBER, member + 1) !== -1) return false;
    const idStart = member + SESSION_MEMBER.length;
    const idEnd = raw.length - 2;
    if (raw[member - 1] !== COMMA || raw[idEnd] !== QUOTE || raw[idEnd + 1] !== CLOSING_BRACE)
      return false;
    if (raw.subarray(0, TARGET_EVENT.length).equals(TARGET_EVENT)) return false;
    const sessionId = raw.toString('latin1', idStart, idEnd);
    if (sessionId.includes('"') || sessionId.includes('\\')) return false;
    const channel = this.#channelOf.get(sessionId);
    if (!channel) return false;
    // Its browser session is implied: the client never named it.
    this.#deliver(
      channel,
      sessionId === channel.browserSession
        ? Buffer.concat([raw.subarray(0, member - 1), Buffer.of(CLOSING_BRACE)])
        : raw,
    );
    return true;
  }

  #receive(text: string): void {
    let message: CdpMessage;
    try {
      message = JSON.parse(text) as CdpMessage;
    } catch {
      return;
    }
    const channel = message.sessionId && this.#channelOf.get(message.sessionId);
    if (channel) {
      this.#toClient(channel, message);
      return;
    }
    if (message.id !== undefined) {
      const pending = this.#pending.get(message.id);
      // A late answer on a closed channel's session may share an id with a command of ours.
      if (!pending || pending.sessionId !== message.sessionId) return;
      this.#pending.delete(message.id);
      clearTimeout(pending.timer);
      if (message.error)
        pending.reject(new CdpError(`${pending.method}: ${message.error.message}`));
      else pending.resolve(message.result);
      return;
    }
    if (message.method) {
      // A listener that throws fails the connection (see the constructor), not the process.
      for (const listener of this.#listeners.get(message.method) ?? [])
        listener(message.params, message.sessionId);
    }
  }

  /** A message for a channel: the sessions it attaches become its own; its browser session is implied. */
  #toClient(channel: OpenChannel, message: CdpMessage): void {
    const attached =
      message.method === 'Target.attachedToTarget'
        ? message.params?.sessionId
        : message.result?.sessionId;
    if (typeof attached === 'string') this.#own(channel, attached);
    if (message.method === 'Target.detachedFromTarget') {
      const detached = message.params?.sessionId;
      if (typeof detached === 'string' && detached !== channel.browserSession) {
        channel.sessions.delete(detached);
        this.#channelOf.delete(detached);
      }
    }
    if (message.sessionId === channel.browserSession) delete message.sessionId;
    this.#deliver(channel, JSON.stringify(message));
  }

  #deliver(channel: OpenChannel, message: string | Buffer): void {
    channel.client.deliver(message);
    if (channel.client.isCongested?.() && !this.#holds.has(channel)) {
      this.#holds.add(channel);
      this.#output.pause();
    }
  }

  /** A channel's client caught up (or left): Chromium is read again once no client is behind. */
  #release(channel: OpenChannel): void {
    if (!this.#holds.delete(channel)) return;
    if (this.#holds.size === 0) this.#output.resume();
  }

  #own(channel: OpenChannel, sessionId: string): void {
    channel.sessions.add(sessionId);
    this.#channelOf.set(sessionId, channel);
  }

  #fromClient(channel: OpenChannel, text: string): void {
    if (!this.#channels.has(channel)) return;
    let message: CdpMessage;
    try {
      message = JSON.parse(text) as CdpMessage;
    } catch {
      // Chromium answers an unparsable message without an id; the client gets the same.
      channel.client.deliver(
        JSON.stringify({ error: { code: -32700, message: 'Message must be valid JSON.' } }),
      );
      return;
    }
    if (typeof message !== 'object' || message === null || typeof message.id !== 'number') {
      channel.client.deliver(
        JSON.stringify({ error: { code: -32600, message: 'Message must have an integer id.' } }),
      );
      return;
    }
    if (message.sessionId === undefined) message.sessionId = channel.browserSession;
    else if (this.#channelOf.get(message.sessionId) !== channel) {
      channel.client.deliver(
        JSON.stringify({
          id: message.id,
          sessionId: message.sessionId,
          error: { code: -32001, message: 'Session with given id not found.' },
        }),
      );
      return;
    }
    this.#write(JSON.stringify(message));
  }

  #closeChannel(channel: OpenChannel, isDetaching: boolean): void {
    if (!this.#channels.delete(channel)) return;
    this.#release(channel);
    this.#channelOf.delete(channel.browserSession);
    for (const session of channel.sessions) this.#channelOf.delete(session);
    if (isDetaching && !this.#closed) {
      // Its page sessions end with its browser session; each is detached as well, in case.
      for (const session of [...channel.sessions, channel.browserSession]) {
        // A session that is gone already refuses the detach: nothing is left to free then.
        this.send('Target.detachFromTarget', { sessionId: session }).catch(() => undefined);
      }
    }
  }

  #fail(error: Error): void {
    if (this.#closed) return;
    this.#closed = error;
    for (const pending of this.#pending.values()) {
      clearTimeout(pending.timer);
      pending.reject(error);
    }
    this.#pending.clear();
    for (const channel of [...this.#channels]) {
      this.#closeChannel(channel, false);
      channel.client.end();
    }
  }
}
