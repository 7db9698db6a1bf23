import {
  array,
  boolean,
  check,
  forward,
  type InferInput,
  type InferOutput,
  literal,
  maxLength,
  minLength,
  number,
  object,
  optional,
  partialCheck,
  picklist,
  pipe,
  string,
  tuple,
  variant,
} from 'valibot';
import { VIEWPORT_BOUNDS } from '../browsers/viewport.js';
import { LIMITS } from '../common/limits.js';
import { integerBetween } from '../common/numbers.js';
import { requestObject } from '../common/request-object.js';
import { parseKeyCombo, resolveKey } from './keys.js';
import { countCharacters, TypeTextBodySchema } from './type-text.js';

/** Pixels a page scrolls for one wheel notch, as Chromium does on Linux. */
export const PIXELS_PER_NOTCH = 100;

/**
 * Coordinates are CSS pixels of the viewport, so no larger than the largest viewport; the service
 * holds them inside the browser's own viewport, which alone it knows.
 */
const xCoordinate = /* @__PURE__ */ integerBetween(0, VIEWPORT_BOUNDS.width.max - 1);
const yCoordinate = /* @__PURE__ */ integerBetween(0, VIEWPORT_BOUNDS.height.max - 1);

/** A single key held through an action: `shift`, `ctrl`, `a`. */
const HeldKeySchema = /* @__PURE__ */ pipe(
  /* @__PURE__ */ string('must be a key name'),
  /* @__PURE__ */ check((name) => resolveKey(name) !== undefined, 'names no known key'),
);

/** A key or combo to press: `Return`, `Ctrl+t`, `Ctrl+Shift+Tab`, `F5`. */
export const KeyComboSchema = /* @__PURE__ */ pipe(
  /* @__PURE__ */ string('must be a key name'),
  /* @__PURE__ */ check((name) => parseKeyCombo(name) !== undefined, 'names no known key or combo'),
);

const HoldKeysSchema = /* @__PURE__ */ optional(
  /* @__PURE__ */ pipe(
    /* @__PURE__ */ array(HeldKeySchema, 'must be an array of key names'),
    /* @__PURE__ */ maxLength(LIMITS.heldKeys, `must hold at most ${LIMITS.heldKeys} keys`),
  ),
  [],
);

const durationMs = /* @__PURE__ */ integerBetween(LIMITS.moveMinMs, LIMITS.moveMaxMs);
const pauseMs = /* @__PURE__ */ integerBetween(0, LIMITS.inputPauseMs);

/** Mouse buttons a click may press. */
export const MOUSE_BUTTONS = ['left', 'right', 'middle', 'back', 'forward'] as const;

/** A mouse button. */
export type MouseButton = (typeof MOUSE_BUTTONS)[number];

/** Body of POST /browsers/{id}/computer/click_mouse. */
export const ClickMouseBodySchema = /* @__PURE__ */ requestObject({
  x: xCoordinate,
  y: yCoordinate,
  button: /* @__PURE__ */ optional(
    /* @__PURE__ */ picklist(MOUSE_BUTTONS, 'must be one of left, right, middle, back, forward'),
    'left',
  ),
  click_type: /* @__PURE__ */ optional(
    /* @__PURE__ */ picklist(['down', 'up', 'click'], 'must be down, up or click'),
    'click',
  ),
  num_clicks: /* @__PURE__ */ optional(/* @__PURE__ */ integerBetween(1, LIMITS.clicks), 1),
  hold_keys: HoldKeysSchema,
});

/** Body of POST /browsers/{id}/computer/move_mouse. */
export const MoveMouseBodySchema = /* @__PURE__ */ requestObject({
  x: xCoordinate,
  y: yCoordinate,
  hold_keys: HoldKeysSchema,
  smooth: /* @__PURE__ */ optional(/* @__PURE__ */ boolean('must be true or false'), false),
  duration_ms: /* @__PURE__ */ optional(durationMs),
});

const PointSchema = /* @__PURE__ */ tuple([xCoordinate, yCoordinate], 'must be a point [x, y]');

/** Body of POST /browsers/{id}/computer/drag_mouse. */
export const DragMouseBodySchema = /* @__PURE__ */ requestObject({
  path: /* @__PURE__ */ pipe(
    /* @__PURE__ */ array(PointSchema, 'must be an array of points [x, y]'),
    /* @__PURE__ */ minLength(2, 'must have at least 2 points'),
    /* @__PURE__ */ maxLength(LIMITS.dragPoints, `must have at most ${LIMITS.dragPoints} points`),
  ),
  button: /* @__PURE__ */ optional(
    /* @__PURE__ */ picklist(['left', 'middle', 'right'], 'must be left, middle or right'),
    'left',
  ),
  delay: /* @__PURE__ */ optional(pauseMs, 0),
  steps_per_segment: /* @__PURE__ */ optional(
    /* @__PURE__ */ integerBetween(1, LIMITS.dragStepsPerSegment),
    10,
  ),
  step_delay_ms: /* @__PURE__ */ optional(
    /* @__PURE__ */ integerBetween(0, LIMITS.dragStepDelayMs),
    50,
  ),
  smooth: /* @__PURE__ */ optional(/* @__PURE__ */ boolean('must be true or false'), false),
  duration_ms: /* @__PURE__ */ optional(durationMs),
  hold_keys: HoldKeysSchema,
});

const notches = /* @__PURE__ */ integerBetween(-LIMITS.scrollNotches, LIMITS.scrollNotches);

/** Body of POST /browsers/{id}/computer/scroll: deltas are wheel notches. */
export const ScrollBodySchema = /* @__PURE__ */ pipe(
  /* @__PURE__ */ requestObject({
    x: xCoordinate,
    y: yCoordinate,
    delta_x: /* @__PURE__ */ optional(notches, 0),
    delta_y: /* @__PURE__ */ optional(notches, 0),
    hold_keys: HoldKeysSchema,
  }),
  /* @__PURE__ */ forward(
    /* @__PURE__ */ partialCheck(
      [['delta_x'], ['delta_y']],
      (body) => body.delta_x !== 0 || body.delta_y !== 0,
      'must be non-zero when delta_x is 0: a scroll turns the wheel at least one notch',
    ),
    ['delta_y'],
  ),
);

/** Body of POST /browsers/{id}/computer/press_key. */
export const PressKeyBodySchema = /* @__PURE__ */ requestObject({
  keys: /* @__PURE__ */ pipe(
    /* @__PURE__ */ array(KeyComboSchema, 'must be an array of keys or combos'),
    /* @__PURE__ */ minLength(1, 'must name at least one key'),
    /* @__PURE__ */ maxLength(LIMITS.pressedKeys, `must name at most ${LIMITS.pressedKeys} keys`),
  ),
  duration: /* @__PURE__ */ optional(pauseMs, 0),
  hold_keys: HoldKeysSchema,
});

/** Body of POST /browsers/{id}/computer/cursor. */
export const SetCursorBodySchema = /* @__PURE__ */ requestObject({
  hidden: /* @__PURE__ */ boolean('must be true or false'),
});

/** Body of POST /browsers/{id}/computer/clipboard/write. */
export const WriteClipboardBodySchema = /* @__PURE__ */ requestObject({
  text: /* @__PURE__ */ pipe(
    /* @__PURE__ */ string('must be a string'),
    /* @__PURE__ */ check(
      (text) => countCharacters(text) <= LIMITS.clipboardCharacters,
      `must be at most ${LIMITS.clipboardCharacters} characters`,
    ),
  ),
});

/** A `sleep` action of a batch. */
export const SleepBodySchema = /* @__PURE__ */ requestObject({ duration_ms: pauseMs });

/** One action of a batch: its type and, under the type's name, what it takes. */
export const BatchActionSchema = /* @__PURE__ */ variant(
  'type',
  [
    /* @__PURE__ */ requestObject({
      type: /* @__PURE__ */ literal('click_mouse'),
      click_mouse: ClickMouseBodySchema,
    }),
    /* @__PURE__ */ requestObject({ type: literal('move_mouse'), move_mouse: MoveMouseBodySchema }),
    /* @__PURE__ */ requestObject({ type: literal('type_text'), type_text: TypeTextBodySchema }),
    /* @__PURE__ */ requestObject({ type: literal('press_key'), press_key: PressKeyBodySchema }),
    /* @__PURE__ */ requestObject({ type: literal('scroll'), scroll: ScrollBodySchema }),
    /* @__PURE__ */ requestObject({ type: literal('drag_mouse'), drag_mouse: DragMouseBodySchema }),
    /* @__PURE__ */ requestObject({ type: literal('set_cursor'), set_cursor: SetCursorBodySchema }),
    /* @__PURE__ */ requestObject({ type: literal('sleep'), sleep: SleepBodySchema }),
  ],
  'must have a type: click_mouse, move_mouse, type_text, press_key, scroll, drag_mouse, set_cursor or sleep',
);

/** One action of a batch, defaults applied. */
export type BatchAction = InferOutput<typeof BatchActionSchema>;

/** Body of POST /browsers/{id}/computer/batch. */
export const BatchBodySchema = /* @__PURE__ */ pipe(
  /* @__PURE__ */ requestObject({
    actions: /* @__PURE__ */ pipe(
      /* @__PURE__ */ array(BatchActionSchema, 'must be an array of actions'),
      /* @__PURE__ */ minLength(1, 'must have at least one action'),
      /* @__PURE__ */ maxLength(
        LIMITS.batchActions,
        `must have at most ${LIMITS.batchActions} actions`,
      ),
    ),
  }),
  /* @__PURE__ */ forward(
    /* @__PURE__ */ partialCheck(
      [['actions']],
      (body) => batchDurationMs(body.actions) <= LIMITS.batchDurationMs,
      `must take at most ${LIMITS.batchDurationMs} ms in all by their own pauses and durations`,
    ),
    ['actions'],
  ),
);

/** The mouse position. */
export const MousePositionSchema = /* @__PURE__ */ object({
  x: /* @__PURE__ */ number(),
  y: /* @__PURE__ */ number(),
});

/** What a cursor call answers. */
export const CursorResultSchema = /* @__PURE__ */ object({ ok: /* @__PURE__ */ literal(true) });

/** What a clipboard read answers. */
export const ClipboardTextSchema = /* @__PURE__ */ object({ text: /* @__PURE__ */ string() });

export type ClickMouseInput = InferInput<typeof ClickMouseBodySchema>;
export type ClickMouseBody = InferOutput<typeof ClickMouseBodySchema>;
export type MoveMouseInput = InferInput<typeof MoveMouseBodySchema>;
export type MoveMouseBody = InferOutput<typeof MoveMouseBodySchema>;
export type DragMouseInput = InferInput<typeof DragMouseBodySchema>;
export type DragMouseBody = InferOutput<typeof DragMouseBodySchema>;
export type ScrollInput = InferInput<typeof ScrollBodySchema>;
export type ScrollBody = InferOutput<typeof ScrollBodySchema>;
export type PressKeyInput = InferInput<typeof PressKeyBodySchema>;
export type PressKeyBody = InferOutput<typeof PressKeyBodySchema>;
export type BatchInput = InferInput<typeof BatchBodySchema>;

/** How long a smooth move takes when its duration is not given, in ms. */
export const SMOOTH_MOVE_MS = 300;

/** How long a move takes by its own pacing, in ms. */
export function moveDurationMs(body: {
  smooth: boolean;
  duration_ms?: number | undefined;
}): number {
  if (body.duration_ms !== undefined) return body.duration_ms;
  return body.smooth ? SMOOTH_MOVE_MS : 0;
}

/** How long a drag takes by its own pacing, in ms: the delay, then its steps. */
export function dragDurationMs(body: DragMouseBody): number {
  const steps = (body.path.length - 1) * body.steps_per_segment;
  return body.delay + (body.duration_ms ?? steps * body.step_delay_ms);
}

/** How long a key press takes by its own pacing, in ms. */
export function pressDurationMs(body: PressKeyBody): number {
  return body.duration * body.keys.length;
}

/** How long one batch action takes by its own pauses and durations, in ms. */
export function actionDurationMs(action: BatchAction): number {
  switch (action.type) {
    case 'move_mouse':
      return moveDurationMs(action.move_mouse);
    case 'drag_mouse':
      return dragDurationMs(action.drag_mouse);
    case 'press_key':
      return pressDurationMs(action.press_key);
    case 'type_text':
      return countCharacters(action.type_text.text) * action.type_text.delay;
    case 'sleep':
      return action.sleep.duration_ms;
    default:
      return 0;
  }
}

/** How long a batch takes by its own pauses and durations, in ms. */
export function batchDurationMs(actions: readonly BatchAction[]): number {
  return actions.reduce((sum, action) => sum + actionDurationMs(action), 0);
}
