import type { RequestOutcome } from '@x/service-kernel';

/** The origin calls are said to reach when given a path rather than a whole URL. */
export const IN_PROCESS_ORIGIN = 'http://fake.local';

/** What fetch throws when the connection drops, as Node's fetch does. */
function connectionReset(): TypeError {
  const cause = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
  return new TypeError('fetch failed', { cause });
}

/** A body that delivers `cutAt` bytes and then fails, as a connection closed mid-body does. */
function cutShort(
  body: ReadableStream<Uint8Array>,
  cutAt: number | 'half',
  total: number | undefined,
): ReadableStream<Uint8Array> {
  const limit = cutAt === 'half' ? (total === undefined ? 1 : Math.floor(total / 2)) : cutAt;
  const reader = body.getReader();
  let sent = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) {
        controller.close();
        return;
      }
      if (sent + value.byteLength >= limit) {
        controller.enqueue(value.subarray(0, limit - sent));
        // The source may have failed already; the cut is made either way.
        await reader.cancel().catch(() => undefined);
        controller.error(new TypeError('terminated', { cause: connectionReset().cause }));
        return;
      }
      sent += value.byteLength;
      controller.enqueue(value);
    },
    cancel: (reason) => reader.cancel(reason),
  });
}

/** A body that fails with the signal's reason when it aborts, as fetch's bodies do. */
function abortable(
  body: ReadableStream<Uint8Array>,
  signal: AbortSignal,
): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>({
    start(controller) {
      signal.addEventListener(
        'abort',
        () => {
          controller.error(signal.reason);
          // The source may have ended already; the body has failed with the reason either way.
          reader.cancel(signal.reason).catch(() => undefined);
        },
        { once: true },
      );
    },
    async pull(controller) {
      const { done, value } = await reader.read();
      if (signal.aborted) return;
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel: (reason) => reader.cancel(reason),
  });
}

/**
 * A `fetch` that hands every call straight to the fake, with no socket: drops become the
 * `TypeError` fetch throws, truncated bodies fail part-way as a cut connection does.
 */
export function inProcessFetch(
  handle: (request: Request) => Promise<RequestOutcome>,
): typeof fetch {
  return async (input, init) => {
    const request =
      typeof input === 'string' && input.startsWith('/')
        ? new Request(`${IN_PROCESS_ORIGIN}${input}`, init)
        : new Request(input, init);
    if (request.signal.aborted) throw request.signal.reason;
    const outcome = await handle(request);
    if (outcome.kind === 'drop') throw connectionReset();
    const { response: answer, truncateAfter } = outcome;
    // Like fetch, an abort after the answer arrived fails the body being read.
    const response = answer.body
      ? new Response(abortable(answer.body, request.signal), {
          status: answer.status,
          headers: answer.headers,
        })
      : answer;
    if (truncateAfter === undefined || !response.body) return response;
    let body = response.body;
    let total: number | undefined;
    if (response.headers.get('content-type') !== 'text/event-stream') {
      const bytes = new Uint8Array(await response.arrayBuffer());
      total = bytes.byteLength;
      body = new Blob([bytes]).stream();
    }
    const headers = new Headers(response.headers);
    if (total !== undefined) headers.set('content-length', String(total));
    return new Response(cutShort(body, truncateAfter, total), { status: response.status, headers });
  };
}
