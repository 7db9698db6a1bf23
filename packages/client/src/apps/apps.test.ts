import { describe, expect, it } from 'vitest';
import { APPS_REGISTRY, defineApp, definedApps } from './index.js';

describe('defineApp', () => {
  it('keeps apps and their actions where the service looks for them, in order', async () => {
    const shop = defineApp('shop');
    const title = shop.action('title', async (context, payload?: { url: string }) => ({
      invocation: context.invocation_id,
      url: payload?.url,
    }));
    shop.action('count', () => 3);
    const registry = (globalThis as Record<symbol, unknown>)[Symbol.for('@x/client.apps')];
    expect(APPS_REGISTRY).toBe(Symbol.for('@x/client.apps'));
    expect(registry).toBeInstanceOf(Map);
    expect((registry as Map<string, unknown>).get('shop')).toBe(shop);
    expect([...shop.actions.keys()]).toEqual(['title', 'count']);
    expect(definedApps().map((app) => app.name)).toContain('shop');
    expect(await title({ invocation_id: 'inv_1' }, { url: 'https://example.com' })).toEqual({
      invocation: 'inv_1',
      url: 'https://example.com',
    });
  });

  it('refuses a name defined twice, an empty or long name, and an action that is not a function', () => {
    const app = defineApp('twice');
    expect(() => defineApp('twice')).toThrow('The app "twice" is defined twice.');
    app.action('one', () => 1);
    expect(() => app.action('one', () => 2)).toThrow('is defined twice');
    expect(() => defineApp('')).toThrow(TypeError);
    expect(() => defineApp('x'.repeat(256))).toThrow(TypeError);
    expect(() => app.action('two', 'not a function' as never)).toThrow(TypeError);
  });
});
