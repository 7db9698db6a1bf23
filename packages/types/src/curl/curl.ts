import {
  array,
  check,
  type InferInput,
  type InferOutput,
  integer,
  maxLength,
  minValue,
  number,
  object,
  optional,
  picklist,
  pipe,
  record,
  regex,
  string,
} from 'valibot';
import { described } from '../common/describe.js';
import { integerBetween } from '../common/numbers.js';
import { requestObject } from '../common/request-object.js';

/** Most bytes of a response body a curl call answers with; a larger one is 502. */
export const MAX_CURL_RESPONSE_BYTES = 10 * 1024 * 1024;

/** Most characters of a request body a curl call sends. */
export const MAX_CURL_REQUEST_BODY_LENGTH = 1024 * 1024;

/** Bounds of `timeout_ms` on POST /browsers/{id}/curl, in ms. */
export const CURL_TIMEOUT_MS = { min: 100, max: 300_000, default: 30_000 } as const;

/** The methods a curl call may use. */
export const CURL_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

/** Most headers a curl call sends. */
const MAX_CURL_HEADERS = 64;

/** An HTTP token: what a header name is made of (RFC 9110). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,256}$/;

/** Body of POST /browsers/{id}/curl. */
export const CurlBodySchema = /* @__PURE__ */ requestObject({
  url: /* @__PURE__ */ described(
    /* @__PURE__ */ pipe(
      /* @__PURE__ */ string('must be a string'),
      /* @__PURE__ */ maxLength(8192, 'must be at most 8192 characters'),
      /* @__PURE__ */ check((value) => {
        try {
          const { protocol } = new URL(value);
          return protocol === 'http:' || protocol === 'https:';
        } catch {
          return false;
        }
      }, 'must be an http or https URL'),
    ),
    'the URL to request, http or https',
  ),
  method: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(
      /* @__PURE__ */ picklist(CURL_METHODS, `must be one of ${CURL_METHODS.join(', ')}`),
      'GET',
    ),
    `the method, default GET: ${CURL_METHODS.join(', ')}`,
  ),
  headers: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(
      /* @__PURE__ */ pipe(
        /* @__PURE__ */ record(
          /* @__PURE__ */ pipe(
            /* @__PURE__ */ string(),
            /* @__PURE__ */ regex(HEADER_NAME, 'must be a header name'),
          ),
          /* @__PURE__ */ pipe(
            /* @__PURE__ */ string('must be a string'),
            /* @__PURE__ */ maxLength(8192, 'must be at most 8192 characters'),
            /* @__PURE__ */ check(
              (value) => !/[\r\n\0]/.test(value),
              'must not hold a line break or NUL',
            ),
          ),
        ),
        /* @__PURE__ */ check(
          (headers) => Object.keys(headers).length <= MAX_CURL_HEADERS,
          `must hold at most ${MAX_CURL_HEADERS} headers`,
        ),
      ),
      {},
    ),
    'headers to send, over the ones the browser sends by itself',
  ),
  body: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(
      /* @__PURE__ */ pipe(
        /* @__PURE__ */ string('must be a string'),
        /* @__PURE__ */ maxLength(
          MAX_CURL_REQUEST_BODY_LENGTH,
          `must be at most ${MAX_CURL_REQUEST_BODY_LENGTH} characters`,
        ),
      ),
    ),
    'the request body, sent as UTF-8',
  ),
  timeout_ms: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(
      /* @__PURE__ */ integerBetween(CURL_TIMEOUT_MS.min, CURL_TIMEOUT_MS.max),
      CURL_TIMEOUT_MS.default,
    ),
    `ms the whole request may take, ${CURL_TIMEOUT_MS.min}–${CURL_TIMEOUT_MS.max}, default ${CURL_TIMEOUT_MS.default}`,
  ),
  response_encoding: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(
      /* @__PURE__ */ picklist(['utf8', 'base64'], 'must be utf8 or base64'),
      'utf8',
    ),
    'how the answer carries the body: utf8 (default) or base64 (for bytes)',
  ),
});

/** What a curl call asks for, as a caller writes it. */
export type CurlInput = InferInput<typeof CurlBodySchema>;

/** What a curl call asks for, checked (defaults filled in). */
export type CurlRequest = InferOutput<typeof CurlBodySchema>;

/** Answer of POST /browsers/{id}/curl: the target's answer, whatever its status. */
export const CurlResultSchema = /* @__PURE__ */ object({
  status: /* @__PURE__ */ described(
    /* @__PURE__ */ pipe(/* @__PURE__ */ number(), /* @__PURE__ */ integer()),
    'the status the target answered with (after redirects)',
  ),
  headers: /* @__PURE__ */ described(
    /* @__PURE__ */ record(
      /* @__PURE__ */ string(),
      /* @__PURE__ */ array(/* @__PURE__ */ string()),
    ),
    'its headers, names in lower case, each with every value it came with',
  ),
  body: /* @__PURE__ */ described(
    /* @__PURE__ */ string(),
    'its body, decoded by the browser (gzip, br), as UTF-8 text or base64',
  ),
  duration_ms: /* @__PURE__ */ described(
    /* @__PURE__ */ pipe(
      /* @__PURE__ */ number(),
      /* @__PURE__ */ integer(),
      /* @__PURE__ */ minValue(0),
    ),
    'ms from the start of the request to the end of the body',
  ),
});

/** Answer of a curl call. */
export type CurlResult = InferOutput<typeof CurlResultSchema>;
