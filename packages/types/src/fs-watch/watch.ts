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
import { requestObject } from '../common/request-object.js';

/** Body of POST /browsers/{id}/fs/watch. `path` is on the instance, inside `/home/browser`. */
export const StartWatchBodySchema = requestObject({
  path: pipe(
    string('must be a string'),
    minLength(1, 'must not be empty'),
    maxLength(4096, 'must be at most 4096 characters'),
  ),
  recursive: optional(boolean('must be true or false'), false),
});

/** What a start-watch call asks for. */
export type StartWatchInput = InferInput<typeof StartWatchBodySchema>;

/** Answer of POST /browsers/{id}/fs/watch. */
export const WatchSchema = object({ watch_id: string() });

/** A started directory watch. */
export type Watch = InferOutput<typeof WatchSchema>;

/** Kinds of change a watch reports. */
export const WatchChangeTypeSchema = picklist(['CREATE', 'WRITE', 'DELETE', 'RENAME']);

/**
 * One event of a watch's stream: a change in the watched directory, or `OVERFLOW` when a reader
 * too slow for the buffer lost `lost` events (never a silent drop).
 */
export const WatchEventSchema = variant('type', [
  object({
    type: WatchChangeTypeSchema,
    path: string(),
    name: optional(string()),
    is_dir: optional(boolean()),
  }),
  object({ type: literal('OVERFLOW'), lost: pipe(number(), integer(), minValue(1)) }),
]);

/** One event of a watch's stream. */
export type WatchEvent = InferOutput<typeof WatchEventSchema>;
