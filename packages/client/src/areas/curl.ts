/**
 * The `curl` area: its records, each of its operations' input and answer as named types
 * with the descriptions of the catalog, and each operation as a function of a core
 * (`createCore`), for apps that bundle only what they call. Each function carries its route
 * (no schema), and upload and stream code only when it needs it.
 *
 * Generated from the catalog of @x/types by `pnpm --filter @x/client generate`; a test fails
 * when it falls behind. Do not edit.
 */
import { curlServerTimeMs } from '@x/types';
import { defineCall } from '../calls/define-call.js';
import type { CallPromise } from '../client/call-promise.js';
import type { Core } from '../client/core.js';
import type { CallOptions } from '../client/options.js';

// Records

export interface CurlResult {
  /** the status the target answered with (after redirects) */
  status: number;
  /** its headers, names in lower case, each with every value it came with */
  headers: { [key: string]: string[] };
  /** its body, decoded by the browser (gzip, br), as UTF-8 text or base64 */
  body: string;
  /** ms from the start of the request to the end of the body */
  duration_ms: number;
}

// Inputs and answers

/** What `browsers.curl` takes: its path parameters, body fields, side by side. */
export interface CurlInput {
  /** browser session id */
  id: string;
  /** the URL to request, http or https */
  url: string;
  /** the method, default GET: GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS */
  method?: 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS' | undefined;
  /**
   * headers to send, over the ones the browser sends by itself
   * @default {}
   */
  headers?: { [key: string]: string } | undefined;
  /** the request body, sent as UTF-8 */
  body?: string | undefined;
  /** ms the whole request may take, 100–300000, default 30000 */
  timeout_ms?: number | undefined;
  /** how the answer carries the body: utf8 (default) or base64 (for bytes) */
  response_encoding?: 'utf8' | 'base64' | undefined;
}

// Functions

// browsers

/**
 * Make an HTTP request through the browser.
 *
 * `POST /browsers/{id}/curl`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 413, 415, 422, 429, 500, 502, 503, 504.
 * `browsers.curl`
 */
export const curl: (
  core: Core,
  input: CurlInput,
  options?: CallOptions,
) => CallPromise<CurlResult> = /* @__PURE__ */ defineCall<CurlInput, CurlResult>({
  name: 'browsers.curl',
  method: 'POST',
  path: '/browsers/{id}/curl',
  body: 'json',
  responses: { 200: 'json' },
  write: true,
  serverTimeMs: curlServerTimeMs,
});
