import { integer, isoTimestamp, minValue, number, pipe, regex, string } from 'valibot';

/** Pattern of a resource id: opaque, url-safe, 1–64 characters. */
export const ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * Pattern of a resource name: 1–255 characters of letters, digits, `.`, `_` and `-`, except `.`
 * and `..`, which URL parsers remove from a path even when percent-encoded.
 */
export const NAME_PATTERN = /^(?!\.{1,2}$)[A-Za-z0-9._-]{1,255}$/;

/** An opaque resource id as a request may carry it. */
export const IdSchema = /* @__PURE__ */ pipe(
  /* @__PURE__ */ string(),
  /* @__PURE__ */ regex(ID_PATTERN, 'must be 1–64 characters of A-Z, a-z, 0-9, _ or -'),
);

/** A resource name, unique per resource kind. */
export const NameSchema = /* @__PURE__ */ pipe(
  /* @__PURE__ */ string(),
  /* @__PURE__ */ regex(
    NAME_PATTERN,
    'must be 1–255 characters of A-Z, a-z, 0-9, ., _ or -, and not . or ..',
  ),
);

/** A path segment that names a resource by id or by name (the id is tried first). */
export const IdOrNameSchema = NameSchema;

/**
 * An ISO 8601 timestamp. Servers send UTC with `Z` and milliseconds
 * (`2026-11-22T10:00:00.000Z`); readers accept any valid ISO 8601 timestamp.
 */
export const TimestampSchema = /* @__PURE__ */ pipe(
  /* @__PURE__ */ string(),
  /* @__PURE__ */ isoTimestamp('must be an ISO 8601 timestamp'),
);

/** A whole number that is zero or more. */
export const CountSchema = /* @__PURE__ */ pipe(
  /* @__PURE__ */ number(),
  /* @__PURE__ */ integer(),
  /* @__PURE__ */ minValue(0),
);

/** Formats a date the way the service writes timestamps: UTC, millisecond precision, `Z`. */
export function formatTimestamp(date: Date): string {
  return date.toISOString();
}
