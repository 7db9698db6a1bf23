/**
 * The `computer` area: its records, each of its operations' input and answer as named types
 * with the descriptions of the catalog, and each operation as a function of a core
 * (`createCore`), for apps that bundle only what they call. Each function carries its route
 * (no schema), and upload and stream code only when it needs it.
 *
 * Generated from the catalog of @x/types by `pnpm --filter @x/client generate`; a test fails
 * when it falls behind. Do not edit.
 */
import {
  batchServerTimeMs,
  dragDurationMs,
  moveDurationMs,
  pressDurationMs,
  typeDurationMs,
} from '@x/types';
import { defineCall } from '../calls/define-call.js';
import type { CallPromise } from '../client/call-promise.js';
import type { Core } from '../client/core.js';
import type { CallOptions } from '../client/options.js';
import type { BinaryBody } from '../streams/binary-body.js';
import { readStreamBody } from '../streams/read-body.js';

// Records

export type BatchActionInput =
  | {
      /** the kind of action */
      type: 'click_mouse';
      /** the action, as its own call takes it */
      click_mouse: {
        /** x in CSS pixels of the viewport, from 0 */
        x: number;
        /** y in CSS pixels of the viewport, from 0 */
        y: number;
        /** left, right, middle, back or forward, default left */
        button?: 'left' | 'right' | 'middle' | 'back' | 'forward' | undefined;
        /** down, up or click (both), default click */
        click_type?: 'down' | 'up' | 'click' | undefined;
        /** clicks, 1–10 (2 is a double click), default 1 */
        num_clicks?: number | undefined;
        /** keys held through the click, at most 8, default none */
        hold_keys?: string[] | undefined;
      };
    }
  | {
      /** the kind of action */
      type: 'move_mouse';
      /** the action, as its own call takes it */
      move_mouse: {
        /** x in CSS pixels of the viewport, from 0 */
        x: number;
        /** y in CSS pixels of the viewport, from 0 */
        y: number;
        /** keys held through the move, at most 8, default none */
        hold_keys?: string[] | undefined;
        /** move along a human-like path, default false */
        smooth?: boolean | undefined;
        /** how long a smooth move takes, ms, 50–5000 */
        duration_ms?: number | undefined;
      };
    }
  | {
      /** the kind of action */
      type: 'type_text';
      /** the action, as its own call takes it */
      type_text: {
        /** text typed key by key, any Unicode, at most 100000 characters */
        text: string;
        /** pause between keystrokes, ms, ≥ 0, default 0 */
        delay?: number | undefined;
      };
    }
  | {
      /** the kind of action */
      type: 'press_key';
      /** the action, as its own call takes it */
      press_key: {
        /** keys or combos pressed in order (Return, ctrl+a), 1–64 */
        keys: string[];
        /** how long each key is held down, ms, 0–10000, default 0 */
        duration?: number | undefined;
        /** keys held through the presses, at most 8, default none */
        hold_keys?: string[] | undefined;
      };
    }
  | {
      /** the kind of action */
      type: 'scroll';
      /** the action, as its own call takes it */
      scroll: {
        /** x where the wheel turns, CSS pixels, from 0 */
        x: number;
        /** y where the wheel turns, CSS pixels, from 0 */
        y: number;
        /** wheel notches sideways (right positive), ±100, default 0 */
        delta_x?: number | undefined;
        /** wheel notches down (positive) or up, ±100, default 0 */
        delta_y?: number | undefined;
        /** keys held through the scroll, at most 8, default none */
        hold_keys?: string[] | undefined;
      };
    }
  | {
      /** the kind of action */
      type: 'drag_mouse';
      /** the action, as its own call takes it */
      drag_mouse: {
        /** points [x, y] to drag through, 2–1000 */
        path: [number, number][];
        /** left, middle or right, default left */
        button?: 'left' | 'middle' | 'right' | undefined;
        /** pause after pressing, before moving, ms, 0–10000, default 0 */
        delay?: number | undefined;
        /** moves between two points, 1–100, default 10 */
        steps_per_segment?: number | undefined;
        /** pause between two moves, ms, 0–1000, default 50 */
        step_delay_ms?: number | undefined;
        /** move along a human-like path, default false */
        smooth?: boolean | undefined;
        /** how long a smooth drag takes, ms, 50–5000 */
        duration_ms?: number | undefined;
        /** keys held through the drag, at most 8, default none */
        hold_keys?: string[] | undefined;
      };
    }
  | {
      /** the kind of action */
      type: 'set_cursor';
      /** the action, as its own call takes it */
      set_cursor: {
        /** hide the mouse cursor (true) or show it */
        hidden: boolean;
      };
    }
  | {
      /** the kind of action */
      type: 'sleep';
      /** the action, as its own call takes it */
      sleep: {
        /** pause, ms, 0–10000 */
        duration_ms: number;
      };
    };

export interface MousePosition {
  /** x in CSS pixels of the viewport */
  x: number;
  /** y in CSS pixels of the viewport */
  y: number;
}

export interface ClipboardText {
  /** the clipboard's text */
  text: string;
}

export interface ScreenshotRegion {
  /** left edge, CSS pixels, from 0 */
  x: number;
  /** top edge, CSS pixels, from 0 */
  y: number;
  /** width in CSS pixels, 1–16384 */
  width: number;
  /** height in CSS pixels, 1–16384 */
  height: number;
}

export interface CursorResult {
  /** true once the cursor changed */
  ok: true;
}

// Inputs and answers

/** What `browsers.computer.batch` takes: its path parameters, body fields, side by side. */
export interface BatchInput {
  /** browser session id */
  id: string;
  /** actions run in order as one input, 1–100 */
  actions: BatchActionInput[];
}

/** What `browsers.computer.clickMouse` takes: its path parameters, body fields, side by side. */
export interface ClickMouseInput {
  /** browser session id */
  id: string;
  /** x in CSS pixels of the viewport, from 0 */
  x: number;
  /** y in CSS pixels of the viewport, from 0 */
  y: number;
  /** left, right, middle, back or forward, default left */
  button?: 'left' | 'right' | 'middle' | 'back' | 'forward' | undefined;
  /** down, up or click (both), default click */
  click_type?: 'down' | 'up' | 'click' | undefined;
  /** clicks, 1–10 (2 is a double click), default 1 */
  num_clicks?: number | undefined;
  /** keys held through the click, at most 8, default none */
  hold_keys?: string[] | undefined;
}

/** What `browsers.computer.dragMouse` takes: its path parameters, body fields, side by side. */
export interface DragMouseInput {
  /** browser session id */
  id: string;
  /** points [x, y] to drag through, 2–1000 */
  path: [number, number][];
  /** left, middle or right, default left */
  button?: 'left' | 'middle' | 'right' | undefined;
  /** pause after pressing, before moving, ms, 0–10000, default 0 */
  delay?: number | undefined;
  /** moves between two points, 1–100, default 10 */
  steps_per_segment?: number | undefined;
  /** pause between two moves, ms, 0–1000, default 50 */
  step_delay_ms?: number | undefined;
  /** move along a human-like path, default false */
  smooth?: boolean | undefined;
  /** how long a smooth drag takes, ms, 50–5000 */
  duration_ms?: number | undefined;
  /** keys held through the drag, at most 8, default none */
  hold_keys?: string[] | undefined;
}

/** What `browsers.computer.getMousePosition` takes: its path parameters. */
export interface GetMousePositionInput {
  /** browser session id */
  id: string;
}

/** What `browsers.computer.moveMouse` takes: its path parameters, body fields, side by side. */
export interface MoveMouseInput {
  /** browser session id */
  id: string;
  /** x in CSS pixels of the viewport, from 0 */
  x: number;
  /** y in CSS pixels of the viewport, from 0 */
  y: number;
  /** keys held through the move, at most 8, default none */
  hold_keys?: string[] | undefined;
  /** move along a human-like path, default false */
  smooth?: boolean | undefined;
  /** how long a smooth move takes, ms, 50–5000 */
  duration_ms?: number | undefined;
}

/** What `browsers.computer.pressKey` takes: its path parameters, body fields, side by side. */
export interface PressKeyInput {
  /** browser session id */
  id: string;
  /** keys or combos pressed in order (Return, ctrl+a), 1–64 */
  keys: string[];
  /** how long each key is held down, ms, 0–10000, default 0 */
  duration?: number | undefined;
  /** keys held through the presses, at most 8, default none */
  hold_keys?: string[] | undefined;
}

/** What `browsers.computer.readClipboard` takes: its path parameters. */
export interface ReadClipboardInput {
  /** browser session id */
  id: string;
}

/** What `browsers.computer.screenshot` takes: its path parameters, body fields, side by side. */
export interface ScreenshotInput {
  /** browser session id */
  id: string;
  /** the part of the viewport to capture, default all of it */
  region?: ScreenshotRegion | undefined;
}

/** What `browsers.computer.scroll` takes: its path parameters, body fields, side by side. */
export interface ScrollInput {
  /** browser session id */
  id: string;
  /** x where the wheel turns, CSS pixels, from 0 */
  x: number;
  /** y where the wheel turns, CSS pixels, from 0 */
  y: number;
  /** wheel notches sideways (right positive), ±100, default 0 */
  delta_x?: number | undefined;
  /** wheel notches down (positive) or up, ±100, default 0 */
  delta_y?: number | undefined;
  /** keys held through the scroll, at most 8, default none */
  hold_keys?: string[] | undefined;
}

/** What `browsers.computer.setCursorVisibility` takes: its path parameters, body fields, side by side. */
export interface SetCursorVisibilityInput {
  /** browser session id */
  id: string;
  /** hide the mouse cursor (true) or show it */
  hidden: boolean;
}

/** What `browsers.computer.type` takes: its path parameters, body fields, side by side. */
export interface TypeTextInput {
  /** browser session id */
  id: string;
  /** text typed key by key, any Unicode, at most 100000 characters */
  text: string;
  /** pause between keystrokes, ms, ≥ 0, default 0 */
  delay?: number | undefined;
}

/** What `browsers.computer.writeClipboard` takes: its path parameters, body fields, side by side. */
export interface WriteClipboardInput {
  /** browser session id */
  id: string;
  /** text put on the clipboard, at most 100000 characters */
  text: string;
}

// Functions

// browsers.computer

/**
 * Run mouse, keyboard and pause actions in order, stopping at the first that fails.
 *
 * `POST /browsers/{id}/computer/batch`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 413, 415, 422, 429, 500, 503.
 * `browsers.computer.batch`
 */
export const batch: (
  core: Core,
  input: BatchInput,
  options?: CallOptions,
) => CallPromise<undefined> = /* @__PURE__ */ defineCall<BatchInput, undefined>({
  name: 'browsers.computer.batch',
  method: 'POST',
  path: '/browsers/{id}/computer/batch',
  body: 'json',
  responses: { 204: 'none' },
  write: true,
  serverTimeMs: batchServerTimeMs,
});

/**
 * Click, press or release a mouse button at a point of the screen.
 *
 * `POST /browsers/{id}/computer/click_mouse`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 413, 415, 422, 429, 500, 503.
 * `browsers.computer.clickMouse`
 */
export const clickMouse: (
  core: Core,
  input: ClickMouseInput,
  options?: CallOptions,
) => CallPromise<undefined> = /* @__PURE__ */ defineCall<ClickMouseInput, undefined>({
  name: 'browsers.computer.clickMouse',
  method: 'POST',
  path: '/browsers/{id}/computer/click_mouse',
  body: 'json',
  responses: { 204: 'none' },
  write: true,
});

/**
 * Drag the mouse along a path with a button held.
 *
 * `POST /browsers/{id}/computer/drag_mouse`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 413, 415, 422, 429, 500, 503.
 * `browsers.computer.dragMouse`
 */
export const dragMouse: (
  core: Core,
  input: DragMouseInput,
  options?: CallOptions,
) => CallPromise<undefined> = /* @__PURE__ */ defineCall<DragMouseInput, undefined>({
  name: 'browsers.computer.dragMouse',
  method: 'POST',
  path: '/browsers/{id}/computer/drag_mouse',
  body: 'json',
  responses: { 204: 'none' },
  write: true,
  serverTimeMs: dragDurationMs,
});

/**
 * Get the mouse position the last action left.
 *
 * `POST /browsers/{id}/computer/get_mouse_position`: any token, read-only ones too.
 * Errors: 400, 401, 403, 404, 429, 500, 503.
 * `browsers.computer.getMousePosition`
 */
export const getMousePosition: (
  core: Core,
  input: GetMousePositionInput,
  options?: CallOptions,
) => CallPromise<MousePosition> = /* @__PURE__ */ defineCall<GetMousePositionInput, MousePosition>({
  name: 'browsers.computer.getMousePosition',
  method: 'POST',
  path: '/browsers/{id}/computer/get_mouse_position',
  responses: { 200: 'json' },
});

/**
 * Move the mouse to a point of the screen, straight or along a human-like path.
 *
 * `POST /browsers/{id}/computer/move_mouse`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 413, 415, 422, 429, 500, 503.
 * `browsers.computer.moveMouse`
 */
export const moveMouse: (
  core: Core,
  input: MoveMouseInput,
  options?: CallOptions,
) => CallPromise<undefined> = /* @__PURE__ */ defineCall<MoveMouseInput, undefined>({
  name: 'browsers.computer.moveMouse',
  method: 'POST',
  path: '/browsers/{id}/computer/move_mouse',
  body: 'json',
  responses: { 204: 'none' },
  write: true,
  serverTimeMs: moveDurationMs,
});

/**
 * Press keys or combos such as Ctrl+t, holding each for a while if asked.
 *
 * `POST /browsers/{id}/computer/press_key`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 413, 415, 422, 429, 500, 503.
 * `browsers.computer.pressKey`
 */
export const pressKey: (
  core: Core,
  input: PressKeyInput,
  options?: CallOptions,
) => CallPromise<undefined> = /* @__PURE__ */ defineCall<PressKeyInput, undefined>({
  name: 'browsers.computer.pressKey',
  method: 'POST',
  path: '/browsers/{id}/computer/press_key',
  body: 'json',
  responses: { 204: 'none' },
  write: true,
  serverTimeMs: pressDurationMs,
});

/**
 * Read the text on the browser's clipboard.
 *
 * `POST /browsers/{id}/computer/clipboard/read`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 409, 429, 500, 503.
 * `browsers.computer.readClipboard`
 */
export const readClipboard: (
  core: Core,
  input: ReadClipboardInput,
  options?: CallOptions,
) => CallPromise<ClipboardText> = /* @__PURE__ */ defineCall<ReadClipboardInput, ClipboardText>({
  name: 'browsers.computer.readClipboard',
  method: 'POST',
  path: '/browsers/{id}/computer/clipboard/read',
  responses: { 200: 'json' },
});

/**
 * Take a PNG screenshot of the browser.
 *
 * `POST /browsers/{id}/computer/screenshot`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 413, 415, 429, 500, 503.
 * `browsers.computer.screenshot`
 */
export const screenshot: (
  core: Core,
  input: ScreenshotInput,
  options?: CallOptions,
) => CallPromise<BinaryBody> = /* @__PURE__ */ defineCall<ScreenshotInput, BinaryBody>(
  {
    name: 'browsers.computer.screenshot',
    method: 'POST',
    path: '/browsers/{id}/computer/screenshot',
    body: 'json',
    bodyOptional: true,
    responses: { 200: 'binary' },
  },
  { readBody: readStreamBody },
);

/**
 * Turn the mouse wheel at a point of the screen.
 *
 * `POST /browsers/{id}/computer/scroll`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 413, 415, 422, 429, 500, 503.
 * `browsers.computer.scroll`
 */
export const scroll: (
  core: Core,
  input: ScrollInput,
  options?: CallOptions,
) => CallPromise<undefined> = /* @__PURE__ */ defineCall<ScrollInput, undefined>({
  name: 'browsers.computer.scroll',
  method: 'POST',
  path: '/browsers/{id}/computer/scroll',
  body: 'json',
  responses: { 204: 'none' },
  write: true,
});

/**
 * Hide or show the mouse cursor.
 *
 * `POST /browsers/{id}/computer/cursor`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 413, 415, 422, 429, 500, 503.
 * `browsers.computer.setCursorVisibility`
 */
export const setCursorVisibility: (
  core: Core,
  input: SetCursorVisibilityInput,
  options?: CallOptions,
) => CallPromise<CursorResult> = /* @__PURE__ */ defineCall<SetCursorVisibilityInput, CursorResult>(
  {
    name: 'browsers.computer.setCursorVisibility',
    method: 'POST',
    path: '/browsers/{id}/computer/cursor',
    body: 'json',
    responses: { 200: 'json' },
    write: true,
  },
);

/**
 * Type text on the browser instance.
 *
 * `POST /browsers/{id}/computer/type` (§4.2 of the interface): a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 413, 415, 422, 429, 500, 503.
 * `browsers.computer.type`
 */
export const typeText: (
  core: Core,
  input: TypeTextInput,
  options?: CallOptions,
) => CallPromise<undefined> = /* @__PURE__ */ defineCall<TypeTextInput, undefined>({
  name: 'browsers.computer.type',
  method: 'POST',
  path: '/browsers/{id}/computer/type',
  body: 'json',
  responses: { 204: 'none' },
  write: true,
  serverTimeMs: typeDurationMs,
});

/**
 * Put text on the browser's clipboard (what Ctrl+V then pastes).
 *
 * `POST /browsers/{id}/computer/clipboard/write`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 409, 413, 415, 422, 429, 500, 503.
 * `browsers.computer.writeClipboard`
 */
export const writeClipboard: (
  core: Core,
  input: WriteClipboardInput,
  options?: CallOptions,
) => CallPromise<undefined> = /* @__PURE__ */ defineCall<WriteClipboardInput, undefined>({
  name: 'browsers.computer.writeClipboard',
  method: 'POST',
  path: '/browsers/{id}/computer/clipboard/write',
  body: 'json',
  responses: { 204: 'none' },
  write: true,
});
