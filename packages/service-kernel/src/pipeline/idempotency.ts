import { LIMITS } from '@x/types';

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
  | { readonly kind: 'new'; settle(response: StoredResponse | undefined): void | Promise<void> }
  | { readonly kind: 'replay'; readonly response: Promise<StoredResponse | undefined> }
  | { readonly kind: 'reused' };

/**
 * Where a service keeps idempotency keys, scoped by token and route, for 24 hours. A repeat of a
 * call still in flight waits for its answer; a repeat with another body is `reused`.
 */
export interface IdempotencyStore {
  /** Looks a call up, reserving its key when it is new. */
  lookup(
    scope: string,
    key: string,
    fingerprint: string,
  ): IdempotencyLookup | Promise<IdempotencyLookup>;
}

/** Whether an answer is kept: 429 and 5xx may differ next time, so a retry does the work. */
export function isKeptAnswer(response: StoredResponse | undefined): response is StoredResponse {
  return response !== undefined && response.status !== 429 && response.status < 500;
}

/** Most answers a memory store keeps; past it the oldest go first. */
const MAX_MEMORY_ANSWERS = 10_000;

/**
 * Idempotency keys in memory, for a fake or a single process. With `keepsAnswers: false` it only
 * coordinates calls in flight (a store on disk keeps the answers). Bounded: expired keys go as
 * new ones come, and at most `maxAnswers` are kept, the oldest going first.
 */
export class MemoryIdempotencyStore implements IdempotencyStore {
  readonly #calls = new Map<string, StoredCall>();
  readonly #now: () => Date;
  readonly #keepsAnswers: boolean;
  readonly #maxAnswers: number;

  constructor(now: () => Date, options: { keepsAnswers?: boolean; maxAnswers?: number } = {}) {
    this.#now = now;
    this.#keepsAnswers = options.keepsAnswers ?? true;
    this.#maxAnswers = options.maxAnswers ?? MAX_MEMORY_ANSWERS;
  }

  /** How many keys are held (answers kept, and calls in flight). */
  get size(): number {
    return this.#calls.size;
  }

  /**
   * Drops expired keys and, to make room for one more, the oldest: keys are held in the order
   * they came.
   */
  #prune(now: number): void {
    for (const [id, call] of this.#calls) {
      const isExpired = now - call.storedAt >= LIMITS.idempotencyWindowMs;
      if (!isExpired && this.#calls.size < this.#maxAnswers) return;
      this.#calls.delete(id);
    }
  }

  /** Looks a call up, reserving its key when it is new. */
  lookup(scope: string, key: string, fingerprint: string): IdempotencyLookup {
    const now = this.#now().getTime();
    const id = `${scope}\n${key}`;
    const stored = this.#calls.get(id);
    if (stored && now - stored.storedAt < LIMITS.idempotencyWindowMs) {
      return stored.fingerprint === fingerprint
        ? { kind: 'replay', response: stored.response }
        : { kind: 'reused' };
    }
    this.#calls.delete(id); // An expired key comes back as the newest.
    this.#prune(now);
    let settle!: (response: StoredResponse | undefined) => void;
    const response = new Promise<StoredResponse | undefined>((resolve) => {
      settle = resolve;
    });
    this.#calls.set(id, { fingerprint, storedAt: now, response });
    return {
      kind: 'new',
      settle: (result) => {
        const isKept = isKeptAnswer(result);
        const isStillHeld = this.#calls.get(id)?.response === response;
        if ((!isKept || !this.#keepsAnswers) && isStillHeld) this.#calls.delete(id);
        settle(isKept ? result : undefined);
      },
    };
  }

  /** Forgets every key. */
  clear(): void {
    this.#calls.clear();
  }
}
