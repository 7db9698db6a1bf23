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
import { described } from '../common/describe.js';
import { LIMITS } from '../common/limits.js';
import { requestObject } from '../common/request-object.js';
import { countCharacters, typeDurationMs } from './durations.js';

/** Body of POST /browsers/{id}/computer/type (operation 4.2). */
export const TypeTextBodySchema = /* @__PURE__ */ pipe(
  /* @__PURE__ */ requestObject({
    text: /* @__PURE__ */ described(
      /* @__PURE__ */ pipe(
        /* @__PURE__ */ string('must be a string'),
        /* @__PURE__ */ check(
          (text) => countCharacters(text) <= LIMITS.typeTextCharacters,
          `must be at most ${LIMITS.typeTextCharacters} characters`,
        ),
      ),
      `text typed key by key, any Unicode, at most ${LIMITS.typeTextCharacters} characters`,
    ),
    delay: /* @__PURE__ */ described(
      /* @__PURE__ */ optional(
        /* @__PURE__ */ pipe(
          /* @__PURE__ */ number('must be a number'),
          /* @__PURE__ */ integer('must be a whole number of milliseconds'),
          /* @__PURE__ */ minValue(0, 'must be >= 0'),
        ),
        0,
      ),
      'pause between keystrokes, ms, ≥ 0, default 0',
    ),
  }),
  /* @__PURE__ */ forward(
    /* @__PURE__ */ partialCheck(
      [['text'], ['delay']],
      (body) => typeDurationMs(body) <= LIMITS.typeTextDurationMs,
      `times the number of characters must be at most ${LIMITS.typeTextDurationMs} ms`,
    ),
    ['delay'],
  ),
);

/** What a type call asks for, as a caller writes it. */
export type TypeTextInput = InferInput<typeof TypeTextBodySchema>;

/** What a type call asks for, with the default delay applied. */
export type TypeTextBody = InferOutput<typeof TypeTextBodySchema>;
