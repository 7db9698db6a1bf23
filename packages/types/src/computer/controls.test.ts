import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { LIMITS } from '../common/limits.js';
import {
  BatchBodySchema,
  ClickMouseBodySchema,
  DragMouseBodySchema,
  PressKeyBodySchema,
  ScrollBodySchema,
} from './controls.js';
import { dragDurationMs } from './durations.js';
import { modifierBits, parseKeyCombo, resolveKey } from './keys.js';

const messages = (schema: v.GenericSchema, input: unknown) =>
  (v.safeParse(schema, input).issues ?? []).map(
    (issue) => `${v.getDotPath(issue)}: ${issue.message}`,
  );

describe('key names', () => {
  it('resolves keysyms, DOM names, function keys and characters, case-insensitively', () => {
    expect(resolveKey('Return')).toEqual({ key: 'Enter' });
    expect(resolveKey('BackSpace')).toEqual({ key: 'Backspace' });
    expect(resolveKey('page_up')).toEqual({ key: 'PageUp' });
    expect(resolveKey('ArrowLeft')).toEqual({ key: 'ArrowLeft' });
    expect(resolveKey('F24')).toEqual({ key: 'F24' });
    expect(resolveKey('KP_7')).toEqual({ key: '7' });
    expect(resolveKey('minus')).toEqual({ key: '-' });
    expect(resolveKey('Q')).toEqual({ key: 'Q' });
    expect(resolveKey('super')).toEqual({ key: 'Meta', modifier: 'Meta' });
    for (const bad of ['F25', 'Hyper', 'é', '', 'ctrl+a']) expect(resolveKey(bad)).toBeUndefined();
  });

  it('parses combos: modifiers then one key, the plus key included', () => {
    expect(parseKeyCombo('Ctrl+Shift+Tab')).toEqual({
      modifiers: ['Control', 'Shift'],
      key: { key: 'Tab' },
    });
    expect(parseKeyCombo('ctrl++')).toEqual({ modifiers: ['Control'], key: { key: '+' } });
    expect(parseKeyCombo('+')).toEqual({ modifiers: [], key: { key: '+' } });
    expect(parseKeyCombo('a+Ctrl')).toBeUndefined();
    expect(parseKeyCombo('Ctrl+Nope')).toBeUndefined();
    expect(modifierBits(['Control', 'Shift'])).toBe(10);
  });
});

describe('computer control bodies', () => {
  it('applies the defaults of a click', () => {
    expect(v.parse(ClickMouseBodySchema, { x: 1, y: 2 })).toEqual({
      x: 1,
      y: 2,
      button: 'left',
      click_type: 'click',
      num_clicks: 1,
      hold_keys: [],
    });
  });

  it('names each bad field', () => {
    expect(
      messages(ClickMouseBodySchema, { x: -1, y: 1.5, button: 'side', hold_keys: ['hyper'] }),
    ).toEqual([
      'x: must be >= 0',
      'y: must be a whole number',
      'button: must be one of left, right, middle, back, forward',
      'hold_keys.0: names no known key',
    ]);
    expect(messages(PressKeyBodySchema, { keys: ['Ctrl+Nope'] })).toEqual([
      'keys.0: names no known key or combo',
    ]);
    expect(messages(ScrollBodySchema, { x: 1, y: 1 })).toEqual([
      'delta_y: must be non-zero when delta_x is 0: a scroll turns the wheel at least one notch',
    ]);
    expect(messages(DragMouseBodySchema, { path: [[1, 1]] })).toEqual([
      'path: must have at least 2 points',
    ]);
  });

  it('counts a drag by its steps, or its duration', () => {
    const drag = v.parse(DragMouseBodySchema, {
      path: [
        [0, 0],
        [1, 1],
        [2, 2],
      ],
      delay: 100,
    });
    expect(dragDurationMs(drag)).toBe(100 + 2 * 10 * 50);
    expect(dragDurationMs({ ...drag, duration_ms: 500 })).toBe(600);
  });

  it('takes batch actions by type, and bounds their count and total time', () => {
    const sleep = { type: 'sleep', sleep: { duration_ms: 10_000 } };
    expect(v.is(BatchBodySchema, { actions: [sleep] })).toBe(true);
    expect(messages(BatchBodySchema, { actions: [{ type: 'jump' }] })[0]).toMatch(
      /^actions\.0\.type: must have a type/,
    );
    expect(messages(BatchBodySchema, { actions: Array(31).fill(sleep) })).toEqual([
      `actions: must take at most ${LIMITS.batchDurationMs} ms in all by their own pauses and durations`,
    ]);
    expect(messages(BatchBodySchema, { actions: [] })).toEqual([
      'actions: must have at least one action',
    ]);
  });
});
