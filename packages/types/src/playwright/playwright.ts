import {
  boolean,
  type InferInput,
  type InferOutput,
  maxLength,
  minLength,
  object,
  optional,
  pipe,
  string,
  unknown,
} from 'valibot';
import { described } from '../common/describe.js';
import { integerBetween } from '../common/numbers.js';
import { requestObject } from '../common/request-object.js';

/** Bounds of `timeout_sec` on POST /browsers/{id}/playwright/execute, in seconds. */
export const PLAYWRIGHT_TIMEOUT_SECONDS = { min: 1, max: 300, default: 60 } as const;

/** Longest code a call may send, in characters. */
export const MAX_PLAYWRIGHT_CODE_LENGTH = 1024 * 1024;

/** Body of POST /browsers/{id}/playwright/execute. */
export const PlaywrightExecuteBodySchema = /* @__PURE__ */ requestObject({
  code: /* @__PURE__ */ described(
    /* @__PURE__ */ pipe(
      /* @__PURE__ */ string('must be a string'),
      /* @__PURE__ */ minLength(1, 'must not be empty'),
      /* @__PURE__ */ maxLength(
        MAX_PLAYWRIGHT_CODE_LENGTH,
        `must be at most ${MAX_PLAYWRIGHT_CODE_LENGTH} characters`,
      ),
    ),
    'TypeScript or JavaScript: the body of an async function with page, context and browser in scope; what it returns is the result',
  ),
  timeout_sec: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(
      /* @__PURE__ */ integerBetween(
        PLAYWRIGHT_TIMEOUT_SECONDS.min,
        PLAYWRIGHT_TIMEOUT_SECONDS.max,
      ),
      PLAYWRIGHT_TIMEOUT_SECONDS.default,
    ),
    `seconds the code may run before it is stopped, ${PLAYWRIGHT_TIMEOUT_SECONDS.min}–${PLAYWRIGHT_TIMEOUT_SECONDS.max}, default ${PLAYWRIGHT_TIMEOUT_SECONDS.default}`,
  ),
});

/** What an execute call asks for, as a caller writes it. */
export type PlaywrightExecuteInput = InferInput<typeof PlaywrightExecuteBodySchema>;

/**
 * Answer of POST /browsers/{id}/playwright/execute: 200 whether the code succeeded or not; a
 * thrown error, a time-out or a result that is not JSON is `success: false` with `error`.
 */
export const PlaywrightExecuteResultSchema = /* @__PURE__ */ object({
  success: /* @__PURE__ */ described(
    /* @__PURE__ */ boolean(),
    'whether the code ran to its end and returned a JSON value',
  ),
  result: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ unknown()),
    'what the code returned, as JSON (null for undefined); only on success',
  ),
  error: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ string()),
    'why it failed: the thrown message, a time-out, a syntax error',
  ),
  stdout: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ string()),
    "what the code's console.log and console.info wrote",
  ),
  stderr: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ string()),
    "what its console.error and console.warn wrote, then the error's stack on failure",
  ),
});

/** The outcome of one execute call. */
export type PlaywrightExecuteResult = InferOutput<typeof PlaywrightExecuteResultSchema>;
