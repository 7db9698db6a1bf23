import { type MethodCase, noContent, ok } from './method-case.js';

/** One realistic call of every operation of `computer`. */
export const cases: Record<string, MethodCase> = {
  'browsers.computer.type': {
    input: { id: 'br_1', text: 'héllo 世界 👋\n', delay: 5 },
    method: 'POST',
    url: '/browsers/br_1/computer/type',
    body: { text: 'héllo 世界 👋\n', delay: 5 },
    respond: noContent,
    result: undefined,
  },
  'browsers.computer.clickMouse': {
    input: { id: 'br_1', x: 10, y: 20, button: 'right', num_clicks: 2, hold_keys: ['ctrl'] },
    method: 'POST',
    url: '/browsers/br_1/computer/click_mouse',
    body: { x: 10, y: 20, button: 'right', num_clicks: 2, hold_keys: ['ctrl'] },
    respond: noContent,
    result: undefined,
  },
  'browsers.computer.moveMouse': {
    input: { id: 'br_1', x: 1, y: 2, smooth: true, duration_ms: 200 },
    method: 'POST',
    url: '/browsers/br_1/computer/move_mouse',
    body: { x: 1, y: 2, smooth: true, duration_ms: 200 },
    respond: noContent,
    result: undefined,
  },
  'browsers.computer.dragMouse': {
    input: {
      id: 'br_1',
      path: [
        [1, 2],
        [3, 4],
      ],
      steps_per_segment: 3,
    },
    method: 'POST',
    url: '/browsers/br_1/computer/drag_mouse',
    body: {
      path: [
        [1, 2],
        [3, 4],
      ],
      steps_per_segment: 3,
    },
    respond: noContent,
    result: undefined,
  },
  'browsers.computer.scroll': {
    input: { id: 'br_1', x: 5, y: 6, delta_y: -2 },
    method: 'POST',
    url: '/browsers/br_1/computer/scroll',
    body: { x: 5, y: 6, delta_y: -2 },
    respond: noContent,
    result: undefined,
  },
  'browsers.computer.pressKey': {
    input: { id: 'br_1', keys: ['Ctrl+t', 'Return'], duration: 50 },
    method: 'POST',
    url: '/browsers/br_1/computer/press_key',
    body: { keys: ['Ctrl+t', 'Return'], duration: 50 },
    respond: noContent,
    result: undefined,
  },
  'browsers.computer.getMousePosition': {
    input: { id: 'br_1' },
    method: 'POST',
    url: '/browsers/br_1/computer/get_mouse_position',
    respond: ok({ x: 3, y: 4 }),
    result: { x: 3, y: 4 },
  },
  'browsers.computer.setCursorVisibility': {
    input: { id: 'br_1', hidden: true },
    method: 'POST',
    url: '/browsers/br_1/computer/cursor',
    body: { hidden: true },
    respond: ok({ ok: true }),
    result: { ok: true },
  },
  'browsers.computer.readClipboard': {
    input: { id: 'br_1' },
    method: 'POST',
    url: '/browsers/br_1/computer/clipboard/read',
    respond: ok({ text: 'copied' }),
    result: { text: 'copied' },
  },
  'browsers.computer.writeClipboard': {
    input: { id: 'br_1', text: 'to paste' },
    method: 'POST',
    url: '/browsers/br_1/computer/clipboard/write',
    body: { text: 'to paste' },
    respond: noContent,
    result: undefined,
  },
  'browsers.computer.batch': {
    input: { id: 'br_1', actions: [{ type: 'sleep', sleep: { duration_ms: 5 } }] },
    method: 'POST',
    url: '/browsers/br_1/computer/batch',
    body: { actions: [{ type: 'sleep', sleep: { duration_ms: 5 } }] },
    respond: noContent,
    result: undefined,
  },
};
