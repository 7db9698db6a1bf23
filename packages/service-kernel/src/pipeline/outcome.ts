import type { OperationName } from '@x/types';
import type { CallRecord } from './call-record.js';

/** What the service does with a call: answer it (perhaps cut short), or drop the connection. */
export type RequestOutcome =
  | {
      readonly kind: 'response';
      readonly response: Response;
      readonly truncateAfter?: number | 'half';
      /** The catalog operation the call was routed to, when it matched one. */
      readonly operation?: OperationName;
    }
  | { readonly kind: 'drop' };

/** What an interception (a fault a test injected) does to a call before it is handled. */
export interface Interception {
  /** Wait this long first. */
  readonly latencyMs?: number;
  /** Answer this instead of handling the call. */
  readonly respond?: Response;
  /** Drop the connection: before handling, or after (the work done, the answer lost). */
  readonly drop?: 'before' | 'after';
  /** Handle the call, then cut the body off. */
  readonly truncateAfter?: number | 'half';
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Step: a fault that hits a call before it is handled. Waits out any latency, then returns the
 * outcome that replaces handling (a drop, or the injected answer), or undefined to go on.
 */
export async function interceptBefore(
  interception: Interception | undefined,
  record: CallRecord,
): Promise<RequestOutcome | undefined> {
  if (interception === undefined) return undefined;
  if (interception.latencyMs) await sleep(interception.latencyMs);
  if (interception.drop === 'before') {
    record.fault = 'drop';
    return { kind: 'drop' };
  }
  if (interception.respond) {
    record.fault = 'error';
    return { kind: 'response', response: interception.respond };
  }
  return undefined;
}

/**
 * Step: a fault that hits a handled call's answer: the answer lost (a drop after the work was
 * done), cut short, or sent whole.
 */
export function interceptAfter(
  interception: Interception | undefined,
  record: CallRecord,
  response: Response,
): RequestOutcome {
  if (interception?.drop === 'after') {
    record.fault = 'drop';
    return { kind: 'drop' };
  }
  const truncateAfter = interception?.truncateAfter;
  if (truncateAfter === undefined) return { kind: 'response', response };
  record.fault = 'truncate';
  return { kind: 'response', response, truncateAfter };
}
