import {
  boolean,
  type InferInput,
  type InferOutput,
  integer,
  literal,
  maxLength,
  minLength,
  minValue,
  number,
  object,
  optional,
  picklist,
  pipe,
  string,
  variant,
} from 'valibot';
import { described } from '../common/describe.js';
import { requestObject } from '../common/request-object.js';

/** Body of POST /browsers/{id}/fs/watch. `path` is on the instance, inside `/home/browser`. */
export const StartWatchBodySchema = /* @__PURE__ */ requestObject({
  path: /* @__PURE__ */ described(
    /* @__PURE__ */ pipe(
      /* @__PURE__ */ string('must be a string'),
      /* @__PURE__ */ minLength(1, 'must not be empty'),
      /* @__PURE__ */ maxLength(4096, 'must be at most 4096 characters'),
    ),
    'absolute path of the directory to watch',
  ),
  recursive: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ boolean('must be true or false'), false),
    'watch subdirectories too, default false',
  ),
});

/** What a start-watch call asks for. */
export type StartWatchInput = InferInput<typeof StartWatchBodySchema>;

/** Answer of POST /browsers/{id}/fs/watch. */
export const WatchSchema = /* @__PURE__ */ object({
  watch_id: /* @__PURE__ */ described(/* @__PURE__ */ string(), "the watch's id"),
});

/** A started directory watch. */
export type Watch = InferOutput<typeof WatchSchema>;

/** Kinds of change a watch reports. */
export const WatchChangeTypeSchema = /* @__PURE__ */ picklist([
  'CREATE',
  'WRITE',
  'DELETE',
  'RENAME',
]);

/**
 * One event of a watch's stream: a change in the watched directory, or `OVERFLOW` when a reader
 * too slow for the buffer lost `lost` events (never a silent drop).
 */
export const WatchEventSchema = /* @__PURE__ */ variant('type', [
  /* @__PURE__ */ object({
    type: /* @__PURE__ */ described(WatchChangeTypeSchema, 'CREATE, WRITE, DELETE or RENAME'),
    path: /* @__PURE__ */ described(/* @__PURE__ */ string(), 'absolute path of what changed'),
    name: /* @__PURE__ */ described(/* @__PURE__ */ optional(/* @__PURE__ */ string()), 'its name'),
    is_dir: /* @__PURE__ */ described(
      /* @__PURE__ */ optional(/* @__PURE__ */ boolean()),
      'whether it is a directory',
    ),
  }),
  /* @__PURE__ */ object({
    type: /* @__PURE__ */ described(
      /* @__PURE__ */ literal('OVERFLOW'),
      'events were lost: the reader was too slow',
    ),
    lost: /* @__PURE__ */ described(
      /* @__PURE__ */ pipe(
        /* @__PURE__ */ number(),
        /* @__PURE__ */ integer(),
        /* @__PURE__ */ minValue(1),
      ),
      'how many events were lost, ≥ 1',
    ),
  }),
]);

/** One event of a watch's stream. */
export type WatchEvent = InferOutput<typeof WatchEventSchema>;
