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
import { described } from '../common/describe.js';
import { LIMITS } from '../common/limits.js';
import { integerBetween } from '../common/numbers.js';
import { requestObject } from '../common/request-object.js';
import {
  batchDurationMs,
  countCharacters,
  DRAG_STEP_DELAY_MS,
  DRAG_STEPS_PER_SEGMENT,
} from './durations.js';
import { parseKeyCombo, resolveKey } from './keys.js';
import { TypeTextBodySchema } from './type-text.js';

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
  x: /* @__PURE__ */ described(xCoordinate, 'x in CSS pixels of the viewport, from 0'),
  y: /* @__PURE__ */ described(yCoordinate, 'y in CSS pixels of the viewport, from 0'),
  button: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(
      /* @__PURE__ */ picklist(MOUSE_BUTTONS, 'must be one of left, right, middle, back, forward'),
      'left',
    ),
    'left, right, middle, back or forward, default left',
  ),
  click_type: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(
      /* @__PURE__ */ picklist(['down', 'up', 'click'], 'must be down, up or click'),
      'click',
    ),
    'down, up or click (both), default click',
  ),
  num_clicks: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ integerBetween(1, LIMITS.clicks), 1),
    `clicks, 1–${LIMITS.clicks} (2 is a double click), default 1`,
  ),
  hold_keys: /* @__PURE__ */ described(
    HoldKeysSchema,
    `keys held through the click, at most ${LIMITS.heldKeys}, default none`,
  ),
});

/** Body of POST /browsers/{id}/computer/move_mouse. */
export const MoveMouseBodySchema = /* @__PURE__ */ requestObject({
  x: /* @__PURE__ */ described(xCoordinate, 'x in CSS pixels of the viewport, from 0'),
  y: /* @__PURE__ */ described(yCoordinate, 'y in CSS pixels of the viewport, from 0'),
  hold_keys: /* @__PURE__ */ described(
    HoldKeysSchema,
    `keys held through the move, at most ${LIMITS.heldKeys}, default none`,
  ),
  smooth: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ boolean('must be true or false'), false),
    'move along a human-like path, default false',
  ),
  duration_ms: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(durationMs),
    `how long a smooth move takes, ms, ${LIMITS.moveMinMs}–${LIMITS.moveMaxMs}`,
  ),
});

const PointSchema = /* @__PURE__ */ tuple([xCoordinate, yCoordinate], 'must be a point [x, y]');

/** Body of POST /browsers/{id}/computer/drag_mouse. */
export const DragMouseBodySchema = /* @__PURE__ */ requestObject({
  path: /* @__PURE__ */ described(
    /* @__PURE__ */ pipe(
      /* @__PURE__ */ array(PointSchema, 'must be an array of points [x, y]'),
      /* @__PURE__ */ minLength(2, 'must have at least 2 points'),
      /* @__PURE__ */ maxLength(LIMITS.dragPoints, `must have at most ${LIMITS.dragPoints} points`),
    ),
    `points [x, y] to drag through, 2–${LIMITS.dragPoints}`,
  ),
  button: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(
      /* @__PURE__ */ picklist(['left', 'middle', 'right'], 'must be left, middle or right'),
      'left',
    ),
    'left, middle or right, default left',
  ),
  delay: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(pauseMs, 0),
    `pause after pressing, before moving, ms, 0–${LIMITS.inputPauseMs}, default 0`,
  ),
  steps_per_segment: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(
      /* @__PURE__ */ integerBetween(1, LIMITS.dragStepsPerSegment),
      DRAG_STEPS_PER_SEGMENT,
    ),
    `moves between two points, 1–${LIMITS.dragStepsPerSegment}, default ${DRAG_STEPS_PER_SEGMENT}`,
  ),
  step_delay_ms: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(
      /* @__PURE__ */ integerBetween(0, LIMITS.dragStepDelayMs),
      DRAG_STEP_DELAY_MS,
    ),
    `pause between two moves, ms, 0–${LIMITS.dragStepDelayMs}, default ${DRAG_STEP_DELAY_MS}`,
  ),
  smooth: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ boolean('must be true or false'), false),
    'move along a human-like path, default false',
  ),
  duration_ms: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(durationMs),
    `how long a smooth drag takes, ms, ${LIMITS.moveMinMs}–${LIMITS.moveMaxMs}`,
  ),
  hold_keys: /* @__PURE__ */ described(
    HoldKeysSchema,
    `keys held through the drag, at most ${LIMITS.heldKeys}, default none`,
  ),
});

const notches = /* @__PURE__ */ integerBetween(-LIMITS.scrollNotches, LIMITS.scrollNotches);

/** Body of POST /browsers/{id}/computer/scroll: deltas are wheel notches. */
export const ScrollBodySchema = /* @__PURE__ */ pipe(
  /* @__PURE__ */ requestObject({
    x: /* @__PURE__ */ described(xCoordinate, 'x where the wheel turns, CSS pixels, from 0'),
    y: /* @__PURE__ */ described(yCoordinate, 'y where the wheel turns, CSS pixels, from 0'),
    delta_x: /* @__PURE__ */ described(
      /* @__PURE__ */ optional(notches, 0),
      `wheel notches sideways (right positive), ±${LIMITS.scrollNotches}, default 0`,
    ),
    delta_y: /* @__PURE__ */ described(
      /* @__PURE__ */ optional(notches, 0),
      `wheel notches down (positive) or up, ±${LIMITS.scrollNotches}, default 0`,
    ),
    hold_keys: /* @__PURE__ */ described(
      HoldKeysSchema,
      `keys held through the scroll, at most ${LIMITS.heldKeys}, default none`,
    ),
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
  keys: /* @__PURE__ */ described(
    /* @__PURE__ */ pipe(
      /* @__PURE__ */ array(KeyComboSchema, 'must be an array of keys or combos'),
      /* @__PURE__ */ minLength(1, 'must name at least one key'),
      /* @__PURE__ */ maxLength(LIMITS.pressedKeys, `must name at most ${LIMITS.pressedKeys} keys`),
    ),
    `keys or combos pressed in order (Return, ctrl+a), 1–${LIMITS.pressedKeys}`,
  ),
  duration: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(pauseMs, 0),
    `how long each key is held down, ms, 0–${LIMITS.inputPauseMs}, default 0`,
  ),
  hold_keys: /* @__PURE__ */ described(
    HoldKeysSchema,
    `keys held through the presses, at most ${LIMITS.heldKeys}, default none`,
  ),
});

/** Body of POST /browsers/{id}/computer/cursor. */
export const SetCursorBodySchema = /* @__PURE__ */ requestObject({
  hidden: /* @__PURE__ */ described(
    /* @__PURE__ */ boolean('must be true or false'),
    'hide the mouse cursor (true) or show it',
  ),
});

/** Body of POST /browsers/{id}/computer/clipboard/write. */
export const WriteClipboardBodySchema = /* @__PURE__ */ requestObject({
  text: /* @__PURE__ */ described(
    /* @__PURE__ */ pipe(
      /* @__PURE__ */ string('must be a string'),
      /* @__PURE__ */ check(
        (text) => countCharacters(text) <= LIMITS.clipboardCharacters,
        `must be at most ${LIMITS.clipboardCharacters} characters`,
      ),
    ),
    `text put on the clipboard, at most ${LIMITS.clipboardCharacters} characters`,
  ),
});

/** A `sleep` action of a batch. */
export const SleepBodySchema = /* @__PURE__ */ requestObject({
  duration_ms: /* @__PURE__ */ described(pauseMs, `pause, ms, 0–${LIMITS.inputPauseMs}`),
});

/** One action of a batch: its type and, under the type's name, what it takes. */
export const BatchActionSchema = /* @__PURE__ */ variant(
  'type',
  [
    /* @__PURE__ */ requestObject({
      type: /* @__PURE__ */ described(/* @__PURE__ */ literal('click_mouse'), 'the kind of action'),
      click_mouse: /* @__PURE__ */ described(
        ClickMouseBodySchema,
        'the action, as its own call takes it',
      ),
    }),
    /* @__PURE__ */ requestObject({
      type: /* @__PURE__ */ described(/* @__PURE__ */ literal('move_mouse'), 'the kind of action'),
      move_mouse: /* @__PURE__ */ described(
        MoveMouseBodySchema,
        'the action, as its own call takes it',
      ),
    }),
    /* @__PURE__ */ requestObject({
      type: /* @__PURE__ */ described(/* @__PURE__ */ literal('type_text'), 'the kind of action'),
      type_text: /* @__PURE__ */ described(
        TypeTextBodySchema,
        'the action, as its own call takes it',
      ),
    }),
    /* @__PURE__ */ requestObject({
      type: /* @__PURE__ */ described(/* @__PURE__ */ literal('press_key'), 'the kind of action'),
      press_key: /* @__PURE__ */ described(
        PressKeyBodySchema,
        'the action, as its own call takes it',
      ),
    }),
    /* @__PURE__ */ requestObject({
      type: /* @__PURE__ */ described(/* @__PURE__ */ literal('scroll'), 'the kind of action'),
      scroll: /* @__PURE__ */ described(ScrollBodySchema, 'the action, as its own call takes it'),
    }),
    /* @__PURE__ */ requestObject({
      type: /* @__PURE__ */ described(/* @__PURE__ */ literal('drag_mouse'), 'the kind of action'),
      drag_mouse: /* @__PURE__ */ described(
        DragMouseBodySchema,
        'the action, as its own call takes it',
      ),
    }),
    /* @__PURE__ */ requestObject({
      type: /* @__PURE__ */ described(/* @__PURE__ */ literal('set_cursor'), 'the kind of action'),
      set_cursor: /* @__PURE__ */ described(
        SetCursorBodySchema,
        'the action, as its own call takes it',
      ),
    }),
    /* @__PURE__ */ requestObject({
      type: /* @__PURE__ */ described(/* @__PURE__ */ literal('sleep'), 'the kind of action'),
      sleep: /* @__PURE__ */ described(SleepBodySchema, 'the action, as its own call takes it'),
    }),
  ],
  'must have a type: click_mouse, move_mouse, type_text, press_key, scroll, drag_mouse, set_cursor or sleep',
);

/** One action of a batch, defaults applied. */
export type BatchAction = InferOutput<typeof BatchActionSchema>;

/** Body of POST /browsers/{id}/computer/batch. */
export const BatchBodySchema = /* @__PURE__ */ pipe(
  /* @__PURE__ */ requestObject({
    actions: /* @__PURE__ */ described(
      /* @__PURE__ */ pipe(
        /* @__PURE__ */ array(BatchActionSchema, 'must be an array of actions'),
        /* @__PURE__ */ minLength(1, 'must have at least one action'),
        /* @__PURE__ */ maxLength(
          LIMITS.batchActions,
          `must have at most ${LIMITS.batchActions} actions`,
        ),
      ),
      `actions run in order as one input, 1–${LIMITS.batchActions}`,
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
  x: /* @__PURE__ */ described(/* @__PURE__ */ number(), 'x in CSS pixels of the viewport'),
  y: /* @__PURE__ */ described(/* @__PURE__ */ number(), 'y in CSS pixels of the viewport'),
});

/** What a cursor call answers. */
export const CursorResultSchema = /* @__PURE__ */ object({
  ok: /* @__PURE__ */ described(/* @__PURE__ */ literal(true), 'true once the cursor changed'),
});

/** What a clipboard read answers. */
export const ClipboardTextSchema = /* @__PURE__ */ object({
  text: /* @__PURE__ */ described(/* @__PURE__ */ string(), "the clipboard's text"),
});

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
/** One action of a batch as a caller writes it (defaults not applied). */
export type BatchActionInput = InferInput<typeof BatchActionSchema>;
