import type { Responder } from '../../test-support/recording-server.js';

/**
 * One realistic call of an operation, for `every-method.test.ts`: each file of this folder
 * exports the `cases` of its area (named as its folder in `@x/types`), found by the test.
 */
export interface MethodCase {
  input?: Record<string, unknown>;
  method: string;
  /** Path and query the server must receive. */
  url: string;
  /** The JSON body the server must receive, or undefined for none. */
  body?: unknown;
  respond: Responder;
  /** What the method must resolve to. */
  result: unknown;
}

export const created = (json: unknown): Responder => ({ status: 201, json });
export const ok = (json: unknown): Responder => ({ status: 200, json });
export const noContent: Responder = { status: 204 };
