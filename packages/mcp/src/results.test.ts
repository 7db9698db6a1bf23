import { describe, expect, it } from 'vitest';
import {
  bounded,
  errorResult,
  jsonResult,
  refuseOthers,
  required,
  ToolInputError,
  withLinks,
} from './results.js';

describe('tool answers', () => {
  it('cut long text at its bound, saying how much and how to ask for less', () => {
    expect(bounded('short', 10)).toBe('short');
    const cut = bounded('x'.repeat(100), 10, 'list fewer');
    expect(cut).toBe(
      `${'x'.repeat(10)}\n[cut: the first 10 of 100 characters are shown; list fewer]`,
    );
  });

  it('never split a character made of two UTF-16 units', () => {
    const text = `${'a'.repeat(9)}😀tail`;
    expect(bounded(text, 10).startsWith(`${'a'.repeat(9)}\n[cut: the first 9 of`)).toBe(true);
  });

  it('answer JSON indented, errors as isError with one sentence', () => {
    expect(jsonResult({ a: 1 }, 100)).toEqual({
      content: [{ type: 'text', text: '{\n  "a": 1\n}' }],
    });
    expect(errorResult('No browser.')).toEqual({
      content: [{ type: 'text', text: 'No browser.' }],
      isError: true,
    });
  });

  it('add links as resource_link content after the answer, none when there are none', () => {
    const answer = jsonResult({}, 100);
    expect(withLinks(answer, [])).toBe(answer);
    expect(
      withLinks(answer, [{ uri: 'https://x.test/live', name: 'Live view', description: 'd' }])
        .content[1],
    ).toEqual({
      type: 'resource_link',
      mimeType: 'text/html',
      uri: 'https://x.test/live',
      name: 'Live view',
      description: 'd',
    });
  });

  it('name the field an action needs or does not take', () => {
    expect(() => required({ id: '' }, 'id', 'get')).toThrow(
      new ToolInputError('"id" is required for action "get".'),
    );
    expect(required({ id: 'br_1' }, 'id', 'get')).toBe('br_1');
    expect(() => refuseOthers({ a: 1, b: undefined, c: 'x' }, 'list')).toThrow(
      'Action "list" does not take "a", "c".',
    );
    expect(() => refuseOthers({ a: undefined }, 'list')).not.toThrow();
  });
});
