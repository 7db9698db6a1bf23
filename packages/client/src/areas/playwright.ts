/**
 * The `playwright` area: its records, each of its operations' input and answer as named types
 * with the descriptions of the catalog, and each operation as a function of a core
 * (`createCore`), for apps that bundle only what they call. Each function carries its route
 * (no schema), and upload and stream code only when it needs it.
 *
 * Generated from the catalog of @x/types by `pnpm --filter @x/client generate`; a test fails
 * when it falls behind. Do not edit.
 */
import { playwrightServerTimeMs } from '@x/types';
import { defineCall } from '../calls/define-call.js';
import type { CallPromise } from '../client/call-promise.js';
import type { Core } from '../client/core.js';
import type { CallOptions } from '../client/options.js';

// Records

export interface PlaywrightExecuteResult {
  /** whether the code ran to its end and returned a JSON value */
  success: boolean;
  /** what the code returned, as JSON (null for undefined); only on success */
  result?: unknown;
  /** why it failed: the thrown message, a time-out, a syntax error */
  error?: string | undefined;
  /** what the code's console.log and console.info wrote */
  stdout?: string | undefined;
  /** what its console.error and console.warn wrote, then the error's stack on failure */
  stderr?: string | undefined;
}

// Inputs and answers

/** What `browsers.playwright.execute` takes: its path parameters, body fields, side by side. */
export interface ExecutePlaywrightInput {
  /** browser session id */
  id: string;
  /** TypeScript or JavaScript: the body of an async function with page, context and browser in scope; what it returns is the result */
  code: string;
  /** seconds the code may run before it is stopped, 1–300, default 60 */
  timeout_sec?: number | undefined;
}

// Functions

// browsers.playwright

/**
 * Run Playwright code against the browser.
 *
 * `POST /browsers/{id}/playwright/execute`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 409, 413, 415, 422, 429, 500, 503.
 * `browsers.playwright.execute`
 */
export const executePlaywright: (
  core: Core,
  input: ExecutePlaywrightInput,
  options?: CallOptions,
) => CallPromise<PlaywrightExecuteResult> = /* @__PURE__ */ defineCall<
  ExecutePlaywrightInput,
  PlaywrightExecuteResult
>({
  name: 'browsers.playwright.execute',
  method: 'POST',
  path: '/browsers/{id}/playwright/execute',
  body: 'json',
  responses: { 200: 'json' },
  write: true,
  serverTimeMs: playwrightServerTimeMs,
});
