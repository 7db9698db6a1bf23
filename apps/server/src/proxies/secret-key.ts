import { randomBytes } from 'node:crypto';
import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';
import { SECRET_KEY_BYTES } from '@x/service-kernel';

/**
 * The key proxy passwords are sealed with, from its file (32 bytes, base64): made on first use,
 * 0600. It lives outside the data directory (by default beside it, `<data dir>.key`), so a copy
 * of the data directory alone (a backup, a stolen disk image) does not reveal the passwords.
 */
export function loadSecretKey(path: string): { key: Uint8Array; isNew: boolean } {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    const key = randomBytes(SECRET_KEY_BYTES);
    const file = openSync(path, 'wx', 0o600);
    try {
      writeSync(file, `${key.toString('base64')}\n`);
    } finally {
      closeSync(file);
    }
    return { key, isNew: true };
  }
  const key = Buffer.from(text.trim(), 'base64');
  if (key.byteLength !== SECRET_KEY_BYTES)
    throw new Error(
      `${path} must hold a ${SECRET_KEY_BYTES}-byte key in base64 (XB_SECRET_KEY_FILE)`,
    );
  return { key, isNew: false };
}
