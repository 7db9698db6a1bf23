import { type Interception, jsonResponse } from '@x/service-kernel';
import {
  type ErrorCode,
  errorBody,
  errorCodeOfStatus,
  HEADERS,
  type OperationName,
} from '@x/types';

/** What a fault does to a call. */
export type FaultEffect =
  /** Waits before the call is handled. Adds up with other faults. */
  | { readonly type: 'latency'; readonly ms: number }
  /** Answers with this status, body and headers instead of handling the call. */
  | {
      readonly type: 'error';
      readonly status: number;
      readonly body: unknown;
      readonly headers: Readonly<Record<string, string>>;
    }
  /**
   * Closes the connection without an answer: before the call is handled, or with `afterHandling`
   * once it has been (the work is done, the answer is lost), as when a network fails mid-call.
   */
  | { readonly type: 'drop'; readonly afterHandling?: boolean }
  /** Handles the call, then cuts the body off after `afterBytes` (default: half of it). */
  | { readonly type: 'truncate'; readonly afterBytes?: number };

/** Which calls a fault hits, and how often. */
export interface FaultScope {
  /** Operations it hits, by catalog name; every operation when left out. */
  readonly operation?: OperationName | readonly OperationName[];
  /** How many calls it hits: a number, or `'always'` (the default). */
  readonly times?: number | 'always';
}

/** A fault in force, as `inject` returns it. */
export interface InjectedFault {
  readonly effect: FaultEffect;
  /** Calls it hit so far. */
  readonly hits: number;
  /** Calls it will still hit (`Infinity` for always). */
  readonly remaining: number;
  /** Takes the fault out. */
  remove(): void;
}

/** Waits `ms` before handling each call it hits. */
export function latency(ms: number): FaultEffect {
  return { type: 'latency', ms };
}

/**
 * Answers with `status` and an Error body (the contract's code for the status unless `body` is
 * given), with optional headers.
 */
export function errorStatus(
  status: number,
  body?: unknown,
  headers: Record<string, string> = {},
): FaultEffect {
  const code: ErrorCode = errorCodeOfStatus(status) ?? 'internal_error';
  return {
    type: 'error',
    status,
    body: body ?? errorBody(code, `Injected fault: status ${status}.`),
    headers,
  };
}

/** 429 `rate_limited` with `Retry-After`. */
export function rateLimited(retryAfterSeconds = 1): FaultEffect {
  return errorStatus(429, errorBody('rate_limited', 'Too many requests (injected fault).'), {
    [HEADERS.retryAfter]: String(retryAfterSeconds),
  });
}

/** 503 `unavailable` with `Retry-After`. */
export function unavailable(retryAfterSeconds = 1): FaultEffect {
  return errorStatus(
    503,
    errorBody('unavailable', 'The service is unavailable (injected fault).'),
    {
      [HEADERS.retryAfter]: String(retryAfterSeconds),
    },
  );
}

/**
 * Closes the connection without answering; with `afterHandling`, only after the call did its work,
 * which is what idempotency keys protect against.
 */
export function dropConnection(options: { afterHandling?: boolean } = {}): FaultEffect {
  return options.afterHandling ? { type: 'drop', afterHandling: true } : { type: 'drop' };
}

/** Cuts the response body off after `afterBytes` bytes (default: half of it). */
export function truncateBody(afterBytes?: number): FaultEffect {
  return afterBytes === undefined ? { type: 'truncate' } : { type: 'truncate', afterBytes };
}

interface ActiveFault extends InjectedFault {
  readonly operations: ReadonlySet<string> | undefined;
  hits: number;
  remaining: number;
}

/** The faults in force, global or per operation. */
export class FaultSet {
  readonly #faults: ActiveFault[] = [];

  /** Puts a fault in force. */
  inject(effect: FaultEffect, scope: FaultScope = {}): InjectedFault {
    const times = scope.times ?? 'always';
    if (times !== 'always' && (!Number.isInteger(times) || times < 1)) {
      throw new TypeError(
        `inject: times must be a whole number >= 1 or 'always', got ${String(times)}`,
      );
    }
    const operations =
      scope.operation === undefined
        ? undefined
        : new Set<string>(
            typeof scope.operation === 'string' ? [scope.operation] : scope.operation,
          );
    const faults = this.#faults;
    const fault: ActiveFault = {
      effect,
      operations,
      hits: 0,
      remaining: times === 'always' ? Number.POSITIVE_INFINITY : times,
      remove() {
        const index = faults.indexOf(fault);
        if (index !== -1) faults.splice(index, 1);
      },
    };
    faults.push(fault);
    return fault;
  }

  /**
   * Decides what happens to a call of `operation`, counting the hits: latencies add up, and the
   * first error, drop or truncate fault decides the rest.
   */
  intercept(operation: string): Interception | undefined {
    let latencyMs = 0;
    let effect: Exclude<FaultEffect, { type: 'latency' }> | undefined;
    for (const fault of [...this.#faults]) {
      if (fault.operations && !fault.operations.has(operation)) continue;
      if (fault.effect.type !== 'latency' && effect) continue;
      fault.hits++;
      fault.remaining--;
      if (fault.remaining <= 0) fault.remove();
      if (fault.effect.type === 'latency') latencyMs += fault.effect.ms;
      else effect = fault.effect;
    }
    if (latencyMs === 0 && !effect) return undefined;
    switch (effect?.type) {
      case 'error':
        return {
          latencyMs,
          respond: jsonResponse(effect.status, effect.body, { ...effect.headers }),
        };
      case 'drop':
        return { latencyMs, drop: effect.afterHandling ? 'after' : 'before' };
      case 'truncate':
        return { latencyMs, truncateAfter: effect.afterBytes ?? 'half' };
      default:
        return { latencyMs };
    }
  }

  /** Takes every fault out. */
  clear(): void {
    this.#faults.length = 0;
  }
}
