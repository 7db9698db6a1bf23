import { describe, expect, it, vi } from 'vitest';
import { newTestBrowser as newBrowser } from '../test-support/memory-engines.js';

describe('typing', () => {
  it('sends text without a delay at once, and nothing for empty text', async () => {
    const { model, id, instance } = await newBrowser();
    await model.computer.type(id, 'héllo 世界', 0, new AbortController().signal);
    await model.computer.type(id, '', 0, new AbortController().signal);
    expect(instance.typed.map((entry) => entry.text)).toEqual(['héllo 世界']);
  });

  it('paces a delay between characters, by code point', async () => {
    const { model, id, instance } = await newBrowser();
    await model.computer.type(id, 'a👋c', 40, new AbortController().signal);
    expect(instance.typed.map((entry) => entry.text)).toEqual(['a', '👋', 'c']);
    const [first, , last] = instance.typed;
    expect((last?.at ?? 0) - (first?.at ?? 0)).toBeGreaterThanOrEqual(2 * 40 - 5);
  });

  it('types not one more character once its caller went away', async () => {
    const { model, id, instance } = await newBrowser();
    const controller = new AbortController();
    const typing = model.computer.type(id, 'abcdef', 100, controller.signal);
    // Gone once two characters are typed (by what was typed, not by the clock).
    await vi.waitUntil(() => instance.typed.length >= 2, { timeout: 10_000, interval: 5 });
    controller.abort();
    const typed = instance.typed.length;
    await typing;
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(instance.typed.length).toBe(typed);
    expect(typed).toBeLessThan(6);
  });

  it('takes one input at a time: a second call types after the first', async () => {
    const { model, id, instance } = await newBrowser();
    const signal = new AbortController().signal;
    await Promise.all([
      model.computer.type(id, 'ab', 30, signal),
      model.computer.type(id, 'cd', 0, signal),
    ]);
    expect(instance.typed.map((entry) => entry.text).join('')).toBe('abcd');
  });
});

const signal = () => new AbortController().signal;
const CLICK = {
  button: 'left' as const,
  click_type: 'click' as const,
  num_clicks: 1,
  hold_keys: [] as string[],
};

describe('mouse and keys', () => {
  it('moves to the point, then presses and releases with rising click counts', async () => {
    const { model, id, instance } = await newBrowser();
    await model.computer.click(id, { ...CLICK, x: 10, y: 20, num_clicks: 2 }, signal());
    expect(
      instance.inputs.map((e) => [
        e.kind,
        'type' in e ? e.type : '',
        'clickCount' in e ? e.clickCount : '',
      ]),
    ).toEqual([
      ['mouse', 'move', 0],
      ['mouse', 'down', 1],
      ['mouse', 'up', 1],
      ['mouse', 'down', 2],
      ['mouse', 'up', 2],
    ]);
    expect(model.computer.mousePosition(id)).toEqual({ x: 10, y: 20 });
  });

  it('holds keys through a click, with their modifier bits, and lets them go in reverse', async () => {
    const { model, id, instance } = await newBrowser();
    await model.computer.click(
      id,
      { ...CLICK, x: 1, y: 1, button: 'right', hold_keys: ['ctrl', 'shift'] },
      signal(),
    );
    const keys = instance.inputs.filter((e) => e.kind === 'key');
    expect(keys.map((e) => [e.type, e.key, e.modifiers])).toEqual([
      ['down', 'Control', 2],
      ['down', 'Shift', 10],
      ['up', 'Shift', 2],
      ['up', 'Control', 0],
    ]);
    const down = instance.inputs.find((e) => e.kind === 'mouse' && e.type === 'down');
    expect(down).toMatchObject({ button: 'right', buttons: 2, modifiers: 10 });
  });

  it('refuses a point off the screen, naming the bound, and sends nothing', async () => {
    const { model, id, instance } = await newBrowser();
    expect(() => model.computer.click(id, { ...CLICK, x: 1920, y: 0 }, signal())).toThrow(
      /x must be less than 1920, the viewport's width/,
    );
    expect(instance.inputs).toEqual([]);
  });

  it('presses combos: modifiers down, key down and up, modifiers up', async () => {
    const { model, id, instance } = await newBrowser();
    await model.computer.pressKeys(
      id,
      { keys: ['Ctrl+Shift+Tab', 'Return'], duration: 0, hold_keys: [] },
      signal(),
    );
    expect(
      instance.inputs.map((e) => `${'type' in e ? e.type : ''}:${'key' in e ? e.key : ''}`),
    ).toEqual([
      'down:Control',
      'down:Shift',
      'down:Tab',
      'up:Tab',
      'up:Shift',
      'up:Control',
      'down:Enter',
      'up:Enter',
    ]);
  });

  it('drags along the path with the button held, every step inside the screen', async () => {
    const { model, id, instance } = await newBrowser();
    await model.computer.drag(
      id,
      {
        path: [
          [10, 10],
          [100, 10],
          [100, 100],
        ],
        button: 'left',
        delay: 0,
        steps_per_segment: 5,
        step_delay_ms: 0,
        smooth: true,
        hold_keys: [],
      },
      signal(),
    );
    const mouse = instance.inputs.filter((e) => e.kind === 'mouse');
    expect(mouse[1]).toMatchObject({ type: 'down', x: 10, y: 10, buttons: 1 });
    const moves = mouse.slice(2, -1);
    expect(moves).toHaveLength(10);
    expect(moves.every((e) => e.type === 'move' && e.buttons === 1)).toBe(true);
    expect(moves[4]).toMatchObject({ x: 100, y: 10 });
    expect(mouse.at(-1)).toMatchObject({ type: 'up', x: 100, y: 100, buttons: 0 });
  });

  it('scrolls by notches of 100 pixels at the point', async () => {
    const { model, id, instance } = await newBrowser();
    await model.computer.scroll(
      id,
      { x: 5, y: 6, delta_x: 0, delta_y: -3, hold_keys: [] },
      signal(),
    );
    expect(instance.inputs.at(-1)).toMatchObject({
      kind: 'wheel',
      x: 5,
      y: 6,
      deltaX: 0,
      deltaY: -300,
    });
  });

  it('paces a smooth move over its duration along a bent path ending on the point', async () => {
    const { model, id, instance } = await newBrowser();
    const started = performance.now();
    await model.computer.move(
      id,
      { x: 400, y: 300, smooth: true, duration_ms: 200, hold_keys: [] },
      signal(),
    );
    expect(performance.now() - started).toBeGreaterThanOrEqual(150);
    const moves = instance.inputs.filter((e) => e.kind === 'mouse');
    expect(moves.length).toBeGreaterThan(5);
    expect(moves.at(-1)).toMatchObject({ x: 400, y: 300 });
  });

  it('checks a whole batch first, then stops at the first action that fails, naming it', async () => {
    const { model, id, instance } = await newBrowser();
    expect(() =>
      model.computer.batch(
        id,
        [
          { type: 'click_mouse', click_mouse: { ...CLICK, x: 1, y: 1 } },
          { type: 'scroll', scroll: { x: 1, y: 5000, delta_x: 0, delta_y: 1, hold_keys: [] } },
        ],
        signal(),
      ),
    ).toThrow(/actions\[1\]\.scroll\.y must be less than 1080/);
    expect(instance.inputs).toEqual([]);

    instance.key = async () => {
      throw new Error('the page went away');
    };
    await expect(
      model.computer.batch(
        id,
        [
          { type: 'click_mouse', click_mouse: { ...CLICK, x: 1, y: 1 } },
          { type: 'press_key', press_key: { keys: ['a'], duration: 0, hold_keys: [] } },
          { type: 'click_mouse', click_mouse: { ...CLICK, x: 2, y: 2 } },
        ],
        signal(),
      ),
    ).rejects.toThrow(/^Action 1 \(press_key\) failed/);
    expect(model.computer.mousePosition(id)).toEqual({ x: 1, y: 1 });
  });

  it('keeps the clipboard and cursor with the browser', async () => {
    const { model, id, instance } = await newBrowser();
    await model.computer.writeClipboard(id, 'copied', signal());
    expect(await model.computer.readClipboard(id, signal())).toBe('copied');
    await model.computer.setCursorHidden(id, true, signal());
    expect(instance.isCursorHidden).toBe(true);
  });
});
