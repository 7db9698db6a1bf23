import type { BrowserProxy } from '@x/types';
import { type ContractCheck, defineChecks } from './check.js';
import { type ContractContext, expect } from './context.js';
import { createBrowser, uniqueName } from './resources.js';

const PASSWORD = 'contract-secret-pw';

/** Creates a proxy to a closed port of loopback for a check; it is deleted afterwards. */
async function createProxy(context: ContractContext, config: Record<string, unknown> = {}) {
  const answer = await context.call('POST', '/proxies', {
    json: {
      type: 'custom',
      name: uniqueName('px'),
      config: { host: '127.0.0.1', port: 9, username: 'agent', password: PASSWORD, ...config },
      bypass_hosts: ['localhost'],
    },
  });
  const proxy = context.expectSuccess<BrowserProxy>(answer, 'proxies.create', 201);
  expect(!answer.text.includes(PASSWORD), 'the create answer holds the password');
  context.defer(() => context.call('DELETE', `/proxies/${proxy.id}?force=true`));
  return proxy;
}

/** Proxies: records without passwords, in-use conflicts, checks. */
export const proxyChecks: readonly ContractCheck[] = defineChecks('proxies', {
  'a proxy never shows its password, and changes field by field': async (context) => {
    const proxy = await createProxy(context);
    expect(
      proxy.type === 'custom' &&
        proxy.protocol === 'http' &&
        proxy.config.has_password &&
        proxy.config.username === 'agent',
      `the new proxy reads ${JSON.stringify(proxy)}`,
    );
    const listed = await context.call('GET', '/proxies?limit=100');
    context.expectSuccess(listed, 'proxies.list', 200);
    const got = await context.call('GET', `/proxies/${proxy.id}`);
    context.expectSuccess(got, 'proxies.get', 200);
    expect(
      !listed.text.includes(PASSWORD) && !got.text.includes(PASSWORD),
      'a read shows the password',
    );
    const changed = context.expectSuccess<BrowserProxy>(
      await context.call('PATCH', `/proxies/${proxy.id}`, {
        json: { config: { port: 10, password: null } },
      }),
      'proxies.update',
      200,
    );
    expect(
      changed.config.port === 10 &&
        !changed.config.has_password &&
        changed.config.host === '127.0.0.1',
      `after the change: ${JSON.stringify(changed.config)}`,
    );
  },
  'the kinds of proxy only a hosted service has are 400, saying why': async (context) => {
    const answer = await context.call('POST', '/proxies', {
      json: { type: 'residential', config: { host: 'h', port: 1 } },
    });
    context.expectError(answer, 400, 'bad_request');
    expect(answer.text.includes('operator provides'), `the 400 says ${answer.text}`);
  },
  'a proxy browsers use is 409 to delete unless forced; an unknown one is 404': async (context) => {
    const proxy = await createProxy(context);
    const browser = await createBrowser(context, { proxy_id: proxy.id });
    expect(browser.proxy_id === proxy.id, `the session shows proxy_id ${browser.proxy_id}`);
    context.expectError(await context.call('DELETE', `/proxies/${proxy.id}`), 409, 'conflict');
    context.expectSuccess(
      await context.call('DELETE', `/proxies/${proxy.id}?force=true`),
      'proxies.delete',
      204,
    );
    context.expectError(await context.call('GET', `/proxies/${proxy.id}`), 404, 'not_found');
    context.expectError(
      await context.call('POST', '/browsers', { json: { proxy_id: proxy.id } }),
      404,
      'not_found',
    );
  },
  'a running browser switches proxy by update; "" goes direct; an unknown proxy is 404 and changes nothing':
    async (context) => {
      const proxy = await createProxy(context);
      const browser = await createBrowser(context);
      const path = `/browsers/${browser.session_id}`;
      const switched = context.expectSuccess<{ proxy_id?: string }>(
        await context.call('PATCH', path, { json: { proxy_id: proxy.id } }),
        'browsers.update',
        200,
      );
      expect(switched.proxy_id === proxy.id, `after the switch proxy_id is ${switched.proxy_id}`);
      // In use now: deleting it is 409.
      context.expectError(await context.call('DELETE', `/proxies/${proxy.id}`), 409, 'conflict');
      context.expectError(
        await context.call('PATCH', path, { json: { proxy_id: 'prx_nothere', tags: { a: 'b' } } }),
        404,
        'not_found',
      );
      const unchanged = context.expectSuccess<{ proxy_id?: string; tags?: unknown }>(
        await context.call('GET', path),
        'browsers.get',
        200,
      );
      expect(
        unchanged.proxy_id === proxy.id && unchanged.tags === undefined,
        `a refused update changed ${JSON.stringify(unchanged)}`,
      );
      const direct = context.expectSuccess<{ proxy_id?: string }>(
        await context.call('PATCH', path, { json: { proxy_id: '' } }),
        'browsers.update',
        200,
      );
      expect(direct.proxy_id === undefined, `after "" proxy_id is ${direct.proxy_id}`);
      context.expectSuccess(
        await context.call('DELETE', `/proxies/${proxy.id}`),
        'proxies.delete',
        204,
      );
    },
  'a check records a status and when, and an exit address only when available': async (context) => {
    const proxy = await createProxy(context);
    const checked = context.expectSuccess<BrowserProxy>(
      await context.call('POST', `/proxies/${proxy.id}/check`),
      'proxies.check',
      200,
    );
    expect(
      checked.last_checked !== undefined &&
        (checked.status === 'available') === (checked.ip_address !== undefined),
      `the check gave ${JSON.stringify(checked)}`,
    );
    const got = context.expectSuccess<BrowserProxy>(
      await context.call('GET', `/proxies/${proxy.id}`),
      'proxies.get',
      200,
    );
    expect(got.status === checked.status, 'the check is not kept on the proxy');
  },
});
