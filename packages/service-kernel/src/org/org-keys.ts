import { createHash, randomBytes } from 'node:crypto';

/** What every API key starts with: a scanner that finds one in a leak knows what it is. */
export const KEY_PREFIX = 'xbk_';

/** A new API key: the prefix, then 32 random bytes (256 bits) in base64url. */
export function newApiKey(): string {
  return `${KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
}

/** The hex SHA-256 of a key: what is kept and looked up; the key itself is never stored. */
export function keyDigest(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** A key as a list shows it: its prefix and last four characters. */
export function maskKey(key: string): string {
  return `${KEY_PREFIX}…${key.slice(-4)}`;
}
