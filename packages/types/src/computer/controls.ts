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
import { integerBetween } from '../common/numbers.js';
import { requestObject } from '../common/request-object.js';
import { parseKeyCombo, resolveKey } from './keys.js';
import { countCharacters, TypeTextBodySchema } from './type-text.js';

/**
 * The bounds of the computer controls, in one place. Coordinates are further held inside the
 * browser's viewport by the service, which alone knows its size.
 */
export const CONTROL_LIMITS = {
  /** Largest coordinate any viewport has, in CSS pixels. */
  coordinate: 16_384,
  /** Most keys held through one action. */
  holdKeys: 8,
  /** Most keys one press_key call presses. */
  keys: 64,
  /** Most clicks one click_mouse call makes. */
  clicks: 10,
  /** Most points of a drag path. */
  dragPoints: 1000,
  /** Most steps between two points of a drag. */
  stepsPerSegment: 100,
  /** Longest pause between two steps of a drag, in ms. */
  stepDelayMs: 1000,
  /** Longest pause before a drag moves, or a key is held, or a batch sleeps, in ms. */
  pauseMs: 10_000,
  /** Shortest and longest smooth move or drag, in ms. */
  minDurationMs: 50,
  maxDurationMs: 5000,
  /** Most wheel notches one scroll turns, each way. */
  scrollNotches: 100,
  /** Most actions in one batch. */
  batchActions: 100,
  /** Longest one call may take by its own pauses and durations, in ms. */
  callDurationMs: 300_000,
  /** Most characters written to the clipboard at once. */
  clipboardCharacters: 100_000,
} as const;

/** Pixels a page scrolls for one wheel notch, as Chromium does on Linux. */
export const PIXELS_PER_NOTCH = 100;

const coordinate = integerBetween(0, CONTROL_LIMITS.coordinate);

/** A single key held through an action: `shift`, `ctrl`, `a`. */
const HeldKeySchema = pipe(
  string('must be a key name'),
  check((name) => resolveKey(name) !== undefined, 'names no known key'),
);

/** A key or combo to press: `Return`, `Ctrl+t`, `Ctrl+Shift+Tab`, `F5`. */
export const KeyComboSchema = pipe(
  string('must be a key name'),
  check((name) => parseKeyCombo(name) !== undefined, 'names no known key or combo'),
);

const HoldKeysSchema = optional(
  pipe(
    array(HeldKeySchema, 'must be an array of key names'),
    maxLength(CONTROL_LIMITS.holdKeys, `must hold at most ${CONTROL_LIMITS.holdKeys} keys`),
  ),
  [],
);

const durationMs = integerBetween(CONTROL_LIMITS.minDurationMs, CONTROL_LIMITS.maxDurationMs);
const pauseMs = integerBetween(0, CONTROL_LIMITS.pauseMs);

/** Mouse buttons a click may press. */
export const MOUSE_BUTTONS = ['left', 'right', 'middle', 'back', 'forward'] as const;

/** A mouse button. */
export type MouseButton = (typeof MOUSE_BUTTONS)[number];

/** Body of POST /browsers/{id}/computer/click_mouse. */
export const ClickMouseBodySchema = requestObject({
  x: coordinate,
  y: coordinate,
  button: optional(picklist(MOUSE_BUTTONS, `must be one of ${MOUSE_BUTTONS.join(', ')}`), 'left'),
  click_type: optional(picklist(['down', 'up', 'click'], 'must be down, up or click'), 'click'),
  num_clicks: optional(integerBetween(1, CONTROL_LIMITS.clicks), 1),
  hold_keys: HoldKeysSchema,
});

/** Body of POST /browsers/{id}/computer/move_mouse. */
export const MoveMouseBodySchema = requestObject({
  x: coordinate,
  y: coordinate,
  hold_keys: HoldKeysSchema,
  smooth: optional(boolean('must be true or false'), false),
  duration_ms: optional(durationMs),
});

const PointSchema = tuple([coordinate, coordinate], 'must be a point [x, y]');

/** Body of POST /browsers/{id}/computer/drag_mouse. */
export const DragMouseBodySchema = requestObject({
  path: pipe(
    array(PointSchema, 'must be an array of points [x, y]'),
    minLength(2, 'must have at least 2 points'),
    maxLength(CONTROL_LIMITS.dragPoints, `must have at most ${CONTROL_LIMITS.dragPoints} points`),
  ),
  button: optional(picklist(['left', 'middle', 'right'], 'must be left, middle or right'), 'left'),
  delay: optional(pauseMs, 0),
  steps_per_segment: optional(integerBetween(1, CONTROL_LIMITS.stepsPerSegment), 10),
  step_delay_ms: optional(integerBetween(0, CONTROL_LIMITS.stepDelayMs), 50),
  smooth: optional(boolean('must be true or false'), false),
  duration_ms: optional(durationMs),
  hold_keys: HoldKeysSchema,
});

const notches = integerBetween(-CONTROL_LIMITS.scrollNotches, CONTROL_LIMITS.scrollNotches);

/** Body of POST /browsers/{id}/computer/scroll: deltas are wheel notches. */
export const ScrollBodySchema = pipe(
  requestObject({
    x: coordinate,
    y: coordinate,
    delta_x: optional(notches, 0),
    delta_y: optional(notches, 0),
    hold_keys: HoldKeysSchema,
  }),
  forward(
    partialCheck(
      [['delta_x'], ['delta_y']],
      (body) => body.delta_x !== 0 || body.delta_y !== 0,
      'must be non-zero when delta_x is 0: a scroll turns the wheel at least one notch',
    ),
    ['delta_y'],
  ),
);

/** Body of POST /browsers/{id}/computer/press_key. */
export const PressKeyBodySchema = requestObject({
  keys: pipe(
    array(KeyComboSchema, 'must be an array of keys or combos'),
    minLength(1, 'must name at least one key'),
    maxLength(CONTROL_LIMITS.keys, `must name at most ${CONTROL_LIMITS.keys} keys`),
  ),
  duration: optional(pauseMs, 0),
  hold_keys: HoldKeysSchema,
});

/** Body of POST /browsers/{id}/computer/cursor. */
export const SetCursorBodySchema = requestObject({ hidden: boolean('must be true or false') });

/** Body of POST /browsers/{id}/computer/clipboard/write. */
export const WriteClipboardBodySchema = requestObject({
  text: pipe(
    string('must be a string'),
    check(
      (text) => countCharacters(text) <= CONTROL_LIMITS.clipboardCharacters,
      `must be at most ${CONTROL_LIMITS.clipboardCharacters} characters`,
    ),
  ),
});

/** A `sleep` action of a batch. */
export const SleepBodySchema = requestObject({ duration_ms: pauseMs });

/** One action of a batch: its type and, under the type's name, what it takes. */
export const BatchActionSchema = variant(
  'type',
  [
    requestObject({ type: literal('click_mouse'), click_mouse: ClickMouseBodySchema }),
    requestObject({ type: literal('move_mouse'), move_mouse: MoveMouseBodySchema }),
    requestObject({ type: literal('type_text'), type_text: TypeTextBodySchema }),
    requestObject({ type: literal('press_key'), press_key: PressKeyBodySchema }),
    requestObject({ type: literal('scroll'), scroll: ScrollBodySchema }),
    requestObject({ type: literal('drag_mouse'), drag_mouse: DragMouseBodySchema }),
    requestObject({ type: literal('set_cursor'), set_cursor: SetCursorBodySchema }),
    requestObject({ type: literal('sleep'), sleep: SleepBodySchema }),
  ],
  'must have a type: click_mouse, move_mouse, type_text, press_key, scroll, drag_mouse, set_cursor or sleep',
);

/** One action of a batch, defaults applied. */
export type BatchAction = InferOutput<typeof BatchActionSchema>;

/** Body of POST /browsers/{id}/computer/batch. */
export const BatchBodySchema = pipe(
  requestObject({
    actions: pipe(
      array(BatchActionSchema, 'must be an array of actions'),
      minLength(1, 'must have at least one action'),
      maxLength(
        CONTROL_LIMITS.batchActions,
        `must have at most ${CONTROL_LIMITS.batchActions} actions`,
      ),
    ),
  }),
  forward(
    partialCheck(
      [['actions']],
      (body) => batchDurationMs(body.actions) <= CONTROL_LIMITS.callDurationMs,
      `must take at most ${CONTROL_LIMITS.callDurationMs} ms in all by their own pauses and durations`,
    ),
    ['actions'],
  ),
);

/** The mouse position. */
export const MousePositionSchema = object({ x: number(), y: number() });

/** What a cursor call answers. */
export const CursorResultSchema = object({ ok: literal(true) });

/** What a clipboard read answers. */
export const ClipboardTextSchema = object({ text: string() });

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
