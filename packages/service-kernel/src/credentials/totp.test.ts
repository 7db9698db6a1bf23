import { describe, expect, it } from 'vitest';
import { base32Bytes, totpCode } from './totp.js';

describe('TOTP codes (RFC 6238)', () => {
  // RFC 6238 appendix B, SHA-1 with the secret "12345678901234567890": the last 6 of its 8 digits.
  const secret = Buffer.from('12345678901234567890');
  it.each([
    [59, '287082'],
    [1111111109, '081804'],
    [1111111111, '050471'],
    [1234567890, '005924'],
    [2000000000, '279037'],
    [20000000000, '353130'],
  ])('at %i s is %s', (seconds, code) => {
    expect(totpCode(secret, new Date(seconds * 1000)).code).toBe(code);
  });

  it('expires at the end of its 30-second step', () => {
    expect(totpCode(secret, new Date(59_000)).expiresAt.toISOString()).toBe(
      '1970-01-01T00:01:00.000Z',
    );
    expect(totpCode(secret, new Date(60_000)).expiresAt.toISOString()).toBe(
      '1970-01-01T00:01:30.000Z',
    );
  });

  it('reads base32 secrets as authenticator apps show them', () => {
    // "12345678901234567890" in base32.
    expect(base32Bytes('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ').toString()).toBe('12345678901234567890');
    expect(() => base32Bytes('not base32!')).toThrow(RangeError);
  });
});
