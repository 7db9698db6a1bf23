import { AbortError, ConnectionError } from '../errors/transport-errors.js';
import { ResponseValidationError } from '../errors/validation-errors.js';
import { requestIdOf } from '../request/request-id.js';
import { eventDataStream } from './event-data.js';

/** Events of a server-sent event stream, as an async iterable that ends when the server closes it. */
export interface EventStream<T> extends AsyncIterable<T> {
  /** Stops reading and closes the connection; a loop over the stream then ends. */
  close(): Promise<void>;
}

/**
 * Most characters of one event (its partial line and the `data:` lines gathered so far) held
 * while it arrives: a stream that sends more without ending an event is broken off, not kept.
 */
export const MAX_EVENT_CHARS = 4_194_304; // 4 MiB, a literal so a bundle drops it unused

/** The `data` of each event (see `eventDataStream`). */
async function* eventPayloads(reader: ReadableStreamDefaultReader<string>) {
  try {
    while (true) {
      const { done, value } = await reader.read();
      if (done) return;
      // An event whose data is empty is nothing to hand on.
      if (value !== '') yield value;
    }
  } finally {
    await reader.cancel().catch(() => {
      // The stream is already closed or errored; there is nothing left to release.
    });
  }
}

/**
 * Reads a text/event-stream response as JSON events, each through `check` when given (it
 * throws a ResponseValidationError for an event that breaks the contract). An event that is
 * not JSON ends the stream with a ResponseValidationError; an abort ends it with an AbortError.
 */
export function readEventStream<T>(
  response: Response,
  check: ((value: unknown) => unknown) | undefined,
  signal: AbortSignal | undefined,
): EventStream<T> {
  const body = response.body;
  const requestId = requestIdOf(response.headers);
  const decoder = new TextDecoderStream() as unknown as ReadableWritablePair<string, Uint8Array>;
  // The reader is made here so close() can cancel it: that ends a read waiting for an event,
  // which a generator's return() alone would wait behind.
  const reader = body
    ?.pipeThrough(decoder)
    .pipeThrough(eventDataStream(MAX_EVENT_CHARS))
    .getReader();
  const payloads = reader ? eventPayloads(reader) : undefined;

  async function* events(): AsyncGenerator<T> {
    if (!payloads) return;
    try {
      for await (const payload of payloads) {
        let parsed: unknown;
        try {
          parsed = JSON.parse(payload);
        } catch {
          throw new ResponseValidationError(`An event is not JSON: ${payload.slice(0, 100)}`, {
            status: response.status,
            requestId,
          });
        }
        yield (check ? check(parsed) : parsed) as T;
      }
    } catch (error) {
      if (signal?.aborted) throw new AbortError(undefined, { cause: error });
      if (error instanceof ResponseValidationError) throw error;
      throw new ConnectionError('The event stream broke off.', { cause: error });
    }
  }

  const iterator = events();
  return {
    [Symbol.asyncIterator]: () => iterator,
    async close() {
      await reader?.cancel().catch(() => {
        // The stream has already ended or failed; there is nothing left to release.
      });
      await iterator.return(undefined);
    },
  };
}
