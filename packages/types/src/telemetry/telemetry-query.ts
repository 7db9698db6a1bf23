import {
  array,
  check,
  type InferInput,
  optional,
  picklist,
  pipe,
  string,
  transform,
  union,
} from 'valibot';
import { described } from '../common/describe.js';
import { queryIntegerBetween } from '../common/numbers.js';
import { pageQueryEntries } from '../common/pages.js';
import { requestObject } from '../common/request-object.js';
import { TELEMETRY_EVENT_CATEGORIES } from './telemetry.js';

/** A duration as `since`/`until` take it: `90s`, `5m`, `1h30m`, `250ms`. */
const DURATION = /^(?:\d+(?:\.\d+)?(?:ms|s|m|h))+$/;

/** Milliseconds of a duration (`5m`, `1h30m`), or undefined when it is not one. */
export function durationMs(text: string): number | undefined {
  if (!DURATION.test(text)) return undefined;
  const units: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
  let total = 0;
  for (const [, amount, unit] of text.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g))
    total += Number(amount) * (units[unit ?? 'ms'] ?? 1);
  return total;
}

/** A point in time as `since`/`until` take it: RFC 3339, or a duration meaning that long ago. */
const TimeBoundSchema = /* @__PURE__ */ pipe(
  /* @__PURE__ */ string('must be a string'),
  /* @__PURE__ */ check(
    (value) => durationMs(value) !== undefined || !Number.isNaN(Date.parse(value)),
    'must be an RFC 3339 time or a duration such as 5m',
  ),
);

/** Categories to keep, comma-separated (`console,network`) or the key repeated. */
const CategoryFilterSchema = /* @__PURE__ */ pipe(
  /* @__PURE__ */ union(
    [/* @__PURE__ */ string(), /* @__PURE__ */ array(/* @__PURE__ */ string())],
    'must be a list of categories',
  ),
  /* @__PURE__ */ transform((value) =>
    (Array.isArray(value) ? value : [value])
      .flatMap((entry) => entry.split(','))
      .map((entry) => entry.trim())
      .filter((entry) => entry !== ''),
  ),
  /* @__PURE__ */ array(
    /* @__PURE__ */ picklist(
      TELEMETRY_EVENT_CATEGORIES,
      // A plain string: a template literal would keep the schema in every bundle of this module.
      'must be among control, connection, system, captcha, console, network, page, interaction, screenshot, monitor',
    ),
  ),
);

/** Query of GET /browsers/{id}/telemetry/events. */
export const TelemetryEventsQuerySchema = /* @__PURE__ */ pipe(
  /* @__PURE__ */ requestObject({
    ...pageQueryEntries,
    offset: /* @__PURE__ */ described(
      pageQueryEntries.offset,
      'where the page starts: the X-Next-Offset of the page before (a sequence number); 0 or absent for the first page',
    ),
    category: /* @__PURE__ */ described(
      /* @__PURE__ */ optional(CategoryFilterSchema),
      'only these categories, comma-separated or the key repeated',
    ),
    order: /* @__PURE__ */ described(
      /* @__PURE__ */ optional(
        /* @__PURE__ */ picklist(['asc', 'desc'], 'must be asc or desc'),
        'asc',
      ),
      'asc (the default): oldest first; desc: newest first',
    ),
    since: /* @__PURE__ */ described(
      /* @__PURE__ */ optional(TimeBoundSchema),
      'only events at or after this: RFC 3339, or a duration meaning that long ago (5m); all kept events when absent',
    ),
    until: /* @__PURE__ */ described(
      /* @__PURE__ */ optional(TimeBoundSchema),
      'only events before this: RFC 3339, or a duration meaning that long ago',
    ),
  }),
  /* @__PURE__ */ check(
    (query) => !(query.order === 'desc' && query.since !== undefined),
    'since reads forward: with order=desc, use until',
  ),
);

/** What a telemetry events page asks for, as a caller writes it. */
export type TelemetryEventsInput = InferInput<typeof TelemetryEventsQuerySchema>;

/** Query of GET /browsers/{id}/telemetry/stream. */
export const TelemetryStreamQuerySchema = /* @__PURE__ */ requestObject({
  replay: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ string()),
    'all: start from the oldest event kept; anything else, or absent: only new events',
  ),
  last_event_id: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ queryIntegerBetween(0, 999_999_999_999_999)),
    'go on after this event (the Last-Event-ID header says the same, and wins over replay)',
  ),
});

/** What a telemetry stream asks for, as a caller writes it. */
export type TelemetryStreamInput = InferInput<typeof TelemetryStreamQuerySchema>;
