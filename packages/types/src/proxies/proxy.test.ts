import { safeParse } from 'valibot';
import { describe, expect, it } from 'vitest';
import { PoolProfileReferenceSchema } from '../browser-pools/pool-requests.js';
import { NamedListQuerySchema } from '../common/pages.js';
import { validationDetails } from '../errors/validation-details.js';
import { CreateProxyBodySchema, UpdateProxyBodySchema } from './proxy.js';

const messages = (result: ReturnType<typeof safeParse>) =>
  result.success ? [] : validationDetails(result.issues, 'body').map((detail) => detail.message);

describe('proxy requests', () => {
  it('takes a custom proxy, http by default', () => {
    const result = safeParse(CreateProxyBodySchema, {
      type: 'custom',
      config: { host: 'proxy.example.com', port: 3128, username: 'u', password: 'p' },
      bypass_hosts: ['localhost', '*.internal', '.corp', '10.0.0.1', '::1'],
    });
    expect(result.success && result.output.protocol).toBe('http');
  });

  it('refuses the kinds of proxy only a hosted service provides, saying why', () => {
    for (const type of ['datacenter', 'isp', 'residential', 'mobile']) {
      const result = safeParse(CreateProxyBodySchema, { type, config: { host: 'h', port: 1 } });
      expect(messages(result)).toEqual([
        expect.stringMatching(/^body\.type: .*proxies the operator provides/),
      ]);
    }
  });

  it('refuses hosts with a scheme or a port, bad ports, and separators in bypass hosts', () => {
    const bad = [
      { config: { host: 'http://proxy', port: 1 } },
      { config: { host: 'proxy:8080', port: 1 } },
      { config: { host: 'proxy', port: 0 } },
      { config: { host: 'proxy', port: 65_536 } },
      { config: { host: 'proxy', port: 1, username: 'a:b' } },
      { config: { host: 'proxy', port: 1, password: 'line\r\nbreak' } },
      { config: { host: 'proxy', port: 1 }, bypass_hosts: ['a.com;b.com'] },
      { config: { host: 'proxy', port: 1 }, bypass_hosts: Array(101).fill('a.com') },
    ];
    for (const body of bad)
      expect(safeParse(CreateProxyBodySchema, { type: 'custom', ...body }).success).toBe(false);
  });

  it('clears a username or password with null on update', () => {
    const result = safeParse(UpdateProxyBodySchema, { config: { password: null } });
    expect(result.success && result.output.config).toEqual({ password: null });
  });
});

describe('list queries and pool profiles', () => {
  it('reads offset and limit from a query string, bounded', () => {
    const parsed = safeParse(NamedListQuerySchema, { offset: '40', limit: '10' });
    expect(parsed.success && parsed.output).toEqual({ offset: 40, limit: 10 });
    expect(safeParse(NamedListQuerySchema, {}).output).toEqual({ offset: 0, limit: 20 });
    for (const query of [{ limit: '0' }, { limit: '101' }, { offset: '-1' }, { offset: '1e3' }])
      expect(safeParse(NamedListQuerySchema, query).success).toBe(false);
  });

  it("refuses save_changes in a pool's profile", () => {
    expect(safeParse(PoolProfileReferenceSchema, { name: 'p' }).success).toBe(true);
    expect(
      messages(safeParse(PoolProfileReferenceSchema, { name: 'p', save_changes: true })),
    ).toEqual([expect.stringContaining('save_changes must be false')]);
  });
});
