import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { SecretBox } from '../engines.js';

/** Bytes of a secret box's key (AES-256). */
export const SECRET_KEY_BYTES = 32;

const VERSION = 'v1';

/**
 * Seals secrets with AES-256-GCM under `key`: `v1.<iv>.<tag>.<ciphertext>` (base64url). Without
 * the key a sealed value reveals nothing but its length; a changed one fails to open.
 */
export function aesSecretBox(key: Uint8Array): SecretBox {
  if (key.byteLength !== SECRET_KEY_BYTES)
    throw new RangeError(`A secret box key is ${SECRET_KEY_BYTES} bytes`);
  return {
    seal(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return [VERSION, iv, cipher.getAuthTag(), sealed]
        .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
        .join('.');
    },
    open(sealed) {
      const [version, iv, tag, data] = sealed.split('.');
      if (version !== VERSION || iv === undefined || tag === undefined || data === undefined)
        throw new Error('Not a sealed secret');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([
        decipher.update(Buffer.from(data, 'base64url')),
        decipher.final(),
      ]).toString('utf8');
    },
  };
}
