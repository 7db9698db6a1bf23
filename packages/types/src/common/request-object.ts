import { custom, type ObjectEntries, pipe, record, strictObject, string, unknown } from 'valibot';

/**
 * A request object: unknown fields are rejected so a typo fails loudly, naming the field.
 * Responses use `object()` instead, which tolerates fields a newer server adds.
 */
// @__NO_SIDE_EFFECTS__
export function requestObject<const TEntries extends ObjectEntries>(entries: TEntries) {
  return /* @__PURE__ */ strictObject(entries, (issue) => {
    if (issue.expected === 'never') return 'is not a known field';
    // A missing key is reported by the object with the key's name as the expected value.
    if (issue.expected?.startsWith('"')) return 'is required';
    return `must be an object, got ${issue.received}`;
  });
}

/** A free-form JSON object (not an array), such as a Chrome policy. */
export const JsonObjectSchema = /* @__PURE__ */ pipe(
  // The array test runs first: a record schema would copy an array's entries into a new object.
  custom<Record<string, unknown>>(
    (value) => typeof value === 'object' && value !== null && !Array.isArray(value),
    'must be an object',
  ),
  /* @__PURE__ */ record(/* @__PURE__ */ string(), /* @__PURE__ */ unknown()),
);
