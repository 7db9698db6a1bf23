import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { promisify } from 'node:util';
import Kernel from '@onkernel/sdk';
import { type OnePasswordConnect, startOnePasswordConnect } from '@x/testing';
import pino from 'pino';
import { chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../server.js';
import {
  type LoginSites,
  SITE_EMAIL,
  SITE_PASSWORD,
  SITE_TOTP_SECRET,
  SITE_USER,
  startLoginSites,
} from '../test-support/login-sites.js';
import { TEST_ALLOW_NETWORKS, TEST_TOKEN, testConfig } from '../test-support/servers.js';
import { launchViewer } from '../test-support/viewer.js';

const run = promisify(execFile);

const CONNECT_TOKEN = 'connect-token-for-auth-tests';
let onePassword: OnePasswordConnect;
let sites: LoginSites;
let server: RunningServer;
let dataDir: string;
const logged: string[] = [];

beforeAll(async () => {
  sites = await startLoginSites();
  onePassword = await startOnePasswordConnect({
    token: CONNECT_TOKEN,
    vaults: [
      {
        name: 'Agents',
        items: [
          {
            title: 'Loopback',
            urls: ['http://127.0.0.1/'],
            username: SITE_USER,
            password: SITE_PASSWORD,
          },
        ],
      },
    ],
  });
  dataDir = mkdtempSync(join(tmpdir(), 'xb-auth-test-'));
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
      XB_PORT: '0',
      XB_TOKENS: TEST_TOKEN,
    }),
    pino({ level: 'trace' }, sink),
  );
}, 60_000);
afterAll(async () => {
  await server?.close();
  await sites?.close();
  await onePassword?.close();
});

const kernel = () => new Kernel({ apiKey: TEST_TOKEN, baseURL: server.url, maxRetries: 0 });

type State = { flow_status?: string | null; flow_step?: string | null; [key: string]: unknown };

/** The flow's state events, followed with the Kernel SDK until it ends or `until` says stop. */
async function follow(
  id: string,
  until: (event: State) => boolean = () => false,
): Promise<State[]> {
  const events: State[] = [];
  const stream = await kernel().auth.connections.follow(id);
  for await (const event of stream) {
    if (event.event !== 'managed_auth_state') continue;
    events.push(event as unknown as State);
    if (until(event as unknown as State)) {
      stream.controller.abort();
      break;
    }
  }
  return events;
}

const last = (events: State[]) => events.at(-1) as State;

/** Makes a credential and a connection for `site`, and starts its login. */
async function connect(
  site: string,
  values: Record<string, string>,
  extra: { totp_secret?: string } = {},
  key = site,
) {
  const sdk = kernel();
  const name = `${key}-login`;
  await sdk.credentials.create({ name, domain: '127.0.0.1', values, ...extra });
  const connection = await sdk.auth.connections.create({
    domain: '127.0.0.1',
    profile_name: `${key}-profile`,
    login_url: `${sites.origin}/${site}/login`,
    credential: { name },
  });
  const login = await sdk.auth.connections.login(connection.id);
  return { sdk, connection, login };
}

/**
 * What the server said of profiles, and its warnings and errors, lately: the message of a failed
 * `isSignedIn`, which tells a profile not saved from a cookie that was not kept.
 */
const profileLog = () =>
  `server log: ${logged
    .join('')
    .split('\n')
    .filter((line) => /profile|"level":(40|50)/.test(line))
    .slice(-15)
    .join('\n')}`;

/** Whether a browser made with the profile is signed in to the site. */
async function isSignedIn(profile: string, site: string): Promise<boolean> {
  const sdk = kernel();
  const browser = await sdk.browsers.create({ profile: { name: profile } });
  const cdp = await chromium.connectOverCDP(browser.cdp_ws_url);
  try {
    const page = cdp.contexts()[0]?.pages()[0] as Page;
    await page.goto(`${sites.origin}/${site}/account`);
    return (await page.locator('#who').count()) === 1;
  } finally {
    await cdp.close();
    await sdk.browsers.deleteByID(browser.session_id);
  }
}

describe('auth connections against login sites on loopback, driven by the Kernel SDK 0.84', () => {
  it('sign in with a username and a password, and a browser of the profile is signed in', async () => {
    const { sdk, connection, login } = await connect('simple', {
      username: SITE_USER,
      password: SITE_PASSWORD,
    });
    expect(login).toMatchObject({ id: connection.id, flow_type: 'LOGIN' });
    expect(login.hosted_url).toContain('/live?');
    const events = await follow(connection.id);
    expect(last(events)).toMatchObject({ flow_status: 'SUCCESS', flow_step: 'COMPLETED' });
    expect(events.map((event) => event.flow_step)).toContain('SUBMITTING');
    const after = await sdk.auth.connections.retrieve(connection.id);
    expect(after).toMatchObject({
      status: 'AUTHENTICATED',
      post_login_url: `${sites.origin}/simple/account`,
      can_reauth: true,
    });
    expect(await isSignedIn('simple-profile', 'simple'), profileLog()).toBe(true);
    const timeline = [];
    for await (const entry of sdk.auth.connections.timeline(connection.id)) timeline.push(entry);
    expect(timeline).toMatchObject([{ type: 'login', status: 'SUCCESS' }]);
  }, 90_000);

  it('follow an email, then a password on a second page', async () => {
    const { connection } = await connect('two-step', {
      email: SITE_EMAIL,
      password: SITE_PASSWORD,
    });
    expect(last(await follow(connection.id))).toMatchObject({ flow_status: 'SUCCESS' });
    expect(sites.posts.get('two-step')).toBe(2);
    expect(await isSignedIn('two-step-profile', 'two-step'), profileLog()).toBe(true);
  }, 90_000);

  it('fill a password, then a TOTP code generated from the secret', async () => {
    const { connection } = await connect(
      'totp',
      { username: SITE_USER, password: SITE_PASSWORD },
      { totp_secret: SITE_TOTP_SECRET },
    );
    expect(last(await follow(connection.id))).toMatchObject({ flow_status: 'SUCCESS' });
    expect(await isSignedIn('totp-profile', 'totp'), profileLog()).toBe(true);
  }, 90_000);

  it("fail with the site's message on a wrong password, without trying again", async () => {
    const before = sites.posts.get('simple') ?? 0;
    const { sdk, connection } = await connect(
      'simple',
      { username: SITE_USER, password: 'wrong' },
      {},
      'wrong',
    );
    const ended = last(await follow(connection.id));
    expect(ended).toMatchObject({
      flow_status: 'FAILED',
      error_code: 'credentials_invalid',
      website_error: 'Incorrect username or password.',
    });
    expect((sites.posts.get('simple') ?? 0) - before).toBeLessThanOrEqual(1);
    expect((await sdk.auth.connections.retrieve(connection.id)).status).toBe('NEEDS_AUTH');
  }, 90_000);

  it('ask for a field the credential lacks, and go on with what is submitted', async () => {
    const sdk = kernel();
    await sdk.credentials.create({
      name: 'partial',
      domain: '127.0.0.1',
      values: { username: SITE_USER },
    });
    const connection = await sdk.auth.connections.create({
      domain: '127.0.0.1',
      profile_name: 'asked-profile',
      login_url: `${sites.origin}/simple/login`,
      credential: { name: 'partial' },
    });
    await sdk.auth.connections.login(connection.id);
    const asked = last(
      await follow(connection.id, (event) => event.flow_step === 'AWAITING_INPUT'),
    );
    expect(asked.fields).toEqual([
      expect.objectContaining({ id: 'password', type: 'password', label: 'Password' }),
    ]);
    expect(
      await sdk.auth.connections.submit(connection.id, {
        field_values: { password: SITE_PASSWORD },
      }),
    ).toEqual({ accepted: true });
    expect(last(await follow(connection.id))).toMatchObject({ flow_status: 'SUCCESS' });
    expect(await isSignedIn('asked-profile', 'simple'), profileLog()).toBe(true);
    // What was typed is kept for the next sign-in (save_credentials).
    expect((await sdk.credentials.retrieve('partial')).value_keys).toEqual([
      'password',
      'username',
    ]);
  }, 90_000);

  it('hand a captcha to the live view; a person finishes it there and the flow goes on', async () => {
    const { connection } = await connect('captcha', { password: SITE_PASSWORD });
    const waiting = last(
      await follow(connection.id, (event) => event.flow_step === 'AWAITING_EXTERNAL_ACTION'),
    );
    expect(waiting.external_action_message).toMatch(/captcha/i);
    const viewer = await launchViewer();
    try {
      const view = await viewer.newPage();
      await view.goto(waiting.hosted_url as string);
      await view.waitForFunction(() => document.body.dataset.control === 'agent');
      await view.click('#control');
      await view.waitForFunction(() => document.body.dataset.control === 'you');
      // The person presses the focused "I am human" button: keys go through the view's keyboard.
      await view.focus('#keys');
      await view.keyboard.press('Enter');
      // The flow types nothing while the person holds control: they give it back.
      await view.click('#control');
      await view.waitForFunction(() => document.body.dataset.control === 'agent');
      expect(last(await follow(connection.id))).toMatchObject({ flow_status: 'SUCCESS' });
    } finally {
      await viewer.close();
    }
    expect(await isSignedIn('captcha-profile', 'captcha'), profileLog()).toBe(true);
  }, 90_000);

  it("sign in with a 1Password item read through the organization's provider, and record the flow", async () => {
    const sdk = kernel();
    await sdk.credentialProviders.create({
      name: 'vault',
      provider_type: 'onepassword',
      token: CONNECT_TOKEN,
      url: onePassword.url,
    } as never);
    const connection = await sdk.auth.connections.create({
      domain: '127.0.0.1',
      profile_name: 'vault-profile',
      login_url: `${sites.origin}/simple/login`,
      credential: { provider: 'vault', path: 'Agents/Loopback' },
      record_session: true,
    });
    await sdk.auth.connections.login(connection.id);
    expect(last(await follow(connection.id))).toMatchObject({ flow_status: 'SUCCESS' });
    expect(await isSignedIn('vault-profile', 'simple'), profileLog()).toBe(true);
    const after = await sdk.auth.connections.retrieve(connection.id);
    expect(after).toMatchObject({ can_reauth: true, can_reauth_reason: 'external_credential' });
    // The item's values were read, never kept: no credential was made from them.
    expect(
      (await sdk.credentials.list().then((page) => page.getPaginatedItems())).map((c) => c.name),
    ).not.toContain('vault-profile-127.0.0.1');
    const [entry] = await sdk.auth.connections
      .timeline(connection.id)
      .then((page) => page.getPaginatedItems());
    expect(entry?.replay_id).toMatch(/^rp_/);
    const video = await fetch(
      `${server.url}/browsers/${entry?.browser_session_id}/replays/${entry?.replay_id}`,
      { headers: { authorization: `Bearer ${TEST_TOKEN}` } },
    );
    expect(video.status).toBe(200);
    expect(video.headers.get('content-type')).toBe('video/mp4');
    await video.arrayBuffer();
  }, 90_000);

  it('health checks see a lost sign-in in real Chromium and sign in again with the credential', async () => {
    const [simple] = await kernel()
      .auth.connections.list({ profile_name: 'simple-profile' })
      .then((page) => page.getPaginatedItems());
    const id = simple?.id as string;
    expect((await server.model.auth.checkNow(id)).status).toBe('AUTHENTICATED');
    sites.forgetSessions();
    const checked = await server.model.auth.checkNow(id);
    expect(checked).toMatchObject({ status: 'NEEDS_AUTH', flow_type: 'REAUTH' });
    expect(last(await follow(id))).toMatchObject({ flow_status: 'SUCCESS', flow_type: 'REAUTH' });
    expect(await isSignedIn('simple-profile', 'simple'), profileLog()).toBe(true);
    const kinds = (
      await kernel()
        .auth.connections.timeline(id)
        .then((page) => page.getPaginatedItems())
    ).map((entry) => `${entry.type}:${entry.status}`);
    expect(kinds.slice(0, 3)).toEqual([
      'reauth:SUCCESS',
      'health_check:NEEDS_AUTH',
      'health_check:AUTHENTICATED',
    ]);
  }, 90_000);

  it('keep every secret out of answers, log lines, the data dir and command lines', async () => {
    const sdk = kernel();
    const answers = JSON.stringify([
      await sdk.auth.connections.list().then((page) => page.getPaginatedItems()),
      await sdk.credentials.list().then((page) => page.getPaginatedItems()),
    ]);
    const processes = await run('ps', ['-eo', 'args']);
    for (const secret of [SITE_PASSWORD, SITE_TOTP_SECRET]) {
      expect(answers).not.toContain(secret);
      expect(logged.join('')).not.toContain(secret);
      expect(processes.stdout).not.toContain(secret);
      const grep = await run('grep', ['-rlaF', secret, dataDir]).catch(
        (error: { stdout: string }) => error,
      );
      expect(grep.stdout, secret).toBe('');
    }
  });

  it('refuse a second connection of a profile and site, unknown ids, and a submit with nothing asked', async () => {
    const sdk = kernel();
    await expect(
      sdk.auth.connections.create({ domain: '127.0.0.1', profile_name: 'simple-profile' }),
    ).rejects.toMatchObject({ status: 409 });
    await expect(sdk.auth.connections.retrieve('auth_nope')).rejects.toMatchObject({ status: 404 });
    const [first] = await sdk.auth.connections
      .list({ profile_name: 'simple-profile' })
      .then((page) => page.getPaginatedItems());
    await expect(
      sdk.auth.connections.submit(first?.id as string, { field_values: { password: 'x' } }),
    ).rejects.toMatchObject({ status: 409 });
    await sdk.auth.connections.delete(first?.id as string);
    await expect(sdk.auth.connections.retrieve(first?.id as string)).rejects.toMatchObject({
      status: 404,
    });
  });

  it("types a credential's values on its own site only: a page that moves while typing gets none", async () => {
    const sdk = kernel();
    await sdk.credentials.create({
      name: 'moving-login',
      domain: '127.0.0.1',
      values: { username: SITE_USER, password: SITE_PASSWORD },
    });
    // A connection may not point a credential at a page of another site, by its domain or
    // its login page.
    for (const domain of ['localhost', '127.0.0.1'])
      await expect(
        sdk.auth.connections.create({
          domain,
          profile_name: 'thief-profile',
          login_url: `${sites.origin.replace('127.0.0.1', 'localhost')}/catch/login`,
          credential: { name: 'moving-login' },
        }),
      ).rejects.toMatchObject({ status: 400 });
    // The site's own page sends the browser elsewhere at the first key typed.
    const connection = await sdk.auth.connections.create({
      domain: '127.0.0.1',
      profile_name: 'moving-profile',
      login_url: `${sites.origin}/moving/login`,
      credential: { name: 'moving-login' },
    });
    await sdk.auth.connections.login(connection.id);
    expect(last(await follow(connection.id))).toMatchObject({
      flow_status: 'FAILED',
      error_message: expect.stringMatching(/left 127\.0\.0\.1 while the sign-in typed/),
    });
    // Whatever the look-alike page heard, the password is not in it.
    expect(sites.caught.join('')).not.toContain(SITE_PASSWORD.slice(0, 4));
    expect(sites.caught.join('')).not.toContain(SITE_USER);
  }, 90_000);

  it("keeps a provider's items and sign-in browsers from project keys", async () => {
    const call = (method: string, path: string, body?: unknown, token = TEST_TOKEN) =>
      fetch(`${server.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    const project = (await (await call('POST', '/org/projects', { name: 'tenant-b' })).json()) as {
      id: string;
    };
    const key = (
      (await (
        await call('POST', '/org/api_keys', { name: 'b', project_id: project.id })
      ).json()) as { key: string }
    ).key;
    await call('POST', '/org/credential_providers', {
      name: 'org-vault',
      provider_type: 'onepassword',
      token: CONNECT_TOKEN,
      url: onePassword.url,
    });
    // The vault's contents are the organization's: a project's key reads neither items nor vaults.
    const items = await call('GET', '/org/credential_providers/org-vault/items', undefined, key);
    expect(items.status).toBe(403);
    expect(JSON.stringify(await items.json())).not.toContain('Loopback');
    expect(
      (await call('POST', '/org/credential_providers/org-vault/test', undefined, key)).status,
    ).toBe(403);
    expect((await call('GET', '/org/credential_providers/org-vault/items')).status).toBe(200);
    // Nor may its connections sign in with an item, until the provider is opened to the project.
    const asB = {
      domain: '127.0.0.1',
      profile_name: 'b-profile',
      // A captcha holds the flow (and its browser) until a person passes it.
      login_url: `${sites.origin}/captcha/login`,
      credential: { provider: 'org-vault', path: 'Agents/Loopback' },
    };
    const refused = await call('POST', '/auth/connections', asB, key);
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { message: string }).message).toMatch(/allowed_projects/);
    // A key of the default project (an app deployed there holds one) is one project's key too.
    const home = (
      (await (
        await call('POST', '/org/api_keys', { name: 'home', project_id: 'default' })
      ).json()) as { key: string }
    ).key;
    const asHome = await call('POST', '/auth/connections', { ...asB, profile_name: 'h' }, home);
    expect(asHome.status).toBe(403);
    expect(((await asHome.json()) as { message: string }).message).toMatch(/allowed_projects/);
    const opened = await call('PATCH', '/org/credential_providers/org-vault', {
      allowed_projects: [project.id],
    });
    expect(await opened.json()).toMatchObject({ allowed_projects: [project.id] });
    const made = await call('POST', '/auth/connections', asB, key);
    expect(made.status).toBe(201);
    const { id } = (await made.json()) as { id: string };
    // While it signs in, its browser is nobody's: not listed, not reachable, its URLs open nothing.
    const before = (await (await call('GET', '/browsers', undefined, key)).json()) as unknown[];
    expect(before).toEqual([]);
    await call('POST', `/auth/connections/${id}/login`, {}, key);
    let browserId: string | undefined;
    for (let tries = 0; tries < 100 && browserId === undefined; tries++) {
      const timeline = (await (
        await call('GET', `/auth/connections/${id}/timeline`, undefined, key)
      ).json()) as { browser_session_id?: string }[];
      browserId = timeline[0]?.browser_session_id;
      if (browserId === undefined) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(browserId).toBeDefined();
    expect(await (await call('GET', '/browsers', undefined, key)).json()).toEqual([]);
    expect(await (await call('GET', '/browsers')).json()).toEqual([]);
    for (const [method, path] of [
      ['GET', `/browsers/${browserId}`],
      ['POST', `/browsers/${browserId}/computer/screenshot`],
      ['POST', `/browsers/${browserId}/process/exec`],
      ['POST', `/browsers/${browserId}/playwright/execute`],
    ] as const) {
      const answer = await call(
        method,
        path,
        method === 'GET' ? undefined : { command: 'id', code: '1' },
        key,
      );
      expect({ path, status: answer.status }).toEqual({ path, status: 404 });
      // Not the organization's either: nobody's.
      const asOrg = await call(
        method,
        path,
        method === 'GET' ? undefined : { command: 'id', code: '1' },
      );
      expect({ path, status: asOrg.status }).toEqual({ path, status: 404 });
    }
    // Its DevTools URL, had a caller kept it, opens nothing.
    const cdpUrl = server.org.findBrowser(browserId as string)?.entry.record.cdp_ws_url as string;
    expect(cdpUrl).toMatch(/^ws/);
    await expect(chromium.connectOverCDP(cdpUrl, { timeout: 10_000 })).rejects.toThrow();
    // A caller may not mark a browser of its own as a sign-in's.
    expect(
      (await call('POST', '/browsers', { tags: { 'xb-auth-connection': id } }, key)).status,
    ).toBe(400);
    expect((await call('DELETE', `/auth/connections/${id}`, undefined, key)).status).toBe(204);
  }, 90_000);
});
