import type { Credential, TotpCode } from '@x/types';
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
