/**
 * How long an input call takes by its own pacing, without its schemas: the client can say how
 * long a call may take without bundling them, and the server gets the same figure. Each takes a
 * body as the caller sent it or as its schema gave it: a field left out means its default, and a
 * value that is not a number counts as none.
 */

/** The fields of a move's body its duration depends on. */
interface MovePacing {
  readonly smooth?: boolean | undefined;
  readonly duration_ms?: number | undefined;
}

/** The fields of a drag's body its duration depends on. */
interface DragPacing {
  readonly path?: readonly unknown[] | undefined;
  readonly steps_per_segment?: number | undefined;
  readonly step_delay_ms?: number | undefined;
  readonly duration_ms?: number | undefined;
  readonly delay?: number | undefined;
}

/** The fields of a key press's body its duration depends on. */
interface PressPacing {
  readonly keys?: readonly unknown[] | undefined;
  readonly duration?: number | undefined;
}

/** The fields of typing's body its duration depends on. */
interface TypePacing {
  readonly text?: string | undefined;
  readonly delay?: number | undefined;
}

/** The fields of a batch action its duration depends on (any action of `batch` fits). */
interface ActionPacing {
  readonly type?: string | undefined;
  readonly move_mouse?: MovePacing | undefined;
  readonly drag_mouse?: DragPacing | undefined;
  readonly press_key?: PressPacing | undefined;
  readonly type_text?: TypePacing | undefined;
  readonly sleep?: { readonly duration_ms?: number | undefined } | undefined;
}

/**
 * Counts characters as the service does: Unicode code points, so an emoji or a CJK ideograph is
 * one character however many UTF-16 units it takes.
 */
export function countCharacters(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

/** How long a smooth move takes when its duration is not given, in ms. */
export const SMOOTH_MOVE_MS = 300;

/** Moves between two points of a drag when the body does not say. */
export const DRAG_STEPS_PER_SEGMENT = 10;

/** Pause between two moves of a drag when the body does not say, in ms. */
export const DRAG_STEP_DELAY_MS = 50;

/** A duration the body gave, in ms, or `otherwise` when it gave none (or something else). */
function ms(value: unknown, otherwise = 0): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : otherwise;
}

/** The length of a list the body gave, or 0. */
function count(value: unknown): number {
  return Array.isArray(value) ? value.length : 0;
}

/** How long a move takes by its own pacing, in ms. */
export function moveDurationMs(body: MovePacing | undefined): number {
  if (body?.duration_ms !== undefined) return ms(body.duration_ms);
  return body?.smooth ? SMOOTH_MOVE_MS : 0;
}

/** How long a drag takes by its own pacing, in ms: the delay, then its steps. */
export function dragDurationMs(body: DragPacing | undefined): number {
  const steps =
    Math.max(0, count(body?.path) - 1) * ms(body?.steps_per_segment, DRAG_STEPS_PER_SEGMENT);
  const moving =
    body?.duration_ms !== undefined
      ? ms(body.duration_ms)
      : steps * ms(body?.step_delay_ms, DRAG_STEP_DELAY_MS);
  return ms(body?.delay) + moving;
}

/** How long a key press takes by its own pacing, in ms. */
export function pressDurationMs(body: PressPacing | undefined): number {
  return ms(body?.duration) * count(body?.keys);
}

/** How long typing takes by its own pacing, in ms: the delay after each character. */
export function typeDurationMs(body: TypePacing | undefined): number {
  return typeof body?.text === 'string' ? countCharacters(body.text) * ms(body.delay) : 0;
}

/** How long one batch action takes by its own pauses and durations, in ms. */
export function actionDurationMs(action: ActionPacing | undefined): number {
  switch (action?.type) {
    case 'move_mouse':
      return moveDurationMs(action.move_mouse);
    case 'drag_mouse':
      return dragDurationMs(action.drag_mouse);
    case 'press_key':
      return pressDurationMs(action.press_key);
    case 'type_text':
      return typeDurationMs(action.type_text);
    case 'sleep':
      return ms(action.sleep?.duration_ms);
    default:
      return 0;
  }
}

/** How long a batch takes by its own pauses and durations, in ms. */
export function batchDurationMs(actions: readonly ActionPacing[] | undefined): number {
  return Array.isArray(actions)
    ? actions.reduce((sum, action) => sum + actionDurationMs(action), 0)
    : 0;
}
