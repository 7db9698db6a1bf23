import { mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { keyFingerprint, loadSecretKey } from './secret-key.js';

describe('the sealing key', () => {
  it('is made once, 0600; every later load (many at once included) reads the same', () => {
    const folder = mkdtempSync(join(tmpdir(), 'xb-key-'));
    const path = join(folder, 'secret.key');
    const first = loadSecretKey(path);
    expect(first.isNew).toBe(true);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const again = loadSecretKey(path);
    expect(again).toEqual({ key: first.key, isNew: false });
    // No temporary file is left beside it.
    expect(readdirSync(folder)).toEqual(['secret.key']);
  });

  it('refuses a file that is not a key, naming the setting', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'xb-key-')), 'bad.key');
    writeFileSync(path, 'not a key\n');
    expect(() => loadSecretKey(path)).toThrow(/XB_SECRET_KEY_FILE/);
  });

  it('has a fingerprint that tells keys apart and is not the key', () => {
    const one = new Uint8Array(32).fill(1);
    const two = new Uint8Array(32).fill(2);
    expect(keyFingerprint(one)).toBe(keyFingerprint(new Uint8Array(32).fill(1)));
    expect(keyFingerprint(one)).not.toBe(keyFingerprint(two));
    expect(keyFingerprint(one)).not.toContain(Buffer.from(one).toString('hex'));
    expect(keyFingerprint(one)).not.toContain(Buffer.from(one).toString('base64'));
  });
});
