import { createHash } from 'node:crypto';
import { HEADERS, LIMITS } from '@x/types';
import { ServiceError } from '../service-error.js';
import type { IdempotencyStore } from './idempotency.js';
import { invalid } from './request-body.js';
import { errorResponse, fromSnapshot, snapshot } from './responses.js';

/** One call that may carry an idempotency key. */
export interface IdempotentCall {
  readonly request: Request;
  readonly pathname: string;
  /** The caller's token: keys are scoped by it (kept only as a hash). */
  readonly token: string;
  /** Identifies the body, so a key reused with another body is refused. */
  readonly fingerprint: string;
  /** Does the work and answers. */
  readonly run: () => Promise<Response>;
}

function keyOf(request: Request): string | undefined {
  const key = request.headers.get(HEADERS.idempotencyKey);
  if (request.method !== 'POST' || key === null) return undefined;
  if (key.length < 1 || key.length > LIMITS.idempotencyKeyLength) {
    throw invalid('The Idempotency-Key header is invalid.', [
      {
        code: 'invalid_input',
        message: `header.idempotency-key: must be 1–${LIMITS.idempotencyKeyLength} characters`,
      },
    ]);
  }
  return key;
}

/**
 * Step: runs a call at most once per idempotency key. A POST with `Idempotency-Key` is looked up
 * in `store`, scoped by token and path: a repeat gets the kept answer (marked
 * `Idempotent-Replayed`), a repeat with another body a 422, a repeat of a call in flight waits
 * for it. An answer not worth keeping (429, 5xx, an unexpected failure) is dropped, so a retry
 * does the work. Calls without a key just run.
 */
export async function answerOnce(store: IdempotencyStore, call: IdempotentCall): Promise<Response> {
  const key = keyOf(call.request);
  if (key === undefined) return call.run();
  // The token is kept as a hash: a store on disk never holds a token.
  const tokenHash = createHash('sha256').update(call.token).digest('hex');
  const scope = `${tokenHash} ${call.request.method} ${call.pathname}`;
  for (;;) {
    const lookup = await store.lookup(scope, key, call.fingerprint);
    if (lookup.kind === 'reused') {
      throw new ServiceError(
        'idempotency_key_reused',
        'This Idempotency-Key was used with a different request body.',
      );
    }
    if (lookup.kind === 'replay') {
      const stored = await lookup.response;
      if (stored) return fromSnapshot(stored, true);
      continue; // The first attempt was not kept (it failed in a way worth retrying): do the work.
    }
    try {
      const stored = await snapshot(await call.run());
      await lookup.settle(stored);
      return fromSnapshot(stored, false);
    } catch (error) {
      const response = error instanceof ServiceError ? errorResponse(error) : undefined;
      await lookup.settle(response ? await snapshot(response) : undefined);
      throw error;
    }
  }
}
