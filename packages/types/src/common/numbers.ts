import {
  integer,
  maxValue,
  minValue,
  number,
  pipe,
  regex,
  string,
  transform,
  union,
} from 'valibot';

/** A whole number between `min` and `max`, inclusive, with a message that names both. */
// @__NO_SIDE_EFFECTS__
export function integerBetween(min: number, max: number) {
  return /* @__PURE__ */ pipe(
    /* @__PURE__ */ number('must be a number'),
    /* @__PURE__ */ integer('must be a whole number'),
    /* @__PURE__ */ minValue(min, `must be >= ${min}`),
    /* @__PURE__ */ maxValue(max, `must be <= ${max}`),
  );
}

/**
 * A whole number between `min` and `max` in a query string (`?limit=20`), or a number where a
 * caller builds the query.
 */
// @__NO_SIDE_EFFECTS__
export function queryIntegerBetween(min: number, max: number) {
  return /* @__PURE__ */ union(
    [
      /* @__PURE__ */ integerBetween(min, max),
      /* @__PURE__ */ pipe(
        /* @__PURE__ */ string(),
        /* @__PURE__ */ regex(/^\d{1,15}$/, 'must be a whole number'),
        /* @__PURE__ */ transform(Number),
        /* @__PURE__ */ integerBetween(min, max),
      ),
    ],
    `must be a whole number from ${min} to ${max}`,
  );
}
