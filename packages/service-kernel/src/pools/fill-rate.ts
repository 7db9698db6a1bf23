import { type BrowserPoolConfig, POOL_FILL_RATE_PERCENT } from '@x/types';

/** Browsers a pool may start per minute: `fill_rate_per_minute` percent of its size, at least one. */
export function startsPerMinute(config: Pick<BrowserPoolConfig, 'size' | 'fill_rate_per_minute'>) {
  const percent = config.fill_rate_per_minute ?? POOL_FILL_RATE_PERCENT.default;
  return Math.max(1, Math.ceil((config.size * percent) / 100));
}

/**
 * A token bucket of browser starts: it holds at most one minute's worth, refills continuously,
 * and starts full, so a new pool starts a minute's worth at once.
 */
export class FillRate {
  #tokens: number;
  #at: number;
  #perMinute: number;

  constructor(perMinute: number, now: number) {
    this.#perMinute = perMinute;
    this.#tokens = perMinute;
    this.#at = now;
  }

  /** The rate changed (the pool's size or fill rate did). */
  setRate(perMinute: number): void {
    this.#perMinute = perMinute;
  }

  /** Refills up to `now`, adds `extra` starts outside the rate, and takes as many as `wanted`. */
  take(wanted: number, now: number, extra = 0): number {
    const refilled = ((now - this.#at) * this.#perMinute) / 60_000;
    this.#tokens = Math.min(this.#perMinute, this.#tokens + refilled) + extra;
    this.#at = now;
    const taken = Math.max(0, Math.min(wanted, Math.floor(this.#tokens)));
    this.#tokens -= taken;
    return taken;
  }

  /** Whether a start is allowed at `now`, without taking it. */
  hasStart(now: number): boolean {
    const refilled = ((now - this.#at) * this.#perMinute) / 60_000;
    return Math.min(this.#perMinute, this.#tokens + refilled) >= 1;
  }

  /** Gives back starts taken but not made (the service was full): they are not lost. */
  giveBack(count: number): void {
    this.#tokens = Math.min(this.#perMinute, this.#tokens + count);
  }

  /** Milliseconds until the next start is allowed. */
  waitMs(): number {
    return Math.max(1, Math.ceil(((1 - this.#tokens) * 60_000) / this.#perMinute));
  }
}
