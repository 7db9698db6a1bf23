import {
  API_VERSION,
  ErrorSchema,
  HEADERS,
  type OperationName,
  operationByName,
  validationDetails,
} from '@x/types';
import { type GenericSchema, safeParse } from 'valibot';

/** The implementation of the API a contract suite checks. */
export interface ContractTarget {
  /** Base URL, e.g. `http://127.0.0.1:8080`. */
  readonly baseUrl: string;
  /** A token with every right. */
  readonly token: string;
  /** A token that may only read. */
  readonly readOnlyToken: string;
  /** The fetch to call it with (an in-process fake's); the global one by default. */
  readonly fetch?: typeof fetch;
  /** Longest wait for one answer or event, in milliseconds; default 15,000. */
  readonly timeoutMs?: number;
}

/** A failed expectation of the contract. */
export class ContractViolation extends Error {
  override readonly name = 'ContractViolation';
}

/** Throws a ContractViolation unless `condition` holds. */
export function expect(condition: unknown, message: string): asserts condition {
  if (!condition) throw new ContractViolation(message);
}

/** One answer, its body read once. */
export interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly bytes: Uint8Array;
  /** The body as text. */
  readonly text: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  readonly json: unknown;
  /** `METHOD path`, for messages. */
  readonly call: string;
}

/** What a call sends. */
export interface CallOptions {
  /** The bearer token; the target's full token by default, `null` for none. */
  readonly token?: string | null;
  /** A JSON body, sent with `Content-Type: application/json`. */
  readonly json?: unknown;
  /** Any other body, with its own headers. */
  readonly body?: BodyInit;
  readonly headers?: Record<string, string>;
  /** Aborts the call (a caller who goes away); the target's time-out applies too. */
  readonly signal?: AbortSignal;
}

/** An open event stream. */
export interface OpenStream {
  readonly status: number;
  readonly headers: Headers;
  /** The next event's JSON, or undefined when the stream ended; throws after the time-out. */
  next(): Promise<unknown>;
  close(): void;
}

/** What a check works with: calls, expectations and clean-up. */
export class ContractContext {
  readonly target: ContractTarget;
  readonly #cleanups: (() => Promise<unknown>)[] = [];

  constructor(target: ContractTarget) {
    this.target = target;
  }

  get #timeoutMs(): number {
    return this.target.timeoutMs ?? 15_000;
  }

  #request(
    method: string,
    path: string,
    options: CallOptions,
    signal: AbortSignal,
  ): Promise<Response> {
    const headers: Record<string, string> = { ...options.headers };
    const token = options.token === undefined ? this.target.token : options.token;
    if (token !== null) headers.authorization = `Bearer ${token}`;
    let body = options.body;
    if (options.json !== undefined) {
      body = JSON.stringify(options.json);
      headers['content-type'] ??= 'application/json';
    }
    const doFetch = this.target.fetch ?? fetch;
    const base = this.target.baseUrl.replace(/\/+$/, '');
    return doFetch(`${base}${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body }),
      signal,
    });
  }

  /** Sends one call and reads its whole answer. */
  async call(method: string, path: string, options: CallOptions = {}): Promise<Answer> {
    const timeout = AbortSignal.timeout(this.#timeoutMs);
    const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
    const response = await this.#request(method, path, options, signal);
    const bytes = new Uint8Array(await response.arrayBuffer());
    const text = new TextDecoder().decode(bytes);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return {
      status: response.status,
      headers: response.headers,
      bytes,
      text,
      json,
      call: `${method} ${path}`,
    };
  }

  /** Opens an event stream (with `headers`, such as Last-Event-ID); each `next()` waits at most the target's time-out. */
  async stream(path: string, headers: Record<string, string> = {}): Promise<OpenStream> {
    const controller = new AbortController();
    const response = await this.#request('GET', path, { headers }, controller.signal);
    const type = response.headers.get('content-type') ?? '';
    if (response.status === 200 && !type.startsWith('text/event-stream')) {
      controller.abort();
      throw new ContractViolation(
        `GET ${path}: an event stream has content-type "${type}", not text/event-stream`,
      );
    }
    const reader = response.body?.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    const timeoutMs = this.#timeoutMs;
    return {
      status: response.status,
      headers: response.headers,
      async next() {
        if (!reader) return undefined;
        const deadline = Date.now() + timeoutMs;
        for (;;) {
          const end = buffer.indexOf('\n\n');
          if (end !== -1) {
            const frame = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const data = frame
              .split('\n')
              .filter((line) => line.startsWith('data:'))
              .map((line) => line.slice(5).trimStart())
              .join('\n');
            if (data !== '') return JSON.parse(data);
            continue;
          }
          let timer: ReturnType<typeof setTimeout> | undefined;
          const timeout = new Promise<never>((_, reject) => {
            timer = setTimeout(
              () => reject(new ContractViolation(`${path}: no event within ${timeoutMs} ms`)),
              deadline - Date.now(),
            );
          });
          const { done, value } = await Promise.race([reader.read(), timeout]).finally(() =>
            clearTimeout(timer),
          );
          if (done) return undefined;
          buffer += value.replaceAll('\r\n', '\n');
        }
      },
      close() {
        controller.abort();
      },
    };
  }

  /** Runs `cleanup` after the check, pass or fail (deleting what it made). */
  defer(cleanup: () => Promise<unknown>): void {
    this.#cleanups.push(cleanup);
  }

  /** Runs the clean-ups, newest first; their failures are ignored (the resource may be gone). */
  async cleanUp(): Promise<void> {
    // The check may have deleted what a clean-up deletes, or the service may have ended it.
    for (const cleanup of this.#cleanups.reverse()) await cleanup().catch(() => undefined);
    this.#cleanups.length = 0;
  }

  /** Checks the headers every answer carries: X-Request-Id and X-API-Version. */
  expectCommonHeaders(answer: Answer): void {
    expect(answer.headers.get(HEADERS.requestId), `${answer.call}: no X-Request-Id header`);
    expect(
      answer.headers.get(HEADERS.apiVersion) === API_VERSION,
      `${answer.call}: X-API-Version is ${answer.headers.get(HEADERS.apiVersion)}, not ${API_VERSION}`,
    );
  }

  /** Checks an error answer: its status, an Error body with the code, and the common headers. */
  expectError(answer: Answer, status: number, code: string): void {
    expect(
      answer.status === status,
      `${answer.call}: expected ${status} ${code}, got ${answer.status} ${answer.text.slice(0, 300)}`,
    );
    const parsed = safeParse(ErrorSchema, answer.json);
    expect(
      parsed.success,
      `${answer.call}: the ${status} body is not an Error: ${answer.text.slice(0, 300)}`,
    );
    expect(
      parsed.output.code === code,
      `${answer.call}: expected code ${code}, got ${parsed.output.code}`,
    );
    expect(parsed.output.message.length > 0, `${answer.call}: the Error message is empty`);
    if (status === 409) {
      // A conflict stays one however often it is sent: SDKs that retry 409 are told not to.
      expect(
        answer.headers.get('x-should-retry') === 'false',
        `${answer.call}: a 409 without x-should-retry: false`,
      );
    }
    this.expectCommonHeaders(answer);
  }

  /**
   * Checks a success answer against the catalog: the status, and for a JSON response a body
   * that satisfies the operation's schema. Returns the body.
   */
  expectSuccess<T = unknown>(answer: Answer, operationName: OperationName, status: number): T {
    expect(
      answer.status === status,
      `${answer.call}: expected ${status}, got ${answer.status} ${answer.text.slice(0, 300)}`,
    );
    this.expectCommonHeaders(answer);
    const described = operationByName(operationName).responses[status as never] as
      | {
          kind: string;
          schema?: GenericSchema;
          mediaType?: string;
          otherMediaTypes?: readonly string[];
        }
      | undefined;
    expect(described, `${operationName} has no ${status} response in the catalog`);
    if (described.kind === 'json' && described.schema) {
      const parsed = safeParse(described.schema, answer.json);
      const problems = parsed.success
        ? []
        : validationDetails(parsed.issues, 'body').map((detail) => detail.message);
      expect(
        parsed.success,
        `${answer.call}: the body breaks the contract: ${problems.join('; ')}`,
      );
      return parsed.output as T;
    }
    if (described.kind === 'binary') {
      const type = answer.headers.get('content-type') ?? '';
      const allowed = [described.mediaType as string, ...(described.otherMediaTypes ?? [])];
      expect(
        allowed.some((mediaType) => type.startsWith(mediaType)),
        `${answer.call}: content-type ${type}, not ${allowed.join(' or ')}`,
      );
    }
    if (described.kind === 'none')
      expect(answer.bytes.byteLength === 0, `${answer.call}: a ${status} must have no body`);
    return undefined as T;
  }
}
