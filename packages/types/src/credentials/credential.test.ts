import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { CreateCredentialBodySchema, UpdateCredentialBodySchema } from './credential.js';

const base = { name: 'shop', domain: 'Shop.Example.COM', values: { password: 'p' } };

describe('credential bodies', () => {
  it('keep the domain lower-case and a TOTP secret as base32 without spaces or padding', () => {
    const body = v.parse(CreateCredentialBodySchema, {
      ...base,
      totp_secret: 'gezd gnbv gy3t qojq gezd gnbv gy3t qojq====',
    });
    expect(body.domain).toBe('shop.example.com');
    expect(body.totp_secret).toBe('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ');
    expect(v.parse(CreateCredentialBodySchema, { ...base, domain: '*.example.com' }).domain).toBe(
      '*.example.com',
    );
  });

  it('refuse what is not a host, a value name, base32, or within the bounds', () => {
    for (const body of [
      { ...base, domain: 'https://example.com/login' },
      { ...base, values: { 'two words': 'x' } },
      { ...base, values: { a: 'x'.repeat(4097) } },
      { ...base, values: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'x'])) },
      { ...base, totp_secret: 'GEZDGNBVGY3TQOJ1' },
      { ...base, totp_secret: 'GEZDGNBV' },
      { ...base, extra: true },
    ]) {
      expect(
        v.safeParse(CreateCredentialBodySchema, body).success,
        JSON.stringify(body).slice(0, 80),
      ).toBe(false);
    }
  });

  it('take "" to remove a TOTP secret and null to clear the SSO provider', () => {
    expect(v.parse(UpdateCredentialBodySchema, { totp_secret: '', sso_provider: null })).toEqual({
      totp_secret: '',
      sso_provider: null,
    });
  });
});
