/**
 * The WebDriver BiDi side of a session's `webdriver_ws_url`: the chromium-bidi mapper (the
 * translator Chromium's own BiDi support is built on), over a DevTools channel of the browser.
 * The server starts one per BiDi connection, in the session's sandbox, as the session's user,
 * with no network; it ends with its connection. It is self-contained: Node's own modules and
 * chromium-bidi (with its mitt and zod), nothing of the server.
 *
 * - fd 3 is the browser's DevTools, a channel of the server's own connection to Chromium
 *   (messages end with a NUL byte, as on Chromium's pipe).
 * - stdin takes the client's BiDi messages and stdout gives the mapper's answers and events, each
 *   ending with a NUL byte (JSON text never holds a raw NUL).
 * - The first message out is `{"xb":"ready"}`, the server's own: the mapper takes commands.
 * - A message that is not a BiDi command (not JSON, no integer id, no method) is answered with an
 *   `invalid argument` error, as the BiDi specification asks, and the connection goes on.
 */

import { Socket } from 'node:net';
import { BidiMapper } from 'chromium-bidi';
import { BidiParser } from 'chromium-bidi/out/Default/gen/src/bidiTab/BidiParser.js';
import { MapperCdpConnection } from 'chromium-bidi/out/Default/gen/src/cdp/CdpConnection.js';

const NUL = 0;

/** Calls `onMessage` with each NUL-ended message read from `stream`. */
function readMessages(stream: NodeJS.ReadableStream, onMessage: (text: string) => void): void {
  let partial: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => {
    let start = 0;
    for (let end = chunk.indexOf(NUL); end !== -1; end = chunk.indexOf(NUL, start)) {
      partial.push(chunk.subarray(start, end));
      onMessage(Buffer.concat(partial).toString());
      partial = [];
      start = end + 1;
    }
    if (start < chunk.length) partial.push(Buffer.from(chunk.subarray(start)));
  });
}

// The mapper's own failures must not end the worker silently mid-command: they are logged.
process.on('uncaughtException', (error) => process.stderr.write(`uncaught: ${String(error)}\n`));
process.on('unhandledRejection', (error) => process.stderr.write(`unhandled: ${String(error)}\n`));

const devtools = new Socket({ fd: 3, readable: true, writable: true });
// The browser is gone, or the server closed the channel: the connection is over.
devtools.on('close', () => process.exit(0));
devtools.on('error', () => process.exit(0));
process.stdin.on('end', () => process.exit(0));
process.stdout.on('error', () => process.exit(0));

let onCdpMessage: (message: string) => void | Promise<void> = () => undefined;
readMessages(devtools, (text) => void onCdpMessage(text));
const cdpTransport = {
  setOnMessage(handler: (message: string) => void | Promise<void>) {
    onCdpMessage = handler;
  },
  sendMessage(message: string) {
    devtools.write(`${message}\0`);
  },
  close() {
    devtools.end();
  },
};

/** A BiDi command as the mapper takes it. */
type Command = Parameters<Parameters<BidiMapper.BidiTransport['setOnMessage']>[0]>[0];

let onCommand: (command: Command) => void | Promise<void> = () => undefined;
const send = (message: unknown) => process.stdout.write(`${JSON.stringify(message)}\0`);
const bidiTransport: BidiMapper.BidiTransport = {
  setOnMessage(handler) {
    onCommand = handler;
  },
  sendMessage(message) {
    send(message);
  },
  close() {
    onCommand = () => undefined;
  },
};

/** The command in `text`, or why it is none (and its id, when it has one). */
function parseCommand(
  text: string,
): { readonly command: Command } | { readonly problem: string; readonly id?: unknown } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { problem: 'Cannot parse the message as JSON.' };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return { problem: 'A command must be a JSON object.' };
  const { id, method, params } = value as { id?: unknown; method?: unknown; params?: unknown };
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 0)
    return { problem: 'A command needs an "id": a non-negative integer.', id };
  if (typeof method !== 'string') return { problem: 'A command needs a "method" string.', id };
  if (params === null || typeof params !== 'object' || Array.isArray(params))
    return { problem: 'A command needs a "params" object.', id };
  return { command: value as Command };
}

readMessages(process.stdin, (text) => {
  const parsed = parseCommand(text);
  if ('problem' in parsed) {
    const id = typeof parsed.id === 'number' ? parsed.id : null;
    send({ type: 'error', id, error: 'invalid argument', message: parsed.problem });
    return;
  }
  void onCommand(parsed.command);
});

const cdp = new MapperCdpConnection(cdpTransport);
const browserClient = await cdp.createBrowserSession();
await BidiMapper.BidiServer.createAndStart(
  bidiTransport,
  cdp,
  browserClient,
  /* selfTargetId: the mapper runs in no tab of the browser */ '',
  new BidiParser(),
);
// The server holds the client's messages until this first message (its own, never relayed).
process.stdout.write(`${JSON.stringify({ xb: 'ready' })}\0`);
