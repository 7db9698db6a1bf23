import { BrowserPathSchema } from '../browsers/operations.js';
import { defineOperation } from '../catalog/operation.js';
import {
  type BatchAction,
  BatchBodySchema,
  batchDurationMs,
  ClickMouseBodySchema,
  ClipboardTextSchema,
  CursorResultSchema,
  type DragMouseBody,
  DragMouseBodySchema,
  dragDurationMs,
  MousePositionSchema,
  MoveMouseBodySchema,
  moveDurationMs,
  type PressKeyBody,
  PressKeyBodySchema,
  pressDurationMs,
  ScrollBodySchema,
  SetCursorBodySchema,
  WriteClipboardBodySchema,
} from './controls.js';
import { ScreenshotBodySchema } from './screenshot.js';
import { countCharacters, TypeTextBodySchema } from './type-text.js';

/** POST /browsers/{id}/computer/type (4.2): types text as a person would, key by key. */
export const typeTextOperation = defineOperation({
  name: 'browsers.computer.type',
  summary: 'Type text on the browser instance.',
  specSection: '4.2',
  method: 'POST',
  path: '/browsers/{id}/computer/type',
  pathParams: BrowserPathSchema,
  body: { encoding: 'json', schema: TypeTextBodySchema },
  responses: { 204: { kind: 'none' } },
  errorStatuses: [404],
  access: 'write',
  serverTimeMs: (body: { text: string; delay: number }) => countCharacters(body.text) * body.delay,
});

/** POST /browsers/{id}/computer/screenshot: a PNG of the viewport or a region of it. */
export const screenshotOperation = defineOperation({
  name: 'browsers.computer.screenshot',
  summary: 'Take a PNG screenshot of the browser.',
  method: 'POST',
  path: '/browsers/{id}/computer/screenshot',
  pathParams: BrowserPathSchema,
  body: { encoding: 'json', schema: ScreenshotBodySchema },
  responses: { 200: { kind: 'binary', mediaType: 'image/png' } },
  errorStatuses: [404],
  access: 'read',
});

/** POST /browsers/{id}/computer/click_mouse: 204 once the page has received the events. */
export const clickMouseOperation = defineOperation({
  name: 'browsers.computer.clickMouse',
  summary: 'Click, press or release a mouse button at a point of the screen.',
  method: 'POST',
  path: '/browsers/{id}/computer/click_mouse',
  pathParams: BrowserPathSchema,
  body: { encoding: 'json', schema: ClickMouseBodySchema },
  responses: { 204: { kind: 'none' } },
  errorStatuses: [404],
  access: 'write',
});

/** POST /browsers/{id}/computer/move_mouse: 204 once the page has received the events. */
export const moveMouseOperation = defineOperation({
  name: 'browsers.computer.moveMouse',
  summary: 'Move the mouse to a point of the screen, straight or along a human-like path.',
  method: 'POST',
  path: '/browsers/{id}/computer/move_mouse',
  pathParams: BrowserPathSchema,
  body: { encoding: 'json', schema: MoveMouseBodySchema },
  responses: { 204: { kind: 'none' } },
  errorStatuses: [404],
  access: 'write',
  serverTimeMs: (body: { smooth: boolean; duration_ms?: number }) => moveDurationMs(body),
});

/** POST /browsers/{id}/computer/drag_mouse: 204 once the page has received the events. */
export const dragMouseOperation = defineOperation({
  name: 'browsers.computer.dragMouse',
  summary: 'Drag the mouse along a path with a button held.',
  method: 'POST',
  path: '/browsers/{id}/computer/drag_mouse',
  pathParams: BrowserPathSchema,
  body: { encoding: 'json', schema: DragMouseBodySchema },
  responses: { 204: { kind: 'none' } },
  errorStatuses: [404],
  access: 'write',
  serverTimeMs: (body: DragMouseBody) => dragDurationMs(body),
});

/** POST /browsers/{id}/computer/scroll: 204 once the page has received the events. */
export const scrollOperation = defineOperation({
  name: 'browsers.computer.scroll',
  summary: 'Turn the mouse wheel at a point of the screen.',
  method: 'POST',
  path: '/browsers/{id}/computer/scroll',
  pathParams: BrowserPathSchema,
  body: { encoding: 'json', schema: ScrollBodySchema },
  responses: { 204: { kind: 'none' } },
  errorStatuses: [404],
  access: 'write',
});

/** POST /browsers/{id}/computer/press_key: 204 once the page has received the events. */
export const pressKeyOperation = defineOperation({
  name: 'browsers.computer.pressKey',
  summary: 'Press keys or combos such as Ctrl+t, holding each for a while if asked.',
  method: 'POST',
  path: '/browsers/{id}/computer/press_key',
  pathParams: BrowserPathSchema,
  body: { encoding: 'json', schema: PressKeyBodySchema },
  responses: { 204: { kind: 'none' } },
  errorStatuses: [404],
  access: 'write',
  serverTimeMs: (body: PressKeyBody) => pressDurationMs(body),
});

/** POST /browsers/{id}/computer/get_mouse_position: where the last action left the mouse. */
export const getMousePositionOperation = defineOperation({
  name: 'browsers.computer.getMousePosition',
  summary: 'Get the mouse position the last action left.',
  method: 'POST',
  path: '/browsers/{id}/computer/get_mouse_position',
  pathParams: BrowserPathSchema,
  responses: { 200: { kind: 'json', schema: MousePositionSchema } },
  errorStatuses: [404],
  access: 'read',
});

/** POST /browsers/{id}/computer/cursor: hides or shows the mouse cursor over pages. */
export const setCursorVisibilityOperation = defineOperation({
  name: 'browsers.computer.setCursorVisibility',
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
export const readClipboardOperation = defineOperation({
  name: 'browsers.computer.readClipboard',
  summary: "Read the text on the browser's clipboard.",
  method: 'POST',
  path: '/browsers/{id}/computer/clipboard/read',
  pathParams: BrowserPathSchema,
  responses: { 200: { kind: 'json', schema: ClipboardTextSchema } },
  errorStatuses: [404],
  access: 'read',
});

/** POST /browsers/{id}/computer/clipboard/write: puts text on the browser's clipboard. */
export const writeClipboardOperation = defineOperation({
  name: 'browsers.computer.writeClipboard',
  summary: "Put text on the browser's clipboard (what Ctrl+V then pastes).",
  method: 'POST',
  path: '/browsers/{id}/computer/clipboard/write',
  pathParams: BrowserPathSchema,
  body: { encoding: 'json', schema: WriteClipboardBodySchema },
  responses: { 204: { kind: 'none' } },
  errorStatuses: [404],
  access: 'write',
});

/**
 * POST /browsers/{id}/computer/batch: actions in order, as one input; the first that fails stops
 * the rest, and the error names it.
 */
export const batchOperation = defineOperation({
  name: 'browsers.computer.batch',
  summary: 'Run mouse, keyboard and pause actions in order, stopping at the first that fails.',
  method: 'POST',
  path: '/browsers/{id}/computer/batch',
  pathParams: BrowserPathSchema,
  body: { encoding: 'json', schema: BatchBodySchema },
  responses: { 204: { kind: 'none' } },
  errorStatuses: [404],
  access: 'write',
  serverTimeMs: (body: { actions: BatchAction[] }) => batchDurationMs(body.actions),
});
