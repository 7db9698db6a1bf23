import {
  type BatchAction,
  type ClickMouseBody,
  type DragMouseBody,
  type Modifier,
  type MouseButton,
  type MoveMouseBody,
  modifierBits,
  moveDurationMs,
  PIXELS_PER_NOTCH,
  type PressKeyBody,
  parseKeyCombo,
  type ResolvedKey,
  resolveKey,
  type ScrollBody,
} from '@x/types';
import type { BrowserEntry } from '../browsers/browser-entry.js';
import type { BrowserModel } from '../browsers/browser-model.js';
import type { BrowserInstance, InputButton, Region } from '../engines.js';
import { refusals } from '../messages.js';
import { FRAME_MS, type Point, pathBetween } from './mouse-path.js';

/** Waits `ms`, or less when the signal aborts. */
export function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

/** A signal that never aborts: a live view's input runs to its end. */
const NEVER_ABORTED = new AbortController().signal;

/** One input from a live view in control mode; points in CSS pixels of the viewport. */
export type LiveInput =
  | {
      readonly type: 'mouse';
      readonly event: 'move' | 'down' | 'up';
      readonly x: number;
      readonly y: number;
      readonly button: InputButton;
      readonly clickCount: number;
      readonly modifiers: number;
    }
  | {
      readonly type: 'wheel';
      readonly x: number;
      readonly y: number;
      readonly deltaX: number;
      readonly deltaY: number;
      readonly modifiers: number;
    }
  | {
      readonly type: 'key';
      readonly event: 'down' | 'up';
      readonly key: string;
      readonly modifiers: number;
    }
  | { readonly type: 'text'; readonly text: string };

/** Each mouse button's bit in a `buttons` mask, as DevTools and the DOM count them. */
const BUTTON_BITS: Readonly<Record<MouseButton, number>> = {
  left: 1,
  right: 2,
  middle: 4,
  back: 8,
  forward: 16,
};

/** One run of input on a browser: its entry, the caller's signal and the modifiers now held. */
interface InputRun<I extends BrowserInstance> {
  readonly entry: BrowserEntry<I>;
  readonly signal: AbortSignal;
  /** Modifiers held down, by how many presses hold each (a key held and pressed in a combo). */
  readonly held: Map<Modifier, number>;
}

const modifiersOf = (run: InputRun<BrowserInstance>) => modifierBits(run.held.keys());

/**
 * Every rule of the computer controls, the same in the fake and the server: one input at a time
 * per browser (a call waits for the one before it), coordinates held inside the viewport (400
 * naming the bound), the mouse position kept where the last action left it, paced moves and
 * drags (a human-like path when `smooth`), keys held through an action and always released, and
 * a caller who goes away stopping its input before the next event. A batch runs its actions in
 * order as one input, checked whole before the first runs; the first that fails stops the rest.
 */
export class ComputerModel<I extends BrowserInstance> {
  readonly #browsers: BrowserModel<I>;

  constructor(browsers: BrowserModel<I>) {
    this.#browsers = browsers;
  }

  /**
   * Runs `work` once every input before it on the browser has ended and no person holds the
   * session's control (taken in its live view): the agent's input waits meanwhile, in order. A
   * caller who goes away while it waits sends nothing.
   */
  async #exclusive<T>(
    browserId: string,
    signal: AbortSignal,
    work: (run: InputRun<I>) => Promise<T>,
  ): Promise<T> {
    const entry = this.#browsers.live(browserId);
    const { control } = entry;
    const result = entry.input.then(async () => {
      await control.whenFree(signal);
      // What the person sent before giving control back reaches the page first.
      await control.personInput;
      if (signal.aborted) return undefined as T;
      const running = work({ entry, signal, held: new Map() });
      control.running = running;
      try {
        return await running;
      } finally {
        if (control.running === running) control.running = undefined;
      }
    });
    entry.input = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }

  type(browserId: string, text: string, delay: number, signal: AbortSignal): Promise<void> {
    return this.#exclusive(browserId, signal, (run) => this.#type(run, text, delay));
  }

  async #type(run: InputRun<I>, text: string, delay: number): Promise<void> {
    const { instance } = run.entry;
    if (delay === 0) {
      if (!run.signal.aborted && text !== '') await instance.type(text);
      return;
    }
    let isFirst = true;
    for (const character of text) {
      if (run.signal.aborted) return;
      if (!isFirst) await pause(delay, run.signal);
      isFirst = false;
      if (run.signal.aborted) return;
      await instance.type(character);
    }
  }

  /**
   * One input of a live view in control mode, run in turn with every other input on the browser
   * (the same events the computer controls send). Points are held inside the viewport; the mouse
   * position and held buttons are kept as for the controls.
   */
  async liveInput(browserId: string, input: LiveInput, viewer?: object): Promise<void> {
    const entry = this.#browsers.live(browserId);
    const { control } = entry;
    // While a person holds control, only their input is sent, at once, past the agent's waiting.
    if (control.holder) {
      if (control.holder !== viewer) return Promise.resolve();
      const sent = control.personInput.then(() => this.#liveEvent(entry, input));
      control.personInput = sent.then(
        () => undefined,
        () => undefined,
      );
      return sent;
    }
    return this.#exclusive(browserId, NEVER_ABORTED, (run) => this.#liveEvent(run.entry, input));
  }

  async #liveEvent(entry: BrowserEntry<I>, input: LiveInput): Promise<void> {
    const { instance, pointer } = entry;
    if (input.type === 'text') {
      if (input.text !== '') await instance.type(input.text);
      return;
    }
    if (input.type === 'key') {
      await instance.key({ type: input.event, key: input.key, modifiers: input.modifiers });
      return;
    }
    const { width, height } = this.#viewportOf(entry);
    const x = Math.min(Math.max(0, Math.round(input.x)), width - 1);
    const y = Math.min(Math.max(0, Math.round(input.y)), height - 1);
    if (input.type === 'wheel') {
      await instance.wheel({
        x,
        y,
        deltaX: input.deltaX,
        deltaY: input.deltaY,
        modifiers: input.modifiers,
      });
      pointer.x = x;
      pointer.y = y;
      return;
    }
    const bit = input.button === 'none' ? 0 : BUTTON_BITS[input.button];
    if (input.event === 'down') pointer.buttons |= bit;
    if (input.event === 'up') pointer.buttons &= ~bit;
    await instance.mouse({
      type: input.event,
      x,
      y,
      button: input.event === 'move' ? heldButton(pointer.buttons) : input.button,
      buttons: pointer.buttons,
      clickCount: input.event === 'move' ? 0 : input.clickCount,
      modifiers: input.modifiers,
    });
    pointer.x = x;
    pointer.y = y;
  }

  screenshot(browserId: string, region: Region | undefined): Promise<Uint8Array> {
    return this.#browsers.live(browserId).instance.screenshot(region);
  }

  click(browserId: string, body: ClickMouseBody, signal: AbortSignal): Promise<void> {
    this.#checkPoints(browserId, [[body.x, body.y, '']]);
    return this.#exclusive(browserId, signal, (run) => this.#click(run, body));
  }

  move(browserId: string, body: MoveMouseBody, signal: AbortSignal): Promise<void> {
    this.#checkPoints(browserId, [[body.x, body.y, '']]);
    return this.#exclusive(browserId, signal, (run) => this.#move(run, body));
  }

  drag(browserId: string, body: DragMouseBody, signal: AbortSignal): Promise<void> {
    this.#checkPoints(browserId, pathFields(body.path, ''));
    return this.#exclusive(browserId, signal, (run) => this.#drag(run, body));
  }

  scroll(browserId: string, body: ScrollBody, signal: AbortSignal): Promise<void> {
    this.#checkPoints(browserId, [[body.x, body.y, '']]);
    return this.#exclusive(browserId, signal, (run) => this.#scroll(run, body));
  }

  pressKeys(browserId: string, body: PressKeyBody, signal: AbortSignal): Promise<void> {
    return this.#exclusive(browserId, signal, (run) => this.#pressKeys(run, body));
  }

  /** Where the last action left the mouse. */
  mousePosition(browserId: string): { x: number; y: number } {
    const { pointer } = this.#browsers.live(browserId);
    return { x: pointer.x, y: pointer.y };
  }

  setCursorHidden(browserId: string, hidden: boolean, signal: AbortSignal): Promise<void> {
    return this.#exclusive(browserId, signal, (run) => run.entry.instance.setCursorHidden(hidden));
  }

  readClipboard(browserId: string, signal: AbortSignal): Promise<string> {
    return this.#exclusive(browserId, signal, (run) => run.entry.instance.readClipboard());
  }

  writeClipboard(browserId: string, text: string, signal: AbortSignal): Promise<void> {
    return this.#exclusive(browserId, signal, (run) => run.entry.instance.writeClipboard(text));
  }

  /**
   * Runs a batch as one input. Every coordinate of every action is checked first, so a batch
   * that names a point off the screen does nothing; an action that fails while running stops
   * the rest, and the error names it.
   */
  batch(browserId: string, actions: readonly BatchAction[], signal: AbortSignal): Promise<void> {
    this.#checkPoints(
      browserId,
      actions.flatMap((action, index) => actionPoints(action, `actions[${index}].${action.type}.`)),
    );
    return this.#exclusive(browserId, signal, async (run) => {
      for (const [index, action] of actions.entries()) {
        if (run.signal.aborted) return;
        try {
          await this.#runAction(run, action);
        } catch (error) {
          throw refusals.actionFailed(index, action.type, error);
        }
      }
    });
  }

  #runAction(run: InputRun<I>, action: BatchAction): Promise<void> {
    switch (action.type) {
      case 'click_mouse':
        return this.#click(run, action.click_mouse);
      case 'move_mouse':
        return this.#move(run, action.move_mouse);
      case 'drag_mouse':
        return this.#drag(run, action.drag_mouse);
      case 'scroll':
        return this.#scroll(run, action.scroll);
      case 'press_key':
        return this.#pressKeys(run, action.press_key);
      case 'type_text':
        return this.#type(run, action.type_text.text, action.type_text.delay);
      case 'set_cursor':
        return run.entry.instance.setCursorHidden(action.set_cursor.hidden);
      case 'sleep':
        return pause(action.sleep.duration_ms, run.signal);
    }
  }

  /** 400 for the first point outside the browser's viewport, naming its field and the bound. */
  #checkPoints(browserId: string, points: readonly (readonly [number, number, string])[]): void {
    const { width, height } = this.#viewportOf(this.#browsers.live(browserId));
    for (const [x, y, prefix] of points) {
      if (x >= width) throw refusals.outsideScreen(`${prefix}x`, width, 'width');
      if (y >= height) throw refusals.outsideScreen(`${prefix}y`, height, 'height');
    }
  }

  #viewportOf(entry: BrowserEntry<I>): { width: number; height: number } {
    const viewport = entry.record.viewport;
    if (!viewport) throw new TypeError(`Browser "${entry.record.session_id}" has no viewport`);
    return viewport;
  }

  async #click(run: InputRun<I>, body: ClickMouseBody): Promise<void> {
    await this.#withHeldKeys(run, body.hold_keys, async () => {
      await this.#moveTo(run, { x: body.x, y: body.y });
      const bit = BUTTON_BITS[body.button];
      for (let count = 1; count <= body.num_clicks; count++) {
        if (run.signal.aborted) return;
        if (body.click_type !== 'up') await this.#button(run, 'down', body.button, bit, count);
        if (body.click_type !== 'down') await this.#button(run, 'up', body.button, bit, count);
      }
    });
  }

  async #move(run: InputRun<I>, body: MoveMouseBody): Promise<void> {
    await this.#withHeldKeys(run, body.hold_keys, () =>
      this.#travel(run, { x: body.x, y: body.y }, moveDurationMs(body), body.smooth),
    );
  }

  async #drag(run: InputRun<I>, body: DragMouseBody): Promise<void> {
    const [first, ...rest] = body.path.map(([x, y]) => ({ x, y }));
    if (!first) return;
    const bit = BUTTON_BITS[body.button];
    await this.#withHeldKeys(run, body.hold_keys, async () => {
      await this.#moveTo(run, first);
      await this.#button(run, 'down', body.button, bit, 1);
      try {
        if (body.delay > 0) await pause(body.delay, run.signal);
        const steps = rest.length * body.steps_per_segment;
        const stepMs =
          body.duration_ms === undefined ? body.step_delay_ms : body.duration_ms / steps;
        for (const point of rest) {
          if (run.signal.aborted) return;
          const points = pathBetween(run.entry.pointer, point, body.steps_per_segment, {
            smooth: body.smooth,
            bounds: this.#viewportOf(run.entry),
          });
          await this.#follow(run, points, stepMs);
        }
      } finally {
        // The button is let go whatever happened, so the page is not left mid-drag.
        await this.#button(run, 'up', body.button, bit, 1);
      }
    });
  }

  async #scroll(run: InputRun<I>, body: ScrollBody): Promise<void> {
    await this.#withHeldKeys(run, body.hold_keys, async () => {
      await this.#moveTo(run, { x: body.x, y: body.y });
      await run.entry.instance.wheel({
        x: body.x,
        y: body.y,
        deltaX: body.delta_x * PIXELS_PER_NOTCH,
        deltaY: body.delta_y * PIXELS_PER_NOTCH,
        modifiers: modifiersOf(run),
      });
    });
  }

  async #pressKeys(run: InputRun<I>, body: PressKeyBody): Promise<void> {
    await this.#withHeldKeys(run, body.hold_keys, async () => {
      for (const combo of body.keys) {
        if (run.signal.aborted) return;
        const parsed = parseKeyCombo(combo);
        if (!parsed) continue;
        const modifiers = parsed.modifiers.map((modifier) => ({ key: modifier, modifier }));
        await this.#holding(run, modifiers, async () => {
          await this.#holding(run, [parsed.key], async () => {
            if (body.duration > 0) await pause(body.duration, run.signal);
          });
        });
      }
    });
  }

  /** Holds the named keys through `work`, then lets them go in reverse order. */
  #withHeldKeys(run: InputRun<I>, names: readonly string[], work: () => Promise<void>) {
    const keys = names.map((name) => resolveKey(name)).filter((key) => key !== undefined);
    return this.#holding(run, keys, work);
  }

  /** Presses `keys` down in order, runs `work`, and releases them in reverse, whatever happens. */
  async #holding(run: InputRun<I>, keys: readonly ResolvedKey[], work: () => Promise<void>) {
    const pressed: ResolvedKey[] = [];
    try {
      for (const key of keys) {
        if (run.signal.aborted) return;
        if (key.modifier) run.held.set(key.modifier, (run.held.get(key.modifier) ?? 0) + 1);
        pressed.push(key);
        await run.entry.instance.key({ type: 'down', key: key.key, modifiers: modifiersOf(run) });
      }
      await work();
    } finally {
      for (const key of pressed.reverse()) {
        if (key.modifier) {
          const count = (run.held.get(key.modifier) ?? 1) - 1;
          if (count === 0) run.held.delete(key.modifier);
          else run.held.set(key.modifier, count);
        }
        await run.entry.instance.key({ type: 'up', key: key.key, modifiers: modifiersOf(run) });
      }
    }
  }

  /** Moves the mouse to `to` over `durationMs` (at once when 0), along a bent path if `smooth`. */
  async #travel(run: InputRun<I>, to: Point, durationMs: number, smooth: boolean): Promise<void> {
    if (durationMs === 0) return this.#moveTo(run, to);
    const steps = Math.max(2, Math.round(durationMs / FRAME_MS));
    const points = pathBetween(run.entry.pointer, to, steps, {
      smooth,
      bounds: this.#viewportOf(run.entry),
    });
    await this.#follow(run, points, durationMs / steps);
  }

  /** Moves through `points`, `stepMs` apart, stopping early for a caller who went away. */
  async #follow(run: InputRun<I>, points: readonly Point[], stepMs: number): Promise<void> {
    for (const [index, point] of points.entries()) {
      if (run.signal.aborted) return;
      if (index > 0 && stepMs > 0) await pause(stepMs, run.signal);
      await this.#moveTo(run, point);
    }
  }

  async #moveTo(run: InputRun<I>, point: Point): Promise<void> {
    const { pointer } = run.entry;
    await run.entry.instance.mouse({
      type: 'move',
      x: point.x,
      y: point.y,
      button: heldButton(pointer.buttons),
      buttons: pointer.buttons,
      clickCount: 0,
      modifiers: modifiersOf(run),
    });
    pointer.x = point.x;
    pointer.y = point.y;
  }

  async #button(
    run: InputRun<I>,
    type: 'down' | 'up',
    button: MouseButton,
    bit: number,
    clickCount: number,
  ): Promise<void> {
    const { pointer } = run.entry;
    pointer.buttons = type === 'down' ? pointer.buttons | bit : pointer.buttons & ~bit;
    await run.entry.instance.mouse({
      type,
      x: pointer.x,
      y: pointer.y,
      button,
      buttons: pointer.buttons,
      clickCount,
      modifiers: modifiersOf(run),
    });
  }
}

/** The button a move reports while buttons are held (the first held), or `none`. */
function heldButton(buttons: number): InputButton {
  for (const [name, bit] of Object.entries(BUTTON_BITS)) {
    if (buttons & bit) return name as MouseButton;
  }
  return 'none';
}

/** The points of a drag path with their field prefixes, for the viewport check. */
function pathFields(
  path: readonly (readonly [number, number])[],
  prefix: string,
): [number, number, string][] {
  return path.map(([x, y], index) => [x, y, `${prefix}path[${index}].`]);
}

/** The points an action of a batch names, with their field prefixes. */
function actionPoints(action: BatchAction, prefix: string): [number, number, string][] {
  switch (action.type) {
    case 'click_mouse':
      return [[action.click_mouse.x, action.click_mouse.y, prefix]];
    case 'move_mouse':
      return [[action.move_mouse.x, action.move_mouse.y, prefix]];
    case 'scroll':
      return [[action.scroll.x, action.scroll.y, prefix]];
    case 'drag_mouse':
      return pathFields(action.drag_mouse.path, prefix);
    default:
      return [];
  }
}
