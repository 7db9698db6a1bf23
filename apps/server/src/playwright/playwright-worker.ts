/**
 * The Playwright side of POST /browsers/{id}/playwright/execute. The server starts it in a
 * session's sandbox, as the session's user, with no network but its own loopback, and keeps it
 * while it is used (the warm path). It is self-contained: Node's own modules, playwright-core
 * and ws, nothing of the server.
 *
 * - fd 3 is the browser's DevTools, a channel of the server's own connection to Chromium
 *   (messages end with a NUL byte, as on Chromium's pipe). A WebSocket on this sandbox's
 *   loopback relays it to Playwright's `connectOverCDP`, the one client it lets in.
 * - stdin takes requests, one JSON line each: `{"id", "code", "targetId"}`; fd 4 answers each
 *   with one line: `{"id", "success", "result"?, "error"?, "stdout"?, "stderr"?}`. The first line
 *   out is `{"ready": true}` once Playwright is connected (or `{"ready": false, "error"}`).
 *   stdout is not read for answers: the code run writes there as it likes (its `console` is
 *   captured apart), and the server drops it, within a bound.
 * - The server stops code at its time-out by killing this process: the code stops for good.
 */

import { Console } from 'node:console';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { stripTypeScriptTypes } from 'node:module';
import { Socket } from 'node:net';
import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';
import { constants, runInThisContext } from 'node:vm';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { type WebSocket, WebSocketServer } from 'ws';

/** Most characters of console output kept per run and stream. */
const MAX_OUTPUT_CHARACTERS = 1024 * 1024;
/** Largest result, in characters of JSON. */
const MAX_RESULT_CHARACTERS = 10 * 1024 * 1024;
const NUL = Buffer.from([0]);

interface Request {
  readonly id: number;
  readonly code: string;
  readonly targetId?: string;
}

const answers = createWriteStream('', { fd: 4 });

function answer(message: Record<string, unknown>, resultJson?: string): void {
  const line = JSON.stringify(message);
  // The result goes in as the JSON it already is: it was checked once, and is not parsed again.
  const withResult =
    resultJson === undefined ? line : `${line.slice(0, -1)},"result":${resultJson}}`;
  answers.write(`${withResult}\n`);
}

/** What code wrote to one console stream, up to a bound. */
class Captured {
  text = '';
  isCut = false;
  readonly stream = new Writable({
    write: (chunk: Buffer, _encoding, done) => {
      const room = MAX_OUTPUT_CHARACTERS - this.text.length;
      const piece = chunk.toString();
      if (piece.length > room) this.isCut = true;
      if (room > 0) this.text += piece.slice(0, room);
      done();
    },
  });

  get value(): string | undefined {
    if (this.text === '') return undefined;
    return this.isCut
      ? `${this.text}\n[output cut at ${MAX_OUTPUT_CHARACTERS} characters]`
      : this.text;
  }
}

// Code that throws outside its run (a timer's callback) must not end the worker.
process.on('uncaughtException', (error) => process.stderr.write(`uncaught: ${String(error)}\n`));
process.on('unhandledRejection', (error) => process.stderr.write(`unhandled: ${String(error)}\n`));

const devtools = new Socket({ fd: 3, readable: true, writable: true });
const relay = new WebSocketServer({ host: '127.0.0.1', port: 0, maxPayload: 256 * 1024 * 1024 });
await once(relay, 'listening');
let client: WebSocket | undefined;
let partial: Buffer[] = [];
devtools.on('data', (chunk: Buffer) => {
  let start = 0;
  for (let end = chunk.indexOf(0); end !== -1; end = chunk.indexOf(0, start)) {
    partial.push(chunk.subarray(start, end));
    client?.send(Buffer.concat(partial).toString());
    partial = [];
    start = end + 1;
  }
  if (start < chunk.length) partial.push(Buffer.from(chunk.subarray(start)));
});
// The browser is gone (or the server closed the channel): nothing left to do.
devtools.on('close', () => process.exit(0));
devtools.on('error', () => process.exit(0));
relay.on('connection', (socket) => {
  if (client) {
    socket.terminate();
    return;
  }
  client = socket;
  socket.on('message', (data: Buffer) => devtools.write(Buffer.concat([data, NUL])));
  socket.on('close', () => process.exit(0));
});
const address = relay.address();
const port = typeof address === 'object' && address ? address.port : 0;

let browser: Browser;
try {
  browser = await chromium.connectOverCDP(`ws://127.0.0.1:${port}`, { timeout: 30_000 });
} catch (error) {
  answer({ ready: false, error: error instanceof Error ? error.message : String(error) });
  answers.end(() => process.exit(1));
  await new Promise<never>(() => undefined);
}
answer({ ready: true });

/** Each page's DevTools target id, looked up once. */
const targets = new WeakMap<Page, string>();

async function targetOf(page: Page): Promise<string | undefined> {
  let id = targets.get(page);
  if (id === undefined) {
    const session = await page.context().newCDPSession(page);
    try {
      const { targetInfo } = (await session.send('Target.getTargetInfo')) as {
        targetInfo: { targetId: string };
      };
      id = targetInfo.targetId;
      targets.set(page, id);
    } finally {
      // A page closed meanwhile has no session left to detach.
      await session.detach().catch(() => undefined);
    }
  }
  return id;
}

/** The page the session is on (by its target id), in its context; the first page otherwise. */
async function pageOf(
  targetId: string | undefined,
): Promise<{ page: Page; context: BrowserContext }> {
  const contexts = browser.contexts();
  if (targetId !== undefined) {
    for (const context of contexts) {
      for (const page of context.pages()) {
        // A page closed meanwhile is not the one looked for.
        if ((await targetOf(page).catch(() => undefined)) === targetId) return { page, context };
      }
    }
  }
  const context = contexts[0] ?? (await browser.newContext());
  return { context, page: context.pages()[0] ?? (await context.newPage()) };
}

type UserCode = (
  page: Page,
  context: BrowserContext,
  browser: Browser,
  console: Console,
) => Promise<unknown>;

function compile(code: string): UserCode {
  const wrapped = `(async function (page, context, browser, console) {\n${code}\n})`;
  let source: string;
  try {
    source = stripTypeScriptTypes(wrapped, { mode: 'transform' });
  } catch (error) {
    throw new Error(
      `TypeScript transform error: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  return runInThisContext(source, {
    filename: 'playwright-code.ts',
    lineOffset: -1,
    // `await import('node:fs')` in the code loads as the worker's own imports do.
    importModuleDynamically: constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  }) as UserCode;
}

async function run(request: Request): Promise<void> {
  const stdout = new Captured();
  const stderr = new Captured();
  const output = () => ({ stdout: stdout.value, stderr: stderr.value });
  let value: unknown;
  try {
    const userCode = compile(request.code);
    const { page, context } = await pageOf(request.targetId);
    const console = new Console({ stdout: stdout.stream, stderr: stderr.stream });
    value = await userCode(page, context, browser, console);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const stack = error instanceof Error && error.stack ? error.stack : message;
    const written = stderr.value;
    answer({
      id: request.id,
      success: false,
      error: message,
      stdout: stdout.value,
      stderr: written === undefined ? stack : `${written}${stack}`,
    });
    return;
  }
  let json: string | undefined;
  try {
    json = JSON.stringify(value === undefined ? null : value);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    answer({
      id: request.id,
      success: false,
      error: `The result is not JSON: ${why}`,
      ...output(),
    });
    return;
  }
  if (json !== undefined && json.length > MAX_RESULT_CHARACTERS) {
    answer({
      id: request.id,
      success: false,
      error: `The result is ${json.length} characters of JSON, more than the ${MAX_RESULT_CHARACTERS} a result may be.`,
      ...output(),
    });
    return;
  }
  answer({ id: request.id, success: true, ...output() }, json ?? 'null');
}

// One run at a time, in the order they came (the server sends one at a time anyway).
let last = Promise.resolve();
const lines = createInterface({ input: process.stdin, crlfDelay: Number.POSITIVE_INFINITY });
lines.on('line', (line) => {
  const request = JSON.parse(line) as Request;
  last = last.then(() => run(request));
});
lines.on('close', () => process.exit(0));
