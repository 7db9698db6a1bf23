/** Least time between two audit entries of one key's refused calls, in ms. */
export const REFUSAL_AUDIT_INTERVAL_MS = 60_000;

/** Most keys whose refusals are followed at once; the longest quiet one is forgotten first. */
const MAX_KEYS_FOLLOWED = 10_000;

interface KeyRefusals<E> {
  /** When its last entry was written (epoch ms). */
  writtenAt: number;
  /** Refused calls since, not yet written, and the last of them. */
  pending: number;
  last?: E;
  timer?: ReturnType<typeof setTimeout>;
}

/**
 * Audits refused calls at most once per key and minute: a key's first refusal is written at
 * once; those that follow within the minute are counted, and written as one entry with their
 * count when the minute ends. A caller refused at request rate grows the log by one entry a
 * minute, and no refusal goes uncounted.
 */
export class RefusalAudit<E> {
  readonly #keys = new Map<string, KeyRefusals<E>>();
  readonly #write: (entry: E, count: number) => Promise<void>;
  readonly #now: () => number;
  readonly #onError: (error: unknown) => void;

  constructor(
    write: (entry: E, count: number) => Promise<void>,
    now: () => number,
    onError: (error: unknown) => void,
  ) {
    this.#write = write;
    this.#now = now;
    this.#onError = onError;
  }

  async refused(keyId: string, entry: E): Promise<void> {
    const now = this.#now();
    const key = this.#keys.get(keyId);
    if (key && now - key.writtenAt < REFUSAL_AUDIT_INTERVAL_MS) {
      key.pending++;
      key.last = entry;
      key.timer ??= this.#flushLater(keyId, key, key.writtenAt + REFUSAL_AUDIT_INTERVAL_MS - now);
      return;
    }
    const count = 1 + (key?.pending ?? 0);
    if (key?.timer) clearTimeout(key.timer);
    this.#follow(keyId, { writtenAt: now, pending: 0 });
    await this.#write(entry, count);
  }

  /** Writes what is counted and not yet written (the service is closing). */
  async flush(): Promise<void> {
    const writes: Promise<void>[] = [];
    for (const key of this.#keys.values()) {
      if (key.timer) clearTimeout(key.timer);
      key.timer = undefined;
      if (key.pending > 0 && key.last !== undefined)
        writes.push(this.#write(key.last, key.pending));
      key.pending = 0;
    }
    await Promise.all(writes.map((write) => write.catch(this.#onError)));
  }

  #flushLater(keyId: string, key: KeyRefusals<E>, delayMs: number) {
    const timer = setTimeout(
      () => {
        key.timer = undefined;
        if (key.pending === 0 || key.last === undefined) return;
        const { pending, last } = key;
        key.pending = 0;
        key.last = undefined;
        key.writtenAt = this.#now();
        this.#follow(keyId, key);
        this.#write(last, pending).catch(this.#onError);
      },
      Math.max(0, delayMs),
    );
    timer.unref?.();
    return timer;
  }

  /** Keeps `key` as the newest followed; past the bound the longest quiet one is written out. */
  #follow(keyId: string, key: KeyRefusals<E>): void {
    this.#keys.delete(keyId);
    this.#keys.set(keyId, key);
    if (this.#keys.size <= MAX_KEYS_FOLLOWED) return;
    const [oldestId, oldest] = this.#keys.entries().next().value as [string, KeyRefusals<E>];
    this.#keys.delete(oldestId);
    if (oldest.timer) clearTimeout(oldest.timer);
    if (oldest.pending > 0 && oldest.last !== undefined)
      this.#write(oldest.last, oldest.pending).catch(this.#onError);
  }
}
