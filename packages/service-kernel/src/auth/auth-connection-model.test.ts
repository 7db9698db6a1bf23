import { type AuthEvent, DEFAULT_PROJECT_ID } from '@x/types';
import { describe, expect, it, vi } from 'vitest';
import type { ProviderClient } from '../credentials/provider-client.js';
import { base32Bytes, totpCode } from '../credentials/totp.js';
import { Organization } from '../org/organization.js';
import { createMemoryAuditStore } from '../records/memory-audit-store.js';
import { createMemoryRecordStores, MemoryRecordTable } from '../records/memory-record-store.js';
import {
  bankCredential,
  connection,
  follow,
  ORIGIN,
  SECRET,
  steps,
} from '../test-support/auth-connections.js';
import { keyOf, OPERATOR } from '../test-support/callers.js';
import { BROWSER, memoryEngines, orgSettings, testModel } from '../test-support/memory-engines.js';

describe('auth connections', () => {
  it('are made with their profile, unique per profile and site, listed, changed and deleted', async () => {
    const test = testModel();
    const made = await connection(test);
    expect(made).toMatchObject({
      status: 'NEEDS_AUTH',
      save_credentials: true,
      health_checks: true,
      health_check_interval: 3600,
      can_reauth: false,
      can_reauth_reason: 'no_credential',
    });
    expect((await test.model.profiles.find('agent')).name).toBe('agent');
    await expect(connection(test)).rejects.toMatchObject({ status: 409 });
    await connection(test, { domain: 'mail.example.com' });
    const page = await test.model.auth.list({ offset: 0, limit: 10, domain: 'mail.example.com' });
    expect(page.items.map((item) => item.domain)).toEqual(['mail.example.com']);
    const changed = await test.model.auth.update(made.id, {
      login_url: 'https://shop.example.com/login',
      credential: { name: 'shop' },
    });
    expect(changed).toMatchObject({
      login_url: 'https://shop.example.com/login',
      credential: { name: 'shop' },
      can_reauth_reason: 'no_prior_successful_login',
    });
    expect((await test.model.auth.update(made.id, { login_url: '' })).login_url).toBeUndefined();
    await test.model.auth.delete(made.id);
    await expect(test.model.auth.get(made.id)).rejects.toMatchObject({ status: 404 });
  });

  it('sign in with a credential: filled, sent, the profile saved, the browser gone', async () => {
    const test = testModel();
    await test.model.credentials.create({
      name: 'shop',
      domain: 'shop.example.com',
      values: { username: 'agent', password: 'right' },
    });
    const made = await connection(test, { credential: { name: 'shop' } });
    const login = await test.model.auth.login(made.id, undefined, ORIGIN);
    expect(login.flow_type).toBe('LOGIN');
    expect(login.hosted_url).toMatch(/\/live\?/);
    const events = await follow(test, made.id);
    expect(steps(events).at(-1)).toBe('SUCCESS/COMPLETED');
    expect(steps(events)).toContain('IN_PROGRESS/SUBMITTING');
    expect(test.signIn.sent).toEqual([
      { host: 'shop.example.com', values: { username: 'agent', password: 'right' } },
    ]);
    const after = await test.model.auth.get(made.id);
    expect(after).toMatchObject({
      status: 'AUTHENTICATED',
      flow_status: 'SUCCESS',
      post_login_url: 'https://shop.example.com/account',
      can_reauth: true,
      can_reauth_reason: 'has_credential',
    });
    expect(test.model.browsers.count()).toBe(0);
    const timeline = await test.model.auth.timeline(made.id, { offset: 0, limit: 10 });
    expect(timeline.items).toMatchObject([{ type: 'login', status: 'SUCCESS', step: 'COMPLETED' }]);
  });

  it('ask for what the credential lacks, take it by submit, and keep it (never a code)', async () => {
    const test = testModel();
    const made = await connection(test);
    await test.model.auth.login(made.id, undefined, ORIGIN);
    const asked = await follow(
      test,
      made.id,
      (event) => 'flow_step' in event && event.flow_step === 'AWAITING_INPUT',
    );
    const waiting = asked.at(-1) as Extract<AuthEvent, { event: 'managed_auth_state' }>;
    expect(waiting.fields?.map((field) => [field.id, field.type])).toEqual([
      ['username', 'identifier'],
      ['password', 'password'],
    ]);
    await expect(
      test.model.auth.submit(made.id, { field_values: { nope: 'x' } }),
    ).rejects.toMatchObject({
      status: 400,
    });
    expect(
      await test.model.auth.submit(made.id, { field_values: { username: 'a', password: 'typed' } }),
    ).toEqual({ accepted: true });
    expect(steps(await follow(test, made.id)).at(-1)).toBe('SUCCESS/COMPLETED');
    const after = await test.model.auth.get(made.id);
    expect(after.credential).toEqual({ name: 'agent-shop.example.com' });
    expect(await test.model.credentials.openForSignIn('agent-shop.example.com')).toMatchObject({
      values: { username: 'a', password: 'typed' },
    });
    await expect(
      test.model.auth.submit(made.id, { field_values: { password: 'x' } }),
    ).rejects.toMatchObject({
      status: 409,
    });
  });

  it("fail with the site's message on a wrong password, and never send it twice", async () => {
    const test = testModel();
    await test.model.credentials.create({
      name: 'shop',
      domain: 'shop.example.com',
      values: { username: 'agent', password: 'wrong-password' },
    });
    const made = await connection(test, { credential: { name: 'shop' } });
    await test.model.auth.login(made.id, undefined, ORIGIN);
    const last = (await follow(test, made.id)).at(-1);
    expect(last).toMatchObject({
      flow_status: 'FAILED',
      error_code: 'credentials_invalid',
      website_error: 'Incorrect username or password.',
    });
    expect(test.signIn.sent).toHaveLength(1);
    expect(await test.model.auth.get(made.id)).toMatchObject({
      status: 'NEEDS_AUTH',
      flow_status: 'FAILED',
    });
    expect(test.model.browsers.count()).toBe(0);
  });

  it('fill a TOTP code from the secret on a second page', async () => {
    const test = testModel();
    test.signIn.site('shop.example.com', {
      steps: [
        { fields: [{ name: 'email', kind: 'identifier', inputType: 'email' }] },
        { fields: [{ name: 'password', kind: 'password' }] },
        { fields: [{ name: 'otp', kind: 'code' }] },
      ],
    });
    await test.model.credentials.create({
      name: 'shop',
      domain: 'shop.example.com',
      values: { email: 'a@example.com', password: 'p' },
      totp_secret: SECRET,
    });
    const made = await connection(test, { credential: { name: 'shop' } });
    await test.model.auth.login(made.id, undefined, ORIGIN);
    expect(steps(await follow(test, made.id)).at(-1)).toBe('SUCCESS/COMPLETED');
    const expected = totpCode(base32Bytes(SECRET), new Date('2026-11-22T10:00:00.000Z')).code;
    expect(test.signIn.sent.map((sent) => sent.values)).toEqual([
      { email: 'a@example.com' },
      { password: 'p' },
      { otp: expected },
    ]);
  });

  it('fill nothing on a site the connection does not name: an identity provider is handed to a person', async () => {
    const test = testModel();
    test.signIn.site('shop.example.com', {
      steps: [
        {
          fields: [{ name: 'email', kind: 'identifier', inputType: 'email' }],
          goesTo: 'accounts.google.com',
        },
      ],
    });
    await test.model.credentials.create({
      name: 'shop',
      domain: 'shop.example.com',
      values: { email: 'a@example.com', password: 'shop-secret' },
    });
    const made = await connection(test, { credential: { name: 'shop' } });
    await test.model.auth.login(made.id, undefined, ORIGIN);
    const events = await follow(
      test,
      made.id,
      (event) => 'flow_step' in event && event.flow_step === 'AWAITING_EXTERNAL_ACTION',
    );
    expect(events.at(-1)).toMatchObject({
      external_action_message: expect.stringContaining('accounts.google.com, an identity provider'),
    });
    expect(test.signIn.sent).toEqual([
      { host: 'shop.example.com', values: { email: 'a@example.com' } },
    ]);
    await test.model.auth.delete(made.id);
  });

  it('hand a step only a person can do to the live view, and go on once it is done', async () => {
    const test = testModel();
    test.signIn.site('shop.example.com', {
      steps: [
        { fields: [], blocker: 'A captcha is shown' },
        { fields: [{ name: 'password', kind: 'password' }] },
      ],
    });
    await test.model.credentials.create({
      name: 'shop',
      domain: 'shop.example.com',
      values: { password: 'p' },
    });
    const made = await connection(test, { credential: { name: 'shop' } });
    await test.model.auth.login(made.id, undefined, ORIGIN);
    const events = await follow(
      test,
      made.id,
      (event) => 'flow_step' in event && event.flow_step === 'AWAITING_EXTERNAL_ACTION',
    );
    expect(events.at(-1)).toMatchObject({
      external_action_message: expect.stringContaining('A captcha is shown'),
      hosted_url: expect.stringContaining('/live?'),
    });
    test.signIn.solve('shop.example.com');
    expect(steps(await follow(test, made.id)).at(-1)).toBe('SUCCESS/COMPLETED');
  });

  it('health checks find a lost sign-in and sign in again when they can', async () => {
    const test = testModel();
    await test.model.credentials.create({
      name: 'shop',
      domain: 'shop.example.com',
      values: { username: 'agent', password: 'right' },
    });
    const made = await connection(test, { credential: { name: 'shop' } });
    await test.model.auth.login(made.id, undefined, ORIGIN);
    await follow(test, made.id);
    expect((await test.model.auth.checkNow(made.id)).status).toBe('AUTHENTICATED');
    test.signIn.signOut('shop.example.com');
    const checked = await test.model.auth.checkNow(made.id);
    expect(checked).toMatchObject({ status: 'NEEDS_AUTH', flow_type: 'REAUTH' });
    expect(steps(await follow(test, made.id)).at(-1)).toBe('SUCCESS/COMPLETED');
    expect((await test.model.auth.get(made.id)).status).toBe('AUTHENTICATED');
    const timeline = await test.model.auth.timeline(made.id, { offset: 0, limit: 10 });
    expect(timeline.items.map((entry) => [entry.type, entry.status])).toEqual([
      ['reauth', 'SUCCESS'],
      ['health_check', 'NEEDS_AUTH'],
      ['health_check', 'AUTHENTICATED'],
      ['login', 'SUCCESS'],
    ]);
    // Without auto_reauth a lost sign-in stays lost.
    await test.model.auth.update(made.id, { auto_reauth: false });
    test.signIn.signOut('shop.example.com');
    expect(await test.model.auth.checkNow(made.id)).toMatchObject({
      status: 'NEEDS_AUTH',
      flow_status: 'SUCCESS',
    });
    expect(test.model.browsers.count()).toBe(0);
  });

  it('a read that began while the flow ran and ends after it answers the flow as it ended', async () => {
    const test = testModel();
    const made = await connection(test);
    await test.model.auth.login(made.id, undefined, ORIGIN);
    await follow(
      test,
      made.id,
      (event) => 'flow_step' in event && event.flow_step === 'AWAITING_INPUT',
    );
    // Store reads that return after the flow ended (as a database's may), with what they read
    // before: the record without the flow's end.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let isHolding = true;
    let heldReads = 0;
    const read = MemoryRecordTable.prototype.get;
    const slow = vi.spyOn(MemoryRecordTable.prototype, 'get').mockImplementation(async function (
      this: MemoryRecordTable<unknown>,
      id,
      parent,
    ) {
      const isHeld = isHolding && id === made.id;
      if (isHeld) heldReads++;
      const before = await read.call(this, id, parent);
      if (isHeld) await held;
      return before;
    });
    const reading = test.model.auth.get(made.id);
    const following = follow(test, made.id);
    await vi.waitFor(() => expect(heldReads).toBe(2));
    isHolding = false;
    await test.model.auth.submit(made.id, { field_values: { username: 'a', password: 'typed' } });
    expect(steps(await follow(test, made.id)).at(-1)).toBe('SUCCESS/COMPLETED');
    await vi.waitFor(async () =>
      expect((await test.model.auth.get(made.id)).status).toBe('AUTHENTICATED'),
    );
    await new Promise((resolve) => setTimeout(resolve, 10));
    release();
    expect(await reading).toMatchObject({ status: 'AUTHENTICATED', flow_status: 'SUCCESS' });
    expect(steps(await following)).toEqual(['SUCCESS/COMPLETED']);
    slow.mockRestore();
  });

  it('a deleted connection cancels the flow that waits, and its browser ends', async () => {
    const test = testModel();
    const made = await connection(test);
    await test.model.auth.login(made.id, undefined, ORIGIN);
    const stop = new AbortController();
    const events = test.model.auth.events(made.id, stop.signal);
    for await (const event of events)
      if ('flow_step' in event && event.flow_step === 'AWAITING_INPUT') break;
    const rest = follow(test, made.id);
    await test.model.auth.delete(made.id);
    expect(steps(await rest).at(-1)).toBe('CANCELED/AWAITING_INPUT');
    await expect(test.model.auth.get(made.id)).rejects.toMatchObject({ status: 404 });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(test.model.browsers.count()).toBe(0);
  });

  it('expire a flow nobody answers in 10 minutes, and end its browser', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const test = testModel();
      const made = await connection(test);
      await test.model.auth.login(made.id, undefined, ORIGIN);
      const events: AuthEvent[] = [];
      const following = (async () => {
        for await (const event of test.model.auth.events(made.id, new AbortController().signal))
          events.push(event);
      })();
      await vi.advanceTimersByTimeAsync(1000);
      expect(steps(events).at(-1)).toBe('IN_PROGRESS/AWAITING_INPUT');
      await vi.advanceTimersByTimeAsync(10 * 60_000);
      await following;
      expect(events.at(-1)).toMatchObject({ flow_status: 'EXPIRED', error_code: 'expired' });
      expect(await test.model.auth.get(made.id)).toMatchObject({ flow_status: 'EXPIRED' });
      expect(test.model.browsers.count()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it("refuse a connection whose sites are not its credential's, at create and at change", async () => {
    const test = testModel();
    await bankCredential(test);
    const refused = { status: 400, message: expect.stringMatching(/"bank" is for bank\.example/) };
    await expect(
      connection(test, { domain: 'evil.example', credential: { name: 'bank' } }),
    ).rejects.toMatchObject(refused);
    await expect(
      connection(test, {
        domain: 'bank.example',
        login_url: 'https://evil.example/login',
        credential: { name: 'bank' },
      }),
    ).rejects.toMatchObject(refused);
    const own = await connection(test, {
      domain: 'login.bank.example',
      login_url: 'https://login.bank.example/start',
      credential: { name: 'bank' },
    });
    await expect(
      test.model.auth.update(own.id, { login_url: 'https://evil.example/' }),
    ).rejects.toMatchObject(refused);
    const other = await connection(test, { domain: 'evil.example' });
    await expect(
      test.model.auth.update(other.id, { credential: { name: 'bank' } }),
    ).rejects.toMatchObject(refused);
    expect((await test.model.auth.get(other.id)).credential).toBeUndefined();
  });

  it("type a credential's values on its own domain only, checked again before each value", async () => {
    const test = testModel();
    await bankCredential(test);
    // The sign-in goes on at another site the connection allows: the credential is not typed there.
    test.signIn.site('bank.example', {
      steps: [
        {
          fields: [{ name: 'username', kind: 'identifier' }],
          goesTo: 'sso.example',
        },
      ],
    });
    const made = await connection(test, {
      domain: 'bank.example',
      allowed_domains: ['sso.example'],
      credential: { name: 'bank' },
    });
    await test.model.auth.login(made.id, undefined, ORIGIN);
    const asked = await follow(
      test,
      made.id,
      (event) => 'flow_step' in event && event.flow_step === 'AWAITING_INPUT',
    );
    expect(steps(asked).at(-1)).toBe('IN_PROGRESS/AWAITING_INPUT');
    expect(test.signIn.sent).toEqual([{ host: 'bank.example', values: { username: 'agent' } }]);
    await test.model.auth.delete(made.id);

    // A credential that names its identity provider is typed at that provider's sign-in too.
    const sso = testModel();
    await bankCredential(sso, { sso_provider: 'google' });
    sso.signIn.site('bank.example', {
      steps: [
        { fields: [{ name: 'username', kind: 'identifier' }], goesTo: 'accounts.google.com' },
      ],
    });
    const viaGoogle = await connection(sso, {
      domain: 'bank.example',
      allowed_domains: ['accounts.google.com'],
      credential: { name: 'bank' },
    });
    await sso.model.auth.login(viaGoogle.id, undefined, ORIGIN);
    expect(steps(await follow(sso, viaGoogle.id)).at(-1)).toBe('SUCCESS/COMPLETED');
    expect(sso.signIn.sent.map((sent) => sent.host)).toEqual([
      'bank.example',
      'accounts.google.com',
    ]);

    // A page that moves to another site while values are typed gets nothing more.
    const moving = testModel();
    await bankCredential(moving);
    moving.signIn.site('bank.example', {
      steps: [
        {
          fields: [
            { name: 'username', kind: 'identifier' },
            { name: 'password', kind: 'password' },
          ],
          movesWhileTyped: 'evil.example',
        },
      ],
    });
    const moved = await connection(moving, {
      domain: 'bank.example',
      credential: { name: 'bank' },
    });
    await moving.model.auth.login(moved.id, undefined, ORIGIN);
    const events = await follow(moving, moved.id);
    expect(events.at(-1)).toMatchObject({
      flow_status: 'FAILED',
      error_message: expect.stringMatching(/left bank\.example while the sign-in typed/),
    });
    expect(moving.signIn.sent).toEqual([{ host: 'bank.example', values: { username: 'agent' } }]);
  });

  it("sign in with a provider's item only for a project it is opened to, or a connection an organization-wide key set up", async () => {
    // One vault with one login for bank.example, as 1Password Connect answers it.
    const connect: ProviderClient = {
      get: async (url) => {
        const path = new URL(url).pathname;
        if (path === '/v1/vaults') return { status: 200, json: [{ id: 'v1', name: 'Agents' }] };
        if (path === '/v1/vaults/v1/items')
          return {
            status: 200,
            json: [
              {
                id: 'i1',
                title: 'Bank',
                category: 'LOGIN',
                urls: [{ href: 'https://bank.example/' }],
              },
            ],
          };
        if (path === '/v1/vaults/v1/items/i1')
          return {
            status: 200,
            json: {
              fields: [
                { purpose: 'USERNAME', value: 'agent' },
                { purpose: 'PASSWORD', value: 'vault-secret' },
              ],
            },
          };
        return { status: 404, json: { message: 'no such path' } };
      },
    };
    const parts = memoryEngines();
    const org = new Organization({
      engines: { ...parts.engines, providers: connect },
      stores: createMemoryRecordStores(),
      audit: createMemoryAuditStore(),
      settings: orgSettings(4),
    });
    await org.providers.create({
      name: 'org-vault',
      provider_type: 'onepassword',
      token: 'connect-token',
      url: 'https://connect.example',
      cache_ttl_seconds: 0,
      enabled: true,
      priority: 0,
      allowed_projects: [],
    });
    parts.signIn.site('bank.example', {
      steps: [
        {
          fields: [
            { name: 'username', kind: 'identifier' },
            { name: 'password', kind: 'password' },
          ],
        },
      ],
    });
    const operator = OPERATOR;
    // A key of the default project, as an app deployed there is given: one project's key.
    const homeKey = keyOf(DEFAULT_PROJECT_ID);
    const home = org.model(DEFAULT_PROJECT_ID);
    const body = (profile: string) =>
      ({
        domain: 'bank.example',
        profile_name: profile,
        credential: { provider: 'org-vault', path: 'Agents/Bank' },
      }) as never;
    const refused = { status: 403, message: expect.stringMatching(/allowed_projects/) };
    await expect(home.auth.create(body('app'), ORIGIN, homeKey)).rejects.toMatchObject(refused);

    // An organization-wide key sets it up: its sign-ins read the item, whoever starts them, and
    // the project's key may change its settings but not where it signs in.
    const granted = await home.auth.create(body('agent'), ORIGIN, operator);
    await home.auth.update(granted.id, { health_checks: false }, homeKey);
    await home.auth.login(granted.id, undefined, ORIGIN);
    const asHome = { model: home } as ReturnType<typeof testModel>;
    expect(steps(await follow(asHome, granted.id)).at(-1)).toBe('SUCCESS/COMPLETED');
    expect(parts.signIn.sent).toEqual([
      { host: 'bank.example', values: { username: 'agent', password: 'vault-secret' } },
    ]);
    await expect(
      home.auth.update(granted.id, { login_url: 'https://bank.example/other' }, homeKey),
    ).rejects.toMatchObject(refused);

    // Opened to the default project, its keys may; closed again, their connection signs in no more.
    await org.providers.update('org-vault', { allowed_projects: [DEFAULT_PROJECT_ID] });
    const own = await home.auth.create(body('app'), ORIGIN, homeKey);
    await org.providers.update('org-vault', { allowed_projects: [] });
    await expect(home.auth.login(own.id, undefined, ORIGIN)).rejects.toMatchObject(refused);
    expect(parts.signIn.sent).toHaveLength(1);
    await org.close();
  });

  it('keep sign-in browsers from every list and lookup while they type', async () => {
    const test = testModel();
    const mine = await test.model.browsers.create({ ...BROWSER }, ORIGIN);
    const made = await connection(test);
    const login = await test.model.auth.login(made.id, undefined, ORIGIN);
    await follow(
      test,
      made.id,
      (event) => 'flow_step' in event && event.flow_step === 'AWAITING_INPUT',
    );
    const flowBrowser = (await test.model.auth.timeline(made.id, { offset: 0, limit: 1 })).items[0]
      ?.browser_session_id as string;
    expect(flowBrowser).toBeDefined();
    expect(login.hosted_url).toBeDefined();
    expect(test.model.browsers.list().map((record) => record.session_id)).toEqual([
      mine.record.session_id,
    ]);
    const page = await test.model.browsers.page({ offset: 0, limit: 10, status: 'all' });
    expect(page.items.map((record) => record.session_id)).toEqual([mine.record.session_id]);
    await expect(test.model.browsers.get(flowBrowser)).rejects.toMatchObject({ status: 404 });
    await test.model.auth.delete(made.id);
    await new Promise((resolve) => setTimeout(resolve, 50));
    // Ended, its record may be read (its replay is the connection's), and it is still not listed.
    expect((await test.model.browsers.get(flowBrowser)).deleted_at).toBeDefined();
    const ended = await test.model.browsers.page({ offset: 0, limit: 10, status: 'all' });
    expect(ended.items.map((record) => record.session_id)).toEqual([mine.record.session_id]);
  });
});
