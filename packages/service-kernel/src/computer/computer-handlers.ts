import type { BrowserInstance } from '../engines.js';
import type { HandlerGroup } from '../handler-group.js';

type Operations =
  | 'browsers.computer.type'
  | 'browsers.computer.screenshot'
  | 'browsers.computer.clickMouse'
  | 'browsers.computer.moveMouse'
  | 'browsers.computer.dragMouse'
  | 'browsers.computer.scroll'
  | 'browsers.computer.pressKey'
  | 'browsers.computer.getMousePosition'
  | 'browsers.computer.setCursorVisibility'
  | 'browsers.computer.readClipboard'
  | 'browsers.computer.writeClipboard'
  | 'browsers.computer.batch';

const NO_CONTENT = { status: 204 } as const;

/** The computer controls over the service model. */
export function computerHandlers<I extends BrowserInstance>(): HandlerGroup<I, Operations> {
  return {
    'browsers.computer.type': async ({ runtime, params, body, signal }) => {
      await runtime.computer.type(params.id, body.text, body.delay, signal);
      return NO_CONTENT;
    },
    'browsers.computer.screenshot': async ({ runtime, params, body }) => ({
      status: 200,
      bytes: await runtime.computer.screenshot(params.id, body.region),
      contentType: 'image/png',
    }),
    'browsers.computer.clickMouse': async ({ runtime, params, body, signal }) => {
      await runtime.computer.click(params.id, body, signal);
      return NO_CONTENT;
    },
    'browsers.computer.moveMouse': async ({ runtime, params, body, signal }) => {
      await runtime.computer.move(params.id, body, signal);
      return NO_CONTENT;
    },
    'browsers.computer.dragMouse': async ({ runtime, params, body, signal }) => {
      await runtime.computer.drag(params.id, body, signal);
      return NO_CONTENT;
    },
    'browsers.computer.scroll': async ({ runtime, params, body, signal }) => {
      await runtime.computer.scroll(params.id, body, signal);
      return NO_CONTENT;
    },
    'browsers.computer.pressKey': async ({ runtime, params, body, signal }) => {
      await runtime.computer.pressKeys(params.id, body, signal);
      return NO_CONTENT;
    },
    'browsers.computer.getMousePosition': ({ runtime, params }) => ({
      status: 200,
      json: runtime.computer.mousePosition(params.id),
    }),
    'browsers.computer.setCursorVisibility': async ({ runtime, params, body, signal }) => {
      await runtime.computer.setCursorHidden(params.id, body.hidden, signal);
      return { status: 200, json: { ok: true } };
    },
    'browsers.computer.readClipboard': async ({ runtime, params, signal }) => ({
      status: 200,
      json: { text: await runtime.computer.readClipboard(params.id, signal) },
    }),
    'browsers.computer.writeClipboard': async ({ runtime, params, body, signal }) => {
      await runtime.computer.writeClipboard(params.id, body.text, signal);
      return NO_CONTENT;
    },
    'browsers.computer.batch': async ({ runtime, params, body, signal }) => {
      await runtime.computer.batch(params.id, body.actions, signal);
      return NO_CONTENT;
    },
  };
}
