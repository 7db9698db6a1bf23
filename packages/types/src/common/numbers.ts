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
  return pipe(
    number('must be a number'),
    integer('must be a whole number'),
    minValue(min, `must be >= ${min}`),
    maxValue(max, `must be <= ${max}`),
  );
}

/**
 * A whole number between `min` and `max` in a query string (`?limit=20`), or a number where a
 * caller builds the query.
 */
// @__NO_SIDE_EFFECTS__
export function queryIntegerBetween(min: number, max: number) {
  return union(
    [
      integerBetween(min, max),
      pipe(
        string(),
        regex(/^\d{1,15}$/, 'must be a whole number'),
        transform(Number),
        integerBetween(min, max),
      ),
    ],
    `must be a whole number from ${min} to ${max}`,
  );
}
