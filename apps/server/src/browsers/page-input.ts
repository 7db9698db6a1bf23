import { type KeyInput, type MouseInput, ServiceError, type WheelInput } from '@x/service-kernel';
import { keyEvents, keyStrokeFor, keyStrokeOfKey } from '../computer/key-events.js';
import { CLIPBOARD_READ, CLIPBOARD_WRITE, cursorScript } from '../computer/page-scripts.js';
import type { CdpConnection } from './cdp-connection.js';

/** DevTools' name of each kind of mouse event. */
const MOUSE_EVENT_TYPES = {
  move: 'mouseMoved',
  down: 'mousePressed',
  up: 'mouseReleased',
} as const satisfies Record<MouseInput['type'], string>;

/**
 * Input to a browser's tab in front, as a person's keyboard and mouse would give it, and its
 * clipboard and cursor: each sent over DevTools to the tab's session as it is at the moment.
 */
export class PageInput {
  readonly #cdp: CdpConnection;
  /** The DevTools session of the tab in front now. */
  readonly #session: () => string;
  /** The script that hides the cursor in each new document, while it is hidden. */
  #cursorScript: string | undefined;

  constructor(cdp: CdpConnection, session: () => string) {
    this.#cdp = cdp;
    this.#session = session;
  }

  /**
   * Types text as a person would: a key down and up for every character, in order (the service
   * model paces them and keeps one input at a time).
   */
  async type(text: string): Promise<void> {
    for (const character of text) {
      const [down, up] = keyEvents(keyStrokeFor(character));
      await this.#cdp.send('Input.dispatchKeyEvent', down, this.#session());
      await this.#cdp.send('Input.dispatchKeyEvent', up, this.#session());
    }
  }

  /**
   * Types `text` as `type` does into the tab in front now, reading before each key where that
   * tab's page is (the browser's word, not the page's): false, with nothing more typed, once
   * another tab is in front or `isAllowedUrl` refuses the page it is on.
   */
  async typeWhere(text: string, isAllowedUrl: (url: string) => boolean): Promise<boolean> {
    const session = this.#session();
    for (const character of text) {
      if (this.#session() !== session) return false;
      const { frameTree } = await this.#cdp.send<{ frameTree: { frame: { url: string } } }>(
        'Page.getFrameTree',
        {},
        session,
      );
      if (!isAllowedUrl(frameTree.frame.url)) return false;
      const [down, up] = keyEvents(keyStrokeFor(character));
      await this.#cdp.send('Input.dispatchKeyEvent', down, session);
      await this.#cdp.send('Input.dispatchKeyEvent', up, session);
    }
    return true;
  }

  /** One mouse event, as the page's own mouse would send it. */
  async mouse(event: MouseInput): Promise<void> {
    await this.#cdp.send(
      'Input.dispatchMouseEvent',
      {
        type: MOUSE_EVENT_TYPES[event.type],
        x: event.x,
        y: event.y,
        button: event.button,
        buttons: event.buttons,
        clickCount: event.clickCount,
        modifiers: event.modifiers,
      },
      this.#session(),
    );
  }

  /** One turn of the wheel. */
  async wheel(event: WheelInput): Promise<void> {
    await this.#cdp.send(
      'Input.dispatchMouseEvent',
      {
        type: 'mouseWheel',
        x: event.x,
        y: event.y,
        deltaX: event.deltaX,
        deltaY: event.deltaY,
        modifiers: event.modifiers,
      },
      this.#session(),
    );
  }

  /** One key going down or up, with the modifiers held (a shortcut types no text). */
  async key(event: KeyInput): Promise<void> {
    const [down, up] = keyEvents(keyStrokeOfKey(event.key, event.modifiers), event.modifiers);
    await this.#cdp.send(
      'Input.dispatchKeyEvent',
      event.type === 'down' ? down : up,
      this.#session(),
    );
  }

  /**
   * Hides or shows the mouse cursor over pages: a style rule in the page now and in every page it
   * loads next (a headed browser's X cursor follows the page's CSS cursor).
   */
  async setCursorHidden(hidden: boolean): Promise<void> {
    if (this.#cursorScript !== undefined) {
      await this.#cdp.send(
        'Page.removeScriptToEvaluateOnNewDocument',
        { identifier: this.#cursorScript },
        this.#session(),
      );
      this.#cursorScript = undefined;
    }
    const script = cursorScript(hidden);
    if (hidden) {
      const { identifier } = await this.#cdp.send<{ identifier: string }>(
        'Page.addScriptToEvaluateOnNewDocument',
        { source: script },
        this.#session(),
      );
      this.#cursorScript = identifier;
    }
    await this.#cdp.send('Runtime.evaluate', { expression: script }, this.#session());
  }

  /**
   * Puts text on the browser's clipboard as a copy in the page would: a copy command whose
   * clipboard data is the text, run in a world of the page's own (the page's scripts do not see
   * it, and the page keeps its selection and focus).
   */
  async writeClipboard(text: string): Promise<void> {
    const written = await this.#evaluateApart<boolean>(
      `(${CLIPBOARD_WRITE})(${JSON.stringify(text)})`,
    );
    if (!written) {
      throw new ServiceError(
        'conflict',
        'The page did not take the clipboard write; try again once it has loaded.',
      );
    }
  }

  /**
   * The text on the browser's clipboard, read as a paste: Ctrl+V is pressed on the page and the
   * paste is caught, in a world of the page's own, before the page sees it (nothing is pasted).
   */
  async readClipboard(): Promise<string> {
    const context = await this.#isolatedWorld();
    await this.#evaluateIn(context, CLIPBOARD_READ.arm);
    const ctrl = keyEvents(keyStrokeOfKey('Control', 2), 2);
    const v = keyEvents(keyStrokeOfKey('v', 2), 2);
    for (const event of [ctrl[0], v[0], v[1], { ...ctrl[1], modifiers: 0 }]) {
      await this.#cdp.send('Input.dispatchKeyEvent', event, this.#session());
    }
    const text = await this.#evaluateIn<string | null>(context, CLIPBOARD_READ.result);
    if (text === null) {
      throw new ServiceError(
        'conflict',
        'The page did not take the paste that reads the clipboard; try again once it has loaded.',
      );
    }
    return text;
  }

  /** An execution context of the page's main frame that the page's own scripts cannot reach. */
  async #isolatedWorld(): Promise<number> {
    const { frameTree } = await this.#cdp.send<{ frameTree: { frame: { id: string } } }>(
      'Page.getFrameTree',
      {},
      this.#session(),
    );
    const { executionContextId } = await this.#cdp.send<{ executionContextId: number }>(
      'Page.createIsolatedWorld',
      { frameId: frameTree.frame.id, worldName: 'xb-computer' },
      this.#session(),
    );
    return executionContextId;
  }

  async #evaluateIn<T>(contextId: number, expression: string): Promise<T> {
    const { result, exceptionDetails } = await this.#cdp.send<{
      result: { value: T };
      exceptionDetails?: { text: string };
    }>(
      'Runtime.evaluate',
      { expression, contextId, returnByValue: true, awaitPromise: true, userGesture: true },
      this.#session(),
    );
    if (exceptionDetails) throw new Error(`The page's script failed: ${exceptionDetails.text}`);
    return result.value;
  }

  async #evaluateApart<T>(expression: string): Promise<T> {
    return this.#evaluateIn<T>(await this.#isolatedWorld(), expression);
  }
}
