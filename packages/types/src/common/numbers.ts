import { integer, maxValue, minValue, number, pipe } from 'valibot';

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
