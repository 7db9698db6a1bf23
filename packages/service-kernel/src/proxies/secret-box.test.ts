import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { aesSecretBox } from './secret-box.js';

describe('the secret box', () => {
  it('opens what it sealed, and only with its key', () => {
    const box = aesSecretBox(randomBytes(32));
    const sealed = box.seal('pässword');
    expect(sealed).not.toContain('pässword');
    expect(box.seal('pässword')).not.toBe(sealed);
    expect(box.open(sealed)).toBe('pässword');
    expect(() => aesSecretBox(randomBytes(32)).open(sealed)).toThrow();
    const [version, iv, tag, data] = sealed.split('.');
    const flipped = `${data?.startsWith('A') ? 'B' : 'A'}${data?.slice(1)}`;
    expect(() => box.open([version, iv, tag, flipped].join('.'))).toThrow();
    expect(() => aesSecretBox(new Uint8Array(16))).toThrow(/32 bytes/);
  });
});
