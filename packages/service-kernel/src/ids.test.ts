import { describe, expect, it } from 'vitest';
import { createIdGenerator, nodeTagOf } from './ids.js';

describe('ids', () => {
  it('carry the tag of the node that made them, found again from the id alone', () => {
    const id = createIdGenerator(undefined, 'n7Kq')('br');
    expect(id).toMatch(/^br_n7Kq[A-Za-z0-9]{12}$/);
    expect(nodeTagOf(id)).toBe('n7Kq');
    expect(nodeTagOf(createIdGenerator(undefined, 'AB12')('proj'))).toBe('AB12');
  });

  it('name no node when one server alone made them, or when they are not ids', () => {
    expect(nodeTagOf(createIdGenerator()('br'))).toBeUndefined();
    for (const text of ['', 'br', 'br_', '_n7Kqx7Hq2K9mN4pL', 'br_n7Kq-7Hq2K9mN4pL', 'my-browser'])
      expect(nodeTagOf(text)).toBeUndefined();
  });

  it('refuses a tag that is not four characters of the alphabet', () => {
    for (const tag of ['abc', 'abcde', 'ab-c'])
      expect(() => createIdGenerator(undefined, tag)).toThrow();
  });
});
