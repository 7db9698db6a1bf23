import { BrowserPathSchema } from '../browsers/operations.js';
import { type AnySchema, defineOperation } from '../catalog/operation.js';
import { batchServerTimeMs } from '../catalog/server-time.js';
import type { ErrorStatus } from '../errors/error-codes.js';
import {
  BatchBodySchema,
  ClickMouseBodySchema,
  ClipboardTextSchema,
  CursorResultSchema,
  DragMouseBodySchema,
  MousePositionSchema,
  MoveMouseBodySchema,
  PressKeyBodySchema,
  ScrollBodySchema,
  SetCursorBodySchema,
  WriteClipboardBodySchema,
} from './controls.js';
import { dragDurationMs, moveDurationMs, pressDurationMs, typeDurationMs } from './durations.js';
import { ScreenshotBodySchema } from './screenshot.js';
import { TypeTextBodySchema } from './type-text.js';

/**
 * An input operation: `POST /browsers/{id}/computer/<path>` with a JSON body, answering 204 once
 * the page has received every event. `serverTimeMs` is how long its own pacing takes.
 */
// @__NO_SIDE_EFFECTS__
function inputOperation<
  const TName extends string,
  const TPath extends string,
  const TSchema extends AnySchema,
>(
  name: TName,
  path: TPath,
  summary: string,
  schema: TSchema,
  serverTimeMs?: (body: never) => number,
  errorStatuses: readonly ErrorStatus[] = [404],
) {
  return /* @__PURE__ */ defineOperation({
    name,
    clusterRoute: 'session',
    summary,
    method: 'POST',
    path,
    pathParams: BrowserPathSchema,
    body: { encoding: 'json', schema },
    responses: { 204: { kind: 'none' } },
    errorStatuses,
    access: 'write',
    ...(serverTimeMs ? { serverTimeMs } : {}),
  } as const);
}

/** POST /browsers/{id}/computer/type (4.2): types text as a person would, key by key. */
export const typeTextOperation = /* @__PURE__ */ defineOperation({
  name: 'browsers.computer.type',
  clusterRoute: 'session',
  summary: 'Type text on the browser instance.',
  specSection: '4.2',
  method: 'POST',
  path: '/browsers/{id}/computer/type',
  pathParams: BrowserPathSchema,
  body: { encoding: 'json', schema: TypeTextBodySchema },
  responses: { 204: { kind: 'none' } },
  errorStatuses: [404],
  access: 'write',
  serverTimeMs: typeDurationMs,
});

/** POST /browsers/{id}/computer/screenshot: a PNG of the viewport or a region of it. */
export const screenshotOperation = /* @__PURE__ */ defineOperation({
  name: 'browsers.computer.screenshot',
  clusterRoute: 'session',
  summary: 'Take a PNG screenshot of the browser.',
  method: 'POST',
  path: '/browsers/{id}/computer/screenshot',
  pathParams: BrowserPathSchema,
  body: { encoding: 'json', schema: ScreenshotBodySchema },
  responses: { 200: { kind: 'binary', mediaType: 'image/png' } },
  errorStatuses: [404],
  access: 'contents',
});

/** POST /browsers/{id}/computer/click_mouse: moves to the point, then presses and releases. */
export const clickMouseOperation = /* @__PURE__ */ inputOperation(
  'browsers.computer.clickMouse',
  '/browsers/{id}/computer/click_mouse',
  'Click, press or release a mouse button at a point of the screen.',
  ClickMouseBodySchema,
);
/** POST /browsers/{id}/computer/move_mouse: at once, or paced over `duration_ms`. */
export const moveMouseOperation = /* @__PURE__ */ inputOperation(
  'browsers.computer.moveMouse',
  '/browsers/{id}/computer/move_mouse',
  'Move the mouse to a point of the screen, straight or along a human-like path.',
  MoveMouseBodySchema,
  moveDurationMs,
);
/** POST /browsers/{id}/computer/drag_mouse: presses at the first point, releases at the last. */
export const dragMouseOperation = /* @__PURE__ */ inputOperation(
  'browsers.computer.dragMouse',
  '/browsers/{id}/computer/drag_mouse',
  'Drag the mouse along a path with a button held.',
  DragMouseBodySchema,
  dragDurationMs,
);
/** POST /browsers/{id}/computer/scroll: deltas in wheel notches. */
export const scrollOperation = /* @__PURE__ */ inputOperation(
  'browsers.computer.scroll',
  '/browsers/{id}/computer/scroll',
  'Turn the mouse wheel at a point of the screen.',
  ScrollBodySchema,
);
/** POST /browsers/{id}/computer/press_key: each key or combo in turn. */
export const pressKeyOperation = /* @__PURE__ */ inputOperation(
  'browsers.computer.pressKey',
  '/browsers/{id}/computer/press_key',
  'Press keys or combos such as Ctrl+t, holding each for a while if asked.',
  PressKeyBodySchema,
  pressDurationMs,
);

/** POST /browsers/{id}/computer/get_mouse_position: where the last action left the mouse. */
export const getMousePositionOperation = /* @__PURE__ */ defineOperation({
  name: 'browsers.computer.getMousePosition',
  clusterRoute: 'session',
  summary: 'Get the mouse position the last action left.',
  method: 'POST',
  path: '/browsers/{id}/computer/get_mouse_position',
  pathParams: BrowserPathSchema,
  responses: { 200: { kind: 'json', schema: MousePositionSchema } },
  errorStatuses: [404],
  access: 'read',
});

/** POST /browsers/{id}/computer/cursor: hides or shows the mouse cursor over pages. */
export const setCursorVisibilityOperation = /* @__PURE__ */ defineOperation({
  name: 'browsers.computer.setCursorVisibility',
  clusterRoute: 'session',
  summary: 'Hide or show the mouse cursor.',
  method: 'POST',
  path: '/browsers/{id}/computer/cursor',
  pathParams: BrowserPathSchema,
  body: { encoding: 'json', schema: SetCursorBodySchema },
  responses: { 200: { kind: 'json', schema: CursorResultSchema } },
  errorStatuses: [404],
  access: 'write',
});

/** POST /browsers/{id}/computer/clipboard/read: the text on the browser's clipboard. */
export const readClipboardOperation = /* @__PURE__ */ defineOperation({
  name: 'browsers.computer.readClipboard',
  clusterRoute: 'session',
  summary: "Read the text on the browser's clipboard.",
  method: 'POST',
  path: '/browsers/{id}/computer/clipboard/read',
  pathParams: BrowserPathSchema,
  responses: { 200: { kind: 'json', schema: ClipboardTextSchema } },
  errorStatuses: [404, 409],
  access: 'contents',
});

/** POST /browsers/{id}/computer/clipboard/write: puts text on the browser's clipboard. */
export const writeClipboardOperation = /* @__PURE__ */ inputOperation(
  'browsers.computer.writeClipboard',
  '/browsers/{id}/computer/clipboard/write',
  "Put text on the browser's clipboard (what Ctrl+V then pastes).",
  WriteClipboardBodySchema,
  undefined,
  // 409 while the page cannot take a copy (it has not loaded).
  [404, 409],
);

/**
 * POST /browsers/{id}/computer/batch: actions in order, as one input; the first that fails stops
 * the rest, and the error names it.
 */
export const batchOperation = /* @__PURE__ */ inputOperation(
  'browsers.computer.batch',
  '/browsers/{id}/computer/batch',
  'Run mouse, keyboard and pause actions in order, stopping at the first that fails.',
  BatchBodySchema,
  batchServerTimeMs,
);
