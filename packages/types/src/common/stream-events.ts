import { literal, object, string } from 'valibot';
import { described } from './describe.js';
import { TimestampSchema } from './scalars.js';

/** The event a stream ends on when it cannot go on: `{"event":"error", error, timestamp}`. */
export const StreamErrorEventSchema = /* @__PURE__ */ object({
  event: /* @__PURE__ */ described(/* @__PURE__ */ literal('error'), 'the stream cannot go on'),
  timestamp: /* @__PURE__ */ described(TimestampSchema, 'when'),
  error: /* @__PURE__ */ described(
    /* @__PURE__ */ object({
      code: /* @__PURE__ */ described(/* @__PURE__ */ string(), 'an error code'),
      message: /* @__PURE__ */ described(/* @__PURE__ */ string(), 'what went wrong'),
    }),
    'what went wrong',
  ),
});

/** What a quiet stream sends, as JSON, so readers and proxies know it is alive. */
export const HeartbeatEventSchema = /* @__PURE__ */ object({
  event: /* @__PURE__ */ described(
    /* @__PURE__ */ literal('sse_heartbeat'),
    'nothing changed; the stream is alive',
  ),
  timestamp: /* @__PURE__ */ described(TimestampSchema, 'when'),
});
