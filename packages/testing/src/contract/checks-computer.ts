import { type ContractCheck, defineChecks } from './check.js';
import { expect } from './context.js';
import { createBrowser } from './resources.js';

/** The computer controls beyond typing and screenshots: mouse, keys, clipboard, cursor, batch. */
export const computerChecks: readonly ContractCheck[] = defineChecks('computer', {
  'mouse actions answer 204 and the position is where the last one left it': async (context) => {
    const { session_id: id } = await createBrowser(context, {
      viewport: { width: 800, height: 600 },
    });
    const computer = (path: string, json?: unknown) =>
      context.call('POST', `/browsers/${id}/computer/${path}`, json === undefined ? {} : { json });
    context.expectSuccess(
      await computer('click_mouse', { x: 10, y: 20, button: 'right', num_clicks: 2 }),
      'browsers.computer.clickMouse',
      204,
    );
    context.expectSuccess(
      await computer('drag_mouse', {
        path: [
          [1, 1],
          [50, 60],
        ],
        steps_per_segment: 2,
        step_delay_ms: 0,
      }),
      'browsers.computer.dragMouse',
      204,
    );
    context.expectSuccess(
      await computer('scroll', { x: 5, y: 5, delta_y: 2 }),
      'browsers.computer.scroll',
      204,
    );
    context.expectSuccess(
      await computer('move_mouse', { x: 799, y: 599, smooth: true, duration_ms: 50 }),
      'browsers.computer.moveMouse',
      204,
    );
    const position = context.expectSuccess<{ x: number; y: number }>(
      await computer('get_mouse_position'),
      'browsers.computer.getMousePosition',
      200,
    );
    expect(position.x === 799 && position.y === 599, `the position is ${JSON.stringify(position)}`);
  },
  'a point outside the viewport is 400 naming the bound': async (context) => {
    const { session_id: id } = await createBrowser(context, {
      viewport: { width: 800, height: 600 },
    });
    const answer = await context.call('POST', `/browsers/${id}/computer/click_mouse`, {
      json: { x: 800, y: 10 },
    });
    context.expectError(answer, 400, 'bad_request');
    const body = answer.json as { message: string };
    expect(
      /800/.test(body.message) && /width/.test(body.message),
      `the message is "${body.message}"`,
    );
  },
  'keys, combos and bad key names': async (context) => {
    const { session_id: id } = await createBrowser(context);
    const press = (json: unknown) =>
      context.call('POST', `/browsers/${id}/computer/press_key`, { json });
    context.expectSuccess(
      await press({ keys: ['Ctrl+a', 'Return', 'F5', 'Shift+Tab'], hold_keys: ['alt'] }),
      'browsers.computer.pressKey',
      204,
    );
    context.expectError(await press({ keys: ['Ctrl+Nope'] }), 400, 'bad_request');
    context.expectError(await press({ keys: [] }), 400, 'bad_request');
    context.expectError(
      await context.call('POST', `/browsers/${id}/computer/scroll`, { json: { x: 1, y: 1 } }),
      400,
      'bad_request',
    );
  },
  'the clipboard keeps what was written; the cursor answers ok': async (context) => {
    const { session_id: id } = await createBrowser(context);
    context.expectSuccess(
      await context.call('POST', `/browsers/${id}/computer/clipboard/write`, {
        json: { text: 'héllo 📋' },
      }),
      'browsers.computer.writeClipboard',
      204,
    );
    const read = context.expectSuccess<{ text: string }>(
      await context.call('POST', `/browsers/${id}/computer/clipboard/read`),
      'browsers.computer.readClipboard',
      200,
    );
    expect(read.text === 'héllo 📋', `the clipboard reads "${read.text}"`);
    const cursor = context.expectSuccess<{ ok: boolean }>(
      await context.call('POST', `/browsers/${id}/computer/cursor`, { json: { hidden: true } }),
      'browsers.computer.setCursorVisibility',
      200,
    );
    expect(cursor.ok === true, 'cursor does not answer ok: true');
  },
  'a batch runs in order; a bad action is 400 naming it, and nothing runs': async (context) => {
    const { session_id: id } = await createBrowser(context, {
      viewport: { width: 800, height: 600 },
    });
    const batch = (actions: unknown[]) =>
      context.call('POST', `/browsers/${id}/computer/batch`, { json: { actions } });
    context.expectSuccess(
      await batch([
        { type: 'move_mouse', move_mouse: { x: 3, y: 4 } },
        { type: 'sleep', sleep: { duration_ms: 10 } },
        { type: 'type_text', type_text: { text: 'hi' } },
        { type: 'press_key', press_key: { keys: ['Return'] } },
        { type: 'set_cursor', set_cursor: { hidden: false } },
        { type: 'click_mouse', click_mouse: { x: 30, y: 40 } },
      ]),
      'browsers.computer.batch',
      204,
    );
    const bad = await batch([
      { type: 'click_mouse', click_mouse: { x: 1, y: 1 } },
      { type: 'scroll', scroll: { x: 1, y: 900, delta_y: 1 } },
    ]);
    context.expectError(bad, 400, 'bad_request');
    const message = (bad.json as { message: string }).message;
    expect(message.includes('actions[1]'), `the message "${message}" does not name actions[1]`);
    const position = context.expectSuccess<{ x: number; y: number }>(
      await context.call('POST', `/browsers/${id}/computer/get_mouse_position`),
      'browsers.computer.getMousePosition',
      200,
    );
    expect(position.x === 30 && position.y === 40, 'the refused batch moved the mouse');
    context.expectError(await batch([{ type: 'jump', jump: {} }]), 400, 'bad_request');
  },
  'a read-only token may read where the mouse is, but not the screen or clipboard, nor act': async (
    context,
  ) => {
    const { session_id: id } = await createBrowser(context);
    const token = context.target.readOnlyToken;
    context.expectSuccess(
      await context.call('POST', `/browsers/${id}/computer/get_mouse_position`, { token }),
      'browsers.computer.getMousePosition',
      200,
    );
    for (const look of ['screenshot', 'clipboard/read'])
      context.expectError(
        await context.call('POST', `/browsers/${id}/computer/${look}`, { token }),
        403,
        'forbidden',
      );
    context.expectError(
      await context.call('POST', `/browsers/${id}/computer/click_mouse`, {
        json: { x: 1, y: 1 },
        token,
      }),
      403,
      'forbidden',
    );
  },
});
