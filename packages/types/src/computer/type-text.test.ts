import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { LIMITS } from '../common/limits.js';
import { countCharacters } from './durations.js';
import { ScreenshotBodySchema } from './screenshot.js';
import { TypeTextBodySchema } from './type-text.js';

const parse = (input: unknown) => v.safeParse(TypeTextBodySchema, input);
const messages = (input: unknown) =>
  (parse(input).issues ?? []).map((issue) => `${v.getDotPath(issue)}: ${issue.message}`);

describe('TypeTextBodySchema', () => {
  it('accepts text with accents, CJK, emoji, newline and tab, defaulting delay to 0', () => {
    const result = parse({ text: 'héllo 世界 👋\n\tdone' });
    expect(result.success).toBe(true);
    expect(result.output).toEqual({ text: 'héllo 世界 👋\n\tdone', delay: 0 });
  });

  it('accepts empty text (a no-op) and an explicit delay', () => {
    expect(parse({ text: '', delay: 50 }).output).toEqual({ text: '', delay: 50 });
  });

  it('requires text', () => {
    expect(messages({ delay: 10 })).toEqual(['text: is required']);
  });

  it('rejects a negative, fractional or non-numeric delay', () => {
    expect(messages({ text: 'a', delay: -1 })).toEqual(['delay: must be >= 0']);
    expect(messages({ text: 'a', delay: 1.5 })).toEqual([
      'delay: must be a whole number of milliseconds',
    ]);
    expect(messages({ text: 'a', delay: '10' })).toEqual(['delay: must be a number']);
  });

  it('rejects an unknown field, naming it', () => {
    expect(messages({ text: 'a', dealy: 5 })).toEqual(['dealy: is not a known field']);
  });

  it('rejects a body that is not an object', () => {
    expect(parse('hello').success).toBe(false);
    expect(parse(null).success).toBe(false);
  });

  it('counts characters as code points, so emoji count once', () => {
    expect(countCharacters('👋👋')).toBe(2);
    expect('👋👋'.length).toBe(4);
    expect(parse({ text: '👋'.repeat(LIMITS.typeTextCharacters) }).success).toBe(true);
  });

  it('rejects text longer than the limit', () => {
    expect(messages({ text: 'a'.repeat(LIMITS.typeTextCharacters + 1) })).toEqual([
      `text: must be at most ${LIMITS.typeTextCharacters} characters`,
    ]);
  });

  it('rejects characters × delay above the time limit, on the delay field', () => {
    expect(parse({ text: 'a'.repeat(3000), delay: 100 }).success).toBe(true);
    expect(messages({ text: 'a'.repeat(3001), delay: 100 })).toEqual([
      `delay: times the number of characters must be at most ${LIMITS.typeTextDurationMs} ms`,
    ]);
  });
});

describe('ScreenshotBodySchema', () => {
  it('accepts no body, an empty body and a region', () => {
    expect(v.parse(ScreenshotBodySchema, undefined)).toEqual({});
    expect(v.parse(ScreenshotBodySchema, {})).toEqual({});
    const region = { x: 0, y: 10, width: 100, height: 50 };
    expect(v.parse(ScreenshotBodySchema, { region })).toEqual({ region });
  });

  it('rejects an empty or negative region', () => {
    expect(v.is(ScreenshotBodySchema, { region: { x: 0, y: 0, width: 0, height: 1 } })).toBe(false);
    expect(v.is(ScreenshotBodySchema, { region: { x: -1, y: 0, width: 1, height: 1 } })).toBe(
      false,
    );
  });
});
