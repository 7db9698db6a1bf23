import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { promisify } from 'node:util';
import Kernel from '@onkernel/sdk';
import { type OnePasswordConnect, startOnePasswordConnect } from '@x/testing';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../server.js';
import { siteTotp } from '../test-support/login-sites.js';
import { TEST_ALLOW_NETWORKS, TEST_TOKEN, testConfig } from '../test-support/servers.js';

const run = promisify(execFile);
const PASSWORD = 'cred-pw-Yk37-never-shown';
const EMAIL = 'agent-7f3@example.com';
/** "12345678901234567890" in base32, as a site shows it: lower case, in groups. */
const TOTP_SECRET = 'gezd gnbv gy3t qojq gezd gnbv gy3t qojq';
const TOTP_PLAIN = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';

const CONNECT_TOKEN = 'connect-token-Qm82-never-shown';
let connect: OnePasswordConnect;
let server: RunningServer;
let dataDir: string;
/** Every line the server logged, at every level. */
const logged: string[] = [];

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'xb-credentials-test-'));
  connect = await startOnePasswordConnect({
    token: CONNECT_TOKEN,
    vaults: [
      {
        name: 'Agents',
        items: [
          {
            title: 'Shop',
            urls: ['https://shop.example.com/'],
            username: 'agent',
            password: PASSWORD,
            totpSecret: TOTP_PLAIN,
          },
        ],
      },
    ],
  });
  const sink = new Writable({
    write(chunk, _encoding, done) {
      logged.push(String(chunk));
      done();
    },
  });
  server = await startServer(
    testConfig({
      XB_ALLOW_NETWORKS: TEST_ALLOW_NETWORKS,
      XB_DATA_DIR: dataDir,
      XB_ONEPASSWORD_CONNECT_URL: connect.url,
      XB_PORT: '0',
      XB_TOKENS: TEST_TOKEN,
    }),
    pino({ level: 'trace' }, sink),
  );
});
afterAll(async () => {
  await server?.close();
  await connect?.close();
});

const kernel = () => new Kernel({ apiKey: TEST_TOKEN, baseURL: server.url, maxRetries: 0 });

describe('credentials, driven by the Kernel SDK 0.84', () => {
  it('are stored, found, listed, merged, answer TOTP codes, and are deleted', async () => {
    const sdk = kernel();
    const created = await sdk.credentials.create({
      name: 'shop-login',
      domain: 'Shop.Example.com',
      values: { email: EMAIL, password: PASSWORD },
      totp_secret: TOTP_SECRET,
    });
    expect(created).toMatchObject({
      name: 'shop-login',
      domain: 'shop.example.com',
      has_values: true,
      has_totp_secret: true,
      value_keys: ['email', 'password'],
    });
    expect(created.totp_code).toMatch(/^\d{6}$/);
    const retrieved = await sdk.credentials.retrieve('shop-login');
    expect(retrieved.id).toBe(created.id);
    expect(retrieved.totp_code).toBeUndefined();

    await sdk.credentials.create({ name: 'other', domain: 'other.example.com', values: {} });
    const names: string[] = [];
    for await (const credential of sdk.credentials.list({ limit: 1 })) names.push(credential.name);
    expect(names).toEqual(['shop-login', 'other']);
    const bySite = [];
    for await (const credential of sdk.credentials.list({ domain: 'shop.example.com' }))
      bySite.push(credential.id);
    expect(bySite).toEqual([created.id]);

    const updated = await sdk.credentials.update('shop-login', {
      values: { username: 'agent' },
      remove_value_keys: ['email'],
      sso_provider: 'google',
    });
    expect(updated).toMatchObject({ value_keys: ['password', 'username'], sso_provider: 'google' });
    expect(updated.totp_code).toBeUndefined();
    const cleared = await sdk.credentials.update(created.id, { sso_provider: null });
    expect(cleared.sso_provider).toBeUndefined();

    const before = Date.now();
    const { code, expires_at } = await sdk.credentials.totpCode('shop-login');
    const after = Date.now();
    expect([siteTotp(before), siteTotp(after)]).toContain(code);
    expect(Date.parse(expires_at) % 30_000).toBe(0);
    expect(Date.parse(expires_at)).toBeGreaterThan(before);

    await expect(
      sdk.credentials.create({ name: 'shop-login', domain: 'x.example.com', values: {} }),
    ).rejects.toMatchObject({ status: 409 });
    await sdk.credentials.delete('shop-login');
    await expect(sdk.credentials.retrieve(created.id)).rejects.toMatchObject({ status: 404 });
    await expect(sdk.credentials.totpCode(created.id)).rejects.toMatchObject({ status: 404 });
    await sdk.credentials.delete('other');
  });

  it('keep their secrets out of every answer, log line, file of the data dir and the audit log', async () => {
    const sdk = kernel();
    const made = await sdk.credentials.create({
      name: 'sealed',
      domain: 'sealed.example.com',
      values: { email: EMAIL, password: PASSWORD },
      totp_secret: TOTP_SECRET,
    });
    await sdk.credentials.update('sealed', { values: { password: `${PASSWORD}-2` } });
    const answers = JSON.stringify([
      made,
      await sdk.credentials.retrieve('sealed'),
      await sdk.credentials.list().then((page) => page.getPaginatedItems()),
    ]);
    for (const secret of [PASSWORD, EMAIL, TOTP_PLAIN, 'gezd gnbv']) {
      expect(answers).not.toContain(secret);
      expect(logged.join('')).not.toContain(secret);
      const grep = await run('grep', ['-rlaiF', secret, dataDir]).catch(
        (error: { stdout: string }) => error,
      );
      expect(grep.stdout, secret).toBe('');
    }
    // On SQLite the records are files of the data dir: the grep above reads them (it finds the record).
    if (process.env.XB_TEST_STORE !== 'postgresql') {
      const found = await run('grep', ['-rlaF', 'sealed.example.com', dataDir]);
      expect(found.stdout).not.toBe('');
    }
    // The audit log keeps who wrote what, never the body.
    const window = new URLSearchParams({
      start: new Date(Date.now() - 60 * 60_000).toISOString(),
      end: new Date(Date.now() + 60_000).toISOString(),
      limit: '100',
    });
    const audit = await fetch(`${server.url}/audit-logs?${window}`, {
      headers: { authorization: `Bearer ${TEST_TOKEN}` },
    });
    expect(audit.status).toBe(200);
    const auditText = await audit.text();
    expect(auditText).toContain('/credentials');
    for (const secret of [PASSWORD, EMAIL, TOTP_PLAIN]) expect(auditText).not.toContain(secret);
    // The server's log said something about these calls (so its silence on secrets means something).
    expect(logged.some((line) => line.includes('/credentials'))).toBe(true);
    await sdk.credentials.delete('sealed');
  });

  it('without a TOTP secret, answer 409 for a code, saying how to set one', async () => {
    const sdk = kernel();
    await sdk.credentials.create({ name: 'no-totp', domain: 'a.example.com', values: {} });
    await expect(sdk.credentials.totpCode('no-totp')).rejects.toMatchObject({
      status: 409,
      message: expect.stringContaining('totp_secret'),
    });
    await sdk.credentials.delete('no-totp');
  });
});

describe('credential providers, driven by the Kernel SDK 0.84', () => {
  it("reach the operator's 1Password Connect server, list its items, never show the token", async () => {
    const sdk = kernel();
    // The SDK names no address: the provider gets XB_ONEPASSWORD_CONNECT_URL.
    const made = await sdk.credentialProviders.create({
      name: 'team-1p',
      provider_type: 'onepassword',
      token: CONNECT_TOKEN,
    });
    expect(made).toMatchObject({ name: 'team-1p', enabled: true, priority: 0 });
    const tested = await sdk.credentialProviders.test(made.id);
    expect(tested).toMatchObject({ success: true, vaults: [{ name: 'Agents' }] });
    const { items } = await sdk.credentialProviders.listItems(made.id);
    expect(items).toEqual([
      expect.objectContaining({ path: 'Agents/Shop', urls: ['https://shop.example.com/'] }),
    ]);
    const renamed = await sdk.credentialProviders.update(made.id, { name: 'ops-1p', priority: 2 });
    expect(renamed).toMatchObject({ name: 'ops-1p', priority: 2 });
    const listed = [];
    for await (const provider of sdk.credentialProviders.list()) listed.push(provider.name);
    expect(listed).toEqual(['ops-1p']);
    expect(connect.requests.every((request) => request.isAuthorized)).toBe(true);
    const answers = JSON.stringify([made, tested, items, renamed]);
    for (const secret of [CONNECT_TOKEN, PASSWORD, TOTP_PLAIN]) {
      expect(answers).not.toContain(secret);
      expect(logged.join('')).not.toContain(secret);
      const grep = await run('grep', ['-rlaF', secret, dataDir]).catch(
        (error: { stdout: string }) => error,
      );
      expect(grep.stdout, secret).toBe('');
    }
    await sdk.credentialProviders.delete(made.id);
    await expect(sdk.credentialProviders.retrieve(made.id)).rejects.toMatchObject({ status: 404 });
  });

  it('reach no address the egress policy keeps sessions from', async () => {
    const sdk = kernel();
    for (const url of ['http://10.20.30.40:8080', 'http://169.254.169.254', 'http://127.0.0.2:9']) {
      const response = await fetch(`${server.url}/org/credential_providers`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TEST_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'inside', provider_type: 'onepassword', token: 't', url }),
      });
      expect(response.status).toBe(201);
      const { id } = (await response.json()) as { id: string };
      const tested = await sdk.credentialProviders.test(id);
      expect(tested.success).toBe(false);
      expect(tested.error).toContain('egress policy');
      await expect(sdk.credentialProviders.listItems(id)).rejects.toMatchObject({ status: 502 });
      await sdk.credentialProviders.delete(id);
    }
  });
});
