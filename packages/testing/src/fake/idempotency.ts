import { LIMITS } from '@x/types';
import type { Clock } from '../common/clock.js';

/** A response kept to be replayed for a repeated idempotency key. */
export interface StoredResponse {
  readonly status: number;
  readonly headers: readonly [string, string][];
  readonly body: Uint8Array | undefined;
}

interface StoredCall {
  readonly fingerprint: string;
  readonly storedAt: number;
  readonly response: Promise<StoredResponse | undefined>;
}

/** What the store says about a call with an idempotency key. */
export type IdempotencyLookup =
  | { readonly kind: 'new'; settle(response: StoredResponse | undefined): void }
  | { readonly kind: 'replay'; readonly response: Promise<StoredResponse | undefined> }
  | { readonly kind: 'reused' };

/**
 * Idempotency keys, scoped by token and route, kept 24 hours. A repeat of a call still in flight
 * waits for its answer. Answers that may differ next time (429 and 5xx) are not kept, so a retry
 * does the work.
 */
export class IdempotencyStore {
  readonly #calls = new Map<string, StoredCall>();
  readonly #clock: Clock;

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  /** Looks a call up, reserving its key when it is new. */
  lookup(scope: string, key: string, fingerprint: string): IdempotencyLookup {
    const now = this.#clock().getTime();
    const id = `${scope}\n${key}`;
    const stored = this.#calls.get(id);
    if (stored && now - stored.storedAt < LIMITS.idempotencyWindowMs) {
      return stored.fingerprint === fingerprint
        ? { kind: 'replay', response: stored.response }
        : { kind: 'reused' };
    }
    let settle!: (response: StoredResponse | undefined) => void;
    const response = new Promise<StoredResponse | undefined>((resolve) => {
      settle = resolve;
    });
    this.#calls.set(id, { fingerprint, storedAt: now, response });
    return {
      kind: 'new',
      settle: (result) => {
        const isKept = result !== undefined && result.status !== 429 && result.status < 500;
        if (!isKept) this.#calls.delete(id);
        settle(isKept ? result : undefined);
      },
    };
  }

  /** Forgets every key. */
  clear(): void {
    this.#calls.clear();
  }
}
