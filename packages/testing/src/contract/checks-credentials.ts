import type {
  Credential,
  CredentialProvider,
  CredentialProviderItems,
  CredentialProviderTestResult,
  TotpCode,
} from '@x/types';
import { startOnePasswordConnect } from '../fixtures/onepassword-connect.js';
import { type ContractCheck, defineChecks } from './check.js';
import { type ContractContext, expect } from './context.js';
import { uniqueName } from './resources.js';

const PASSWORD = 'contract-credential-pw';
/** "12345678901234567890" in base32, with spaces as sites show it. */
const TOTP_SECRET = 'gezd gnbv gy3t qojq gezd gnbv gy3t qojq';

/** Creates a credential for a check; it is deleted afterwards. */
async function createCredential(context: ContractContext, body: Record<string, unknown> = {}) {
  const answer = await context.call('POST', '/credentials', {
    json: {
      name: uniqueName('cred'),
      domain: 'Login.Example.com',
      values: { username: 'agent', password: PASSWORD },
      ...body,
    },
  });
  const credential = context.expectSuccess<Credential>(answer, 'credentials.create', 201);
  expect(!answer.text.includes(PASSWORD), 'the create answer holds a value');
  context.defer(() => context.call('DELETE', `/credentials/${credential.id}`));
  return { credential, text: answer.text };
}

/** Credentials: write-only values and secrets, merged changes, TOTP codes. */
export const credentialChecks: readonly ContractCheck[] = defineChecks('credentials', {
  'a credential never shows its values, only their names': async (context) => {
    const { credential } = await createCredential(context);
    expect(
      credential.domain === 'login.example.com' &&
        credential.has_values === true &&
        credential.has_totp_secret === false &&
        JSON.stringify(credential.value_keys) === '["password","username"]',
      `the new credential reads ${JSON.stringify(credential)}`,
    );
    const got = await context.call('GET', `/credentials/${credential.name}`);
    context.expectSuccess<Credential>(got, 'credentials.get', 200);
    const listed = await context.call(
      'GET',
      `/credentials?domain=login.example.com&query=${credential.name}`,
    );
    const page = context.expectSuccess<Credential[]>(listed, 'credentials.list', 200);
    expect(
      page.length === 1 && page[0]?.id === credential.id && page[0]?.value_keys === undefined,
      `the list reads ${listed.text}`,
    );
    expect(!got.text.includes(PASSWORD) && !listed.text.includes(PASSWORD), 'a read shows a value');
  },
  'values merge on update, removals first; names stay unique': async (context) => {
    const { credential } = await createCredential(context);
    const changed = context.expectSuccess<Credential>(
      await context.call('PATCH', `/credentials/${credential.id}`, {
        json: { values: { email: 'a@example.com' }, remove_value_keys: ['username'] },
      }),
      'credentials.update',
      200,
    );
    expect(
      JSON.stringify(changed.value_keys) === '["email","password"]',
      `after the change: ${JSON.stringify(changed.value_keys)}`,
    );
    const { credential: other } = await createCredential(context);
    context.expectError(
      await context.call('PATCH', `/credentials/${other.id}`, { json: { name: credential.name } }),
      409,
      'conflict',
    );
    context.expectError(
      await context.call('POST', '/credentials', {
        json: { name: credential.name, domain: 'example.com', values: {} },
      }),
      409,
      'conflict',
    );
  },
  'a TOTP secret answers RFC 6238 codes, shown once when set, never the secret': async (
    context,
  ) => {
    const { credential, text } = await createCredential(context, { totp_secret: TOTP_SECRET });
    expect(
      credential.has_totp_secret === true && /^\d{6}$/.test(credential.totp_code ?? ''),
      `the create answer reads ${text}`,
    );
    expect(!text.toLowerCase().includes('gezdgnbv'), 'the create answer holds the secret');
    const code = context.expectSuccess<TotpCode>(
      await context.call('GET', `/credentials/${credential.id}/totp-code`),
      'credentials.totpCode',
      200,
    );
    expect(
      /^\d{6}$/.test(code.code) && Date.parse(code.expires_at) > Date.now() - 1000,
      `the code reads ${JSON.stringify(code)}`,
    );
    const got = context.expectSuccess<Credential>(
      await context.call('GET', `/credentials/${credential.id}`),
      'credentials.get',
      200,
    );
    expect(got.totp_code === undefined, 'a read shows a TOTP code');
    // A code opens the account: a read-only token reads the record, never a code.
    const token = context.target.readOnlyToken;
    context.expectSuccess(
      await context.call('GET', `/credentials/${credential.id}`, { token }),
      'credentials.get',
      200,
    );
    context.expectError(
      await context.call('GET', `/credentials/${credential.id}/totp-code`, { token }),
      403,
      'forbidden',
    );
    const removed = context.expectSuccess<Credential>(
      await context.call('PATCH', `/credentials/${credential.id}`, { json: { totp_secret: '' } }),
      'credentials.update',
      200,
    );
    expect(removed.has_totp_secret === false, 'the secret stays after "" removed it');
    context.expectError(
      await context.call('GET', `/credentials/${credential.id}/totp-code`),
      409,
      'conflict',
    );
  },
  'bad values are 400 naming the field; unknown credentials 404; deleted ones gone': async (
    context,
  ) => {
    for (const json of [
      { name: 'x', domain: 'not a host', values: {} },
      { name: 'x', domain: 'example.com', values: { 'bad key!': 'v' } },
      { name: 'x', domain: 'example.com', values: {}, totp_secret: 'not-base32!' },
      { name: 'x', domain: 'example.com', values: { a: 'x'.repeat(5000) } },
    ]) {
      context.expectError(await context.call('POST', '/credentials', { json }), 400, 'bad_request');
    }
    context.expectError(await context.call('GET', '/credentials/cred_nope'), 404, 'not_found');
    const { credential } = await createCredential(context);
    context.expectSuccess(
      await context.call('DELETE', `/credentials/${credential.name}`),
      'credentials.delete',
      204,
    );
    context.expectError(
      await context.call('GET', `/credentials/${credential.id}`),
      404,
      'not_found',
    );
  },
});

const CONNECT_TOKEN = 'contract-connect-token';

/**
 * Serves a 1Password Connect server on loopback for a check (the service must reach 127.0.0.1:
 * the server's XB_ALLOW_NETWORKS) and adds a provider for it; both go afterwards.
 */
async function createProvider(context: ContractContext, token = CONNECT_TOKEN) {
  const connect = await startOnePasswordConnect({
    token: CONNECT_TOKEN,
    vaults: [
      {
        name: 'Agents',
        items: [
          {
            title: 'Shop',
            urls: ['https://shop.example.com/login'],
            username: 'agent',
            password: PASSWORD,
          },
          { title: 'Notes', category: 'SECURE_NOTE', fields: { text: 'not a login' } },
        ],
      },
      { name: 'Team', items: [{ title: 'Mail', urls: ['*.mail.example.com'], username: 'a' }] },
    ],
  });
  context.defer(() => connect.close());
  const answer = await context.call('POST', '/org/credential_providers', {
    json: { name: uniqueName('1p'), provider_type: 'onepassword', token, url: `${connect.url}/` },
  });
  const provider = context.expectSuccess<CredentialProvider>(
    answer,
    'credentialProviders.create',
    201,
  );
  expect(!answer.text.includes(token), 'the create answer holds the token');
  context.defer(() => context.call('DELETE', `/org/credential_providers/${provider.id}`));
  return { provider, connect };
}

/** Credential providers: 1Password Connect, its token write-only. */
export const credentialProviderChecks: readonly ContractCheck[] = defineChecks(
  'credential providers',
  {
    'a provider is tested and lists its login items, never its token': async (context) => {
      const { provider, connect } = await createProvider(context);
      expect(
        provider.provider_type === 'onepassword' &&
          provider.enabled &&
          provider.priority === 0 &&
          provider.cache_ttl_seconds === 300 &&
          provider.url === connect.url,
        `the new provider reads ${JSON.stringify(provider)}`,
      );
      const tested = context.expectSuccess<CredentialProviderTestResult>(
        await context.call('POST', `/org/credential_providers/${provider.name}/test`),
        'credentialProviders.test',
        200,
      );
      expect(
        tested.success &&
          JSON.stringify(tested.vaults.map((vault) => vault.name)) === '["Agents","Team"]',
        `the test reads ${JSON.stringify(tested)}`,
      );
      const listed = await context.call('GET', `/org/credential_providers/${provider.id}/items`);
      const { items } = context.expectSuccess<CredentialProviderItems>(
        listed,
        'credentialProviders.items',
        200,
      );
      expect(
        JSON.stringify(items.map((item) => [item.path, item.urls])) ===
          '[["Agents/Shop",["https://shop.example.com/login"]],["Team/Mail",["*.mail.example.com"]]]',
        `the items read ${listed.text}`,
      );
      expect(!listed.text.includes(PASSWORD), 'the items show a value');
      expect(
        connect.requests.every((request) => request.isAuthorized),
        'the service did not send the token',
      );
      const page = context.expectSuccess<CredentialProvider[]>(
        await context.call('GET', `/org/credential_providers?query=${provider.name}`),
        'credentialProviders.list',
        200,
      );
      expect(page.length === 1 && page[0]?.id === provider.id, 'the list misses the provider');
      // Items show what a vault holds: a read-only token sees the record, not the items.
      const token = context.target.readOnlyToken;
      context.expectSuccess(
        await context.call('GET', `/org/credential_providers/${provider.id}`, { token }),
        'credentialProviders.get',
        200,
      );
      context.expectError(
        await context.call('GET', `/org/credential_providers/${provider.id}/items`, { token }),
        403,
        'forbidden',
      );
    },
    'a token the provider refuses fails the test and the items; rotating it mends both': async (
      context,
    ) => {
      const { provider } = await createProvider(context, 'a-wrong-token');
      const tested = context.expectSuccess<CredentialProviderTestResult>(
        await context.call('POST', `/org/credential_providers/${provider.id}/test`),
        'credentialProviders.test',
        200,
      );
      expect(
        !tested.success && tested.vaults.length === 0 && /401/.test(tested.error ?? ''),
        `the test reads ${JSON.stringify(tested)}`,
      );
      context.expectError(
        await context.call('GET', `/org/credential_providers/${provider.id}/items`),
        502,
        'bad_gateway',
      );
      const rotated = context.expectSuccess<CredentialProvider>(
        await context.call('PATCH', `/org/credential_providers/${provider.id}`, {
          json: { token: CONNECT_TOKEN, priority: 5, enabled: false },
        }),
        'credentialProviders.update',
        200,
      );
      expect(
        rotated.priority === 5 && !rotated.enabled,
        `the change reads ${JSON.stringify(rotated)}`,
      );
      const again = context.expectSuccess<CredentialProviderTestResult>(
        await context.call('POST', `/org/credential_providers/${provider.id}/test`),
        'credentialProviders.test',
        200,
      );
      expect(again.success, `after the rotation the test reads ${JSON.stringify(again)}`);
    },
    'bad providers are 400, taken names 409, unknown ones 404, deleted ones gone': async (
      context,
    ) => {
      for (const json of [
        { name: 'p', provider_type: 'bitwarden', token: 't', url: 'http://127.0.0.1:1' },
        { name: 'p', provider_type: 'onepassword', token: '', url: 'http://127.0.0.1:1' },
        { name: 'p', provider_type: 'onepassword', token: 't', url: 'ftp://127.0.0.1/' },
        { name: 'p', provider_type: 'onepassword', token: 't', url: 'http://u:p@127.0.0.1/' },
        { name: 'p', provider_type: 'onepassword', token: 't', cache_ttl_seconds: -1 },
      ]) {
        context.expectError(
          await context.call('POST', '/org/credential_providers', { json }),
          400,
          'bad_request',
        );
      }
      const { provider } = await createProvider(context);
      context.expectError(
        await context.call('POST', '/org/credential_providers', {
          json: {
            name: provider.name,
            provider_type: 'onepassword',
            token: 't',
            url: 'http://127.0.0.1:1',
          },
        }),
        409,
        'conflict',
      );
      context.expectError(
        await context.call('GET', '/org/credential_providers/cp_nope'),
        404,
        'not_found',
      );
      context.expectSuccess(
        await context.call('DELETE', `/org/credential_providers/${provider.name}`),
        'credentialProviders.delete',
        204,
      );
      context.expectError(
        await context.call('POST', `/org/credential_providers/${provider.id}/test`),
        404,
        'not_found',
      );
    },
  },
);
