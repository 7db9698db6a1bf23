import { startOnePasswordConnect } from '@x/testing';
import { useFakeService } from '@x/testing/vitest';
import { CredentialSchema } from '@x/types';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onlyJson, TRANSPORTS, xbAgainst } from '../test-support/run-xb.js';

const fake = useFakeService({ listen: true });
const PASSWORD = 'cli-credential-pw';

describe.each(TRANSPORTS)('credential commands (%s)', (_, overHttp) => {
  const { run } = xbAgainst(fake, overHttp);

  it('values and the TOTP secret from stdin, never printed; list, get, totp, update, delete', async () => {
    const name = `shop-${overHttp ? 'http' : 'direct'}`;
    const created = await run(
      ['credentials', 'create', '--name', name, '--domain', 'shop.example.com', '--values', '-'],
      { stdin: JSON.stringify({ username: 'agent', password: PASSWORD }) },
    );
    expect(created.stderr).toBe('');
    expect(created.stdout).toMatch(/^values +password, username$/m);
    expect(created.stdout).not.toContain(PASSWORD);
    const withTotp = await run(['credentials', 'update', name, '--totp-secret', '-', '--json'], {
      stdin: 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ\n',
    });
    const credential = v.parse(CredentialSchema, onlyJson(withTotp.stdout));
    expect(credential.has_totp_secret).toBe(true);
    expect(credential.totp_code).toMatch(/^\d{6}$/);
    expect(withTotp.stdout).not.toContain('GEZDGNBV');
    expect((await run(['credentials', 'totp', name])).stdout).toMatch(/^\d{6} +\(valid until /);
    expect((await run(['credentials', 'list', '--domain', 'shop.example.com'])).stdout).toMatch(
      new RegExp(
        `^ID +NAME +DOMAIN +VALUES +TOTP +UPDATED\\ncred_\\w+ +${name} +shop\\.example\\.com +yes +yes `,
      ),
    );
    const changed = await run([
      'credentials',
      'update',
      name,
      '--remove-value-keys',
      '["username"]',
      '--values',
      '{"email":"a@example.com"}',
    ]);
    expect(changed.stdout).toMatch(/^values +email, password$/m);
    const both = await run(['credentials', 'update', name, '--values', '-', '--totp-secret', '-']);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/Only one of --values and --totp-secret/);
    expect((await run(['credentials', 'delete', name])).stdout).toBe(
      `✓ Deleted credential ${name}.\n`,
    );
    expect((await run(['credentials', 'get', name])).code).not.toBe(0);
  });
});

const TOKEN = 'cli-connect-token';
let connect: Awaited<ReturnType<typeof startOnePasswordConnect>>;
beforeAll(async () => {
  connect = await startOnePasswordConnect({
    token: TOKEN,
    vaults: [
      {
        name: 'Agents',
        items: [{ title: 'Shop', urls: ['shop.example.com'], password: PASSWORD }],
      },
    ],
  });
});
afterAll(() => connect.close());

describe.each(TRANSPORTS)('credential provider commands (%s)', (_, overHttp) => {
  const { run } = xbAgainst(fake, overHttp);

  it('the token from stdin, never printed; test, items, update, delete', async () => {
    const name = `team-${overHttp ? 'http' : 'direct'}`;
    const created = await run(
      [
        'credential-providers',
        'create',
        '--name',
        name,
        '--provider-type',
        'onepassword',
        '--url',
        connect.url,
        '--provider-token',
        '-',
      ],
      { stdin: `${TOKEN}\n` },
    );
    expect(created.stderr).toBe('');
    expect(created.stdout).toMatch(/^enabled +yes$/m);
    expect(created.stdout).not.toContain(TOKEN);
    expect((await run(['credential-providers', 'test', name])).stdout).toBe(
      '✓ Reached; vaults: Agents\n',
    );
    expect((await run(['credential-providers', 'items', name])).stdout).toMatch(
      /^PATH +ID +SITES\nAgents\/Shop +\S+ +shop\.example\.com\n$/,
    );
    await run(['credential-providers', 'update', name, '--provider-token', '-'], {
      stdin: 'wrong\n',
    });
    const failed = await run(['credential-providers', 'test', name]);
    expect(failed.stdout).toMatch(/^✗ the provider did not accept the token \(401\)/);
    expect((await run(['credential-providers', 'list'])).stdout).toContain(name);
    expect((await run(['credential-providers', 'delete', name])).stdout).toBe(
      `✓ Deleted credential provider ${name}.\n`,
    );
  });
});
