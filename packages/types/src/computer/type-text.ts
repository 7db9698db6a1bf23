import {
  check,
  forward,
  type InferInput,
  type InferOutput,
  integer,
  minValue,
  number,
  optional,
  partialCheck,
  pipe,
  string,
} from 'valibot';
import { LIMITS } from '../common/limits.js';
import { requestObject } from '../common/request-object.js';

/**
 * Counts characters as the service does: Unicode code points, so an emoji or a CJK ideograph is
 * one character however many UTF-16 units it takes.
 */
export function countCharacters(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

/** Body of POST /browsers/{id}/computer/type (operation 4.2). */
export const TypeTextBodySchema = pipe(
  requestObject({
    text: pipe(
      string('must be a string'),
      check(
        (text) => countCharacters(text) <= LIMITS.typeTextCharacters,
        `must be at most ${LIMITS.typeTextCharacters} characters`,
      ),
    ),
    delay: optional(
      pipe(
        number('must be a number'),
        integer('must be a whole number of milliseconds'),
        minValue(0, 'must be >= 0'),
      ),
      0,
    ),
  }),
  forward(
    partialCheck(
      [['text'], ['delay']],
      (body) => countCharacters(body.text) * body.delay <= LIMITS.typeTextDurationMs,
      `times the number of characters must be at most ${LIMITS.typeTextDurationMs} ms`,
    ),
    ['delay'],
  ),
);

/** What a type call asks for, as a caller writes it. */
export type TypeTextInput = InferInput<typeof TypeTextBodySchema>;

/** What a type call asks for, with the default delay applied. */
export type TypeTextBody = InferOutput<typeof TypeTextBodySchema>;
