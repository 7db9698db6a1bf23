import {
  array,
  type InferInput,
  type InferOutput,
  object,
  optional,
  pipe,
  string,
  url,
} from 'valibot';
import { described } from '../common/describe.js';
import { integerBetween } from '../common/numbers.js';
import { requestObject } from '../common/request-object.js';
import { TimestampSchema } from '../common/scalars.js';

/** Bounds and default of a recording's frame rate, in frames per second. */
export const REPLAY_FRAMERATE = { min: 1, max: 30, default: 10 } as const;

/** Longest one recording may run, in seconds; also the cap when none is asked for. */
export const MAX_REPLAY_DURATION_SECONDS = 14_400;

/** A video recording of a browser session. `finished_at` is set once it is stopped. */
export const ReplaySchema = /* @__PURE__ */ object({
  replay_id: /* @__PURE__ */ described(/* @__PURE__ */ string(), "the replay's id"),
  started_at: /* @__PURE__ */ described(TimestampSchema, 'when recording started (ISO 8601 UTC)'),
  finished_at: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(TimestampSchema),
    'when recording stopped (ISO 8601 UTC); absent while recording',
  ),
  replay_view_url: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(
      /* @__PURE__ */ pipe(/* @__PURE__ */ string(), /* @__PURE__ */ url('must be a URL')),
    ),
    'web page that plays the video',
  ),
});

/** A video recording of a browser session. */
export type Replay = InferOutput<typeof ReplaySchema>;

/** The list of a browser's recordings. */
export const ReplayListSchema = /* @__PURE__ */ array(ReplaySchema);

/** Body of POST /browsers/{id}/replays; absent means the defaults. */
export const StartReplayBodySchema = /* @__PURE__ */ optional(
  /* @__PURE__ */ requestObject({
    framerate: /* @__PURE__ */ described(
      /* @__PURE__ */ optional(
        /* @__PURE__ */ integerBetween(REPLAY_FRAMERATE.min, REPLAY_FRAMERATE.max),
        REPLAY_FRAMERATE.default,
      ),
      `frames per second, ${REPLAY_FRAMERATE.min}–${REPLAY_FRAMERATE.max}, default ${REPLAY_FRAMERATE.default}`,
    ),
    max_duration_in_seconds: /* @__PURE__ */ described(
      /* @__PURE__ */ optional(/* @__PURE__ */ integerBetween(1, MAX_REPLAY_DURATION_SECONDS)),
      `seconds after which it stops by itself, 1–${MAX_REPLAY_DURATION_SECONDS}, default ${MAX_REPLAY_DURATION_SECONDS}`,
    ),
  }),
  {},
);

/** What a start-recording call asks for. */
export type StartReplayInput = InferInput<typeof StartReplayBodySchema>;
