import { createHmac } from 'node:crypto';

/** Seconds each code of RFC 6238's default is valid for. */
export const TOTP_STEP_SECONDS = 30;

/** Digits of a code. */
const DIGITS = 6;

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** The bytes of a base32 text (RFC 4648, upper case, no padding; the schema normalised it). */
export function base32Bytes(text: string): Buffer {
  const bytes: number[] = [];
  let bits = 0;
  let value = 0;
  for (const character of text) {
    const index = BASE32.indexOf(character);
    if (index === -1) throw new RangeError('not base32');
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      bytes.push((value >>> bits) & 0xff);
    }
  }
  return Buffer.from(bytes);
}

/**
 * The TOTP code (RFC 6238: HMAC-SHA-1, 30-second steps from the Unix epoch, 6 digits, as every
 * authenticator app computes by default) of `secret` (raw bytes) at `at`, and when it expires.
 */
export function totpCode(secret: Uint8Array, at: Date): { code: string; expiresAt: Date } {
  const seconds = Math.floor(at.getTime() / 1000);
  const step = Math.floor(seconds / TOTP_STEP_SECONDS);
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(step));
  const digest = createHmac('sha1', secret).update(counter).digest();
  const offset = (digest[digest.length - 1] as number) & 0x0f;
  const binary = digest.readUInt32BE(offset) & 0x7fffffff;
  return {
    code: String(binary % 10 ** DIGITS).padStart(DIGITS, '0'),
    expiresAt: new Date((step + 1) * TOTP_STEP_SECONDS * 1000),
  };
}
