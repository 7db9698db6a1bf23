import { createHmac, randomBytes } from 'node:crypto';
import { closeSync, linkSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
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
    // Written whole, then linked into place: nodes sharing one key file that start together
    // never read a half-written one, and all but the first take the first one's key.
    const temporary = `${path}.${process.pid}.${randomBytes(4).toString('hex')}`;
    const file = openSync(temporary, 'wx', 0o600);
    try {
      writeSync(file, `${key.toString('base64')}\n`);
    } finally {
      closeSync(file);
    }
    try {
      linkSync(temporary, path);
    } catch (linkError) {
      const code = (linkError as NodeJS.ErrnoException).code;
      if (code === 'EEXIST')
        return { key: parseKey(path, readFileSync(path, 'utf8')), isNew: false };
      if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP') throw linkError;
      // A file system without hard links: made in place, as before (only one start may race).
      const file = openSync(path, 'wx', 0o600);
      try {
        writeSync(file, `${key.toString('base64')}\n`);
      } finally {
        closeSync(file);
      }
    } finally {
      rmSync(temporary, { force: true });
    }
    return { key, isNew: true };
  }
  return { key: parseKey(path, text), isNew: false };
}

function parseKey(path: string, text: string): Uint8Array {
  const key = Buffer.from(text.trim(), 'base64');
  if (key.byteLength !== SECRET_KEY_BYTES)
    throw new Error(
      `${path} must hold a ${SECRET_KEY_BYTES}-byte key in base64 (XB_SECRET_KEY_FILE)`,
    );
  return key;
}

/**
 * A fingerprint of a sealing key that tells keys apart and reveals nothing of them (an HMAC of a
 * fixed text under the key): what cluster nodes compare through their database.
 */
export function keyFingerprint(key: Uint8Array): string {
  return createHmac('sha256', key).update('xb-server sealing key fingerprint v1').digest('hex');
}
