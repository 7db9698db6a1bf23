import type {
  ApiKey,
  AuditLogEntry,
  BrowserPool,
  BrowserSession,
  CreatedApiKey,
  Invocation,
  Profile,
  Project,
} from '@x/types';
import { describe, expect, it } from 'vitest';
import { deployTestApp, TEST_TOKEN, useTestServer } from '../test-support/servers.js';

const test = useTestServer({ XB_MAX_BROWSERS: '6' });

/** Every write this file made with a credential the server knew, as the audit log should have it. */
const writes: { method: string; path: string; status: number }[] = [];
/** Every key and token this file held: none may appear in the audit log. */
const secrets = new Set([TEST_TOKEN]);

interface Answer<T> {
  readonly status: number;
  readonly json: T;
  readonly headers: Headers;
}

/** When each token's last refused call that the audit log shows was made. */
const lastRefused = new Map<string, number>();

/** Calls the API as `token` (the operator's by default), in `project` when given. */
async function call<T>(
  method: string,
  path: string,
  options: { body?: unknown; token?: string; project?: string } = {},
): Promise<Answer<T>> {
  const headers: Record<string, string> = {
    authorization: `Bearer ${options.token ?? TEST_TOKEN}`,
  };
  if (options.project !== undefined) headers['x-kernel-project-id'] = options.project;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${test.server.url}${path}`, {
    method,
    headers,
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });
  const text = await response.text();
  // A key's refused calls are audited once a minute, counted: the first of the minute is seen.
  const token = options.token ?? TEST_TOKEN;
  const isRefusedWrite = method !== 'GET' && response.status === 403;
  const isCounted = isRefusedWrite && Date.now() - (lastRefused.get(token) ?? 0) < 60_000;
  if (isRefusedWrite && !isCounted) lastRefused.set(token, Date.now());
  if (method !== 'GET' && response.status !== 401 && !isCounted)
    writes.push({ method, path: new URL(path, 'http://x').pathname, status: response.status });
  return {
    status: response.status,
    json: (text ? JSON.parse(text) : undefined) as T,
    headers: response.headers,
  };
}

const started = new Date(Date.now() - 1000).toISOString();
let a: Project;
let b: Project;

describe('projects', () => {
  it('are made, listed, found by id or name, renamed; names are unique', async () => {
    a = (await call<Project>('POST', '/org/projects', { body: { name: 'alpha' } })).json;
    b = (await call<Project>('POST', '/org/projects', { body: { name: 'beta' } })).json;
    expect(a).toMatchObject({ name: 'alpha', status: 'active' });
    expect((await call('POST', '/org/projects', { body: { name: 'alpha' } })).status).toBe(409);
    const list = await call<Project[]>('GET', '/org/projects');
    expect(list.json.map((project) => project.name)).toEqual(['default', 'alpha', 'beta']);
    expect((await call<Project>('GET', '/org/projects/beta')).json.id).toBe(b.id);
    expect((await call<Project>('GET', `/org/projects/${a.id}`)).json.name).toBe('alpha');
    const renamed = await call<Project>('PATCH', '/org/projects/beta', { body: { name: 'bravo' } });
    expect(renamed.json).toMatchObject({ id: b.id, name: 'bravo' });
    b = renamed.json;
    expect((await call('GET', '/org/projects/nothing')).status).toBe(404);
  });

  it('wall their resources off: what A holds is not found from B, and names repeat', async () => {
    const inA = await call<BrowserSession>('POST', '/browsers', {
      body: { headless: true },
      project: a.id,
    });
    expect(inA.status).toBe(201);
    const id = inA.json.session_id;
    // B, by id or by name of the project, sees nothing of it.
    for (const project of [b.id, 'bravo']) {
      const listed = await call<BrowserSession[]>('GET', '/browsers', { project });
      expect(listed.json.map((session) => session.session_id)).not.toContain(id);
      expect((await call('GET', `/browsers/${id}`, { project })).status).toBe(404);
      expect((await call('POST', `/browsers/${id}/live_view`, { project })).status).toBe(404);
      expect(
        (await call('GET', `/browsers/${id}/fs/list_files?path=/home/browser`, { project })).status,
      ).toBe(404);
      expect((await call('DELETE', `/browsers/${id}`, { project })).status).toBe(404);
    }
    // The default project (no header) does not see it either; A does, with its CDP URL.
    expect((await call('GET', `/browsers/${id}`)).status).toBe(404);
    const found = await call<BrowserSession>('GET', `/browsers/${id}`, { project: 'alpha' });
    expect(found.json.cdp_ws_url).toContain(id);
    expect((await call('POST', `/browsers/${id}/live_view`, { project: a.id })).status).toBe(201);

    // The same names in both projects.
    for (const project of [a.id, b.id]) {
      const profile = await call<Profile>('POST', '/profiles', {
        body: { name: 'login' },
        project,
      });
      expect(profile.status).toBe(201);
      const pool = await call<BrowserPool>('POST', '/browser_pools', {
        body: { name: 'warm', size: 1 },
        project,
      });
      expect(pool.status).toBe(201);
    }
    const poolOfA = (await call<BrowserPool>('GET', '/browser_pools/warm', { project: a.id })).json;
    expect((await call('GET', `/browser_pools/${poolOfA.id}`, { project: b.id })).status).toBe(404);
    const acquired = await call<BrowserSession>('POST', '/browser_pools/warm/acquire', {
      body: {},
      project: b.id,
    });
    expect(acquired.status).toBe(200);
    expect(
      (await call('GET', `/browsers/${acquired.json.session_id}`, { project: a.id })).status,
    ).toBe(404);
    expect(
      (
        await call('POST', '/browser_pools/warm/release', {
          body: { session_id: acquired.json.session_id },
          project: b.id,
        })
      ).status,
    ).toBe(204);
    expect((await call('DELETE', `/browsers/${id}`, { project: a.id })).status).toBe(204);
  });

  it('answer 404 for an unknown or archived project, 400 for a header that is no name', async () => {
    expect((await call('GET', '/browsers', { project: 'nowhere' })).status).toBe(404);
    const archived = (await call<Project>('POST', '/org/projects', { body: { name: 'old' } })).json;
    await call('PATCH', '/org/projects/old', { body: { status: 'archived' } });
    expect((await call('GET', '/browsers', { project: archived.id })).status).toBe(404);
    expect((await call('GET', '/browsers', { project: 'a/b' })).status).toBe(400);
    expect((await call('DELETE', '/org/projects/old')).status).toBe(204);
  });

  it('are deleted only when empty; the default one never', async () => {
    const held = await call<{ message: string }>('DELETE', `/org/projects/${b.id}`);
    expect(held.status).toBe(409);
    expect(held.json.message).toMatch(/pools|profiles/);
    expect((await call('DELETE', '/org/projects/default')).status).toBe(409);
    expect(
      (await call('PATCH', '/org/projects/default', { body: { status: 'archived' } })).status,
    ).toBe(409);
    const empty = (await call<Project>('POST', '/org/projects', { body: { name: 'empty' } })).json;
    const key = (
      await call<CreatedApiKey>('POST', '/org/api_keys', {
        body: { name: 'for empty', project_id: empty.id },
      })
    ).json;
    secrets.add(key.key);
    expect((await call('GET', '/browsers', { token: key.key })).status).toBe(200);
    expect((await call('DELETE', `/org/projects/${empty.id}`)).status).toBe(204);
    expect((await call('GET', `/org/projects/${empty.id}`)).status).toBe(404);
    // Its keys stop with it; its name is free again.
    expect((await call('GET', '/browsers', { token: key.key })).status).toBe(401);
    const again = await call<Project>('POST', '/org/projects', { body: { name: 'empty' } });
    expect(again.status).toBe(201);
    expect((await call('DELETE', `/org/projects/${again.json.id}`)).status).toBe(204);
  });
});

describe('API keys', () => {
  let scoped: CreatedApiKey;

  it('are shown once, listed masked, and a project key reaches its project only', async () => {
    const created = await call<CreatedApiKey>('POST', '/org/api_keys', {
      body: { name: 'ci for alpha', project_id: 'alpha', days_to_expire: 30 },
    });
    expect(created.status).toBe(201);
    scoped = created.json;
    secrets.add(scoped.key);
    expect(scoped).toMatchObject({ project_id: a.id, project_name: 'alpha', read_only: false });
    expect(scoped.expires_at).not.toBeNull();
    const listed = await call<ApiKey[]>('GET', '/org/api_keys');
    expect(JSON.stringify(listed.json)).not.toContain(scoped.key);
    expect(listed.json.find((key) => key.id === scoped.id)?.masked_key).toBe(
      `xbk_…${scoped.key.slice(-4)}`,
    );

    // Without a header it acts in its project; another project, even by header, is refused.
    const session = await call<BrowserSession>('POST', '/browsers', {
      body: { headless: true },
      token: scoped.key,
    });
    expect(session.status).toBe(201);
    const found = await call('GET', `/browsers/${session.json.session_id}`, { project: a.id });
    expect(found.status).toBe(200);
    // Another project, existing, archived or not there at all: the same 403, nothing learnt.
    await call('POST', '/org/projects', { body: { name: 'shelved' } });
    await call('PATCH', '/org/projects/shelved', { body: { status: 'archived' } });
    for (const project of [b.id, 'bravo', 'default', 'shelved', 'no-such-project']) {
      expect((await call('GET', '/browsers', { token: scoped.key, project })).status).toBe(403);
    }
    await call('DELETE', '/org/projects/shelved');
    expect((await call('GET', '/browsers', { token: scoped.key, project: 'alpha' })).status).toBe(
      200,
    );
    // It sees its own project only, and may not manage the organization.
    const projects = await call<Project[]>('GET', '/org/projects', { token: scoped.key });
    expect(projects.json.map((project) => project.id)).toEqual([a.id]);
    expect((await call('GET', `/org/projects/${b.id}`, { token: scoped.key })).status).toBe(404);
    expect(
      (await call('POST', '/org/projects', { body: { name: 'mine' }, token: scoped.key })).status,
    ).toBe(403);
    expect((await call('GET', '/org/api_keys', { token: scoped.key })).status).toBe(403);
    expect(
      (
        await call('PATCH', `/org/projects/${a.id}/limits`, {
          body: { max_concurrent_sessions: 50 },
          token: scoped.key,
        })
      ).status,
    ).toBe(403);
    expect(
      (await call('DELETE', `/browsers/${session.json.session_id}`, { token: scoped.key })).status,
    ).toBe(204);
  });

  it('may be read-only', async () => {
    const reader = (
      await call<CreatedApiKey>('POST', '/org/api_keys', {
        body: { name: 'dashboard', read_only: true },
      })
    ).json;
    secrets.add(reader.key);
    expect((await call('GET', '/browsers', { token: reader.key })).status).toBe(200);
    expect(
      (await call('POST', '/browsers', { body: { headless: true }, token: reader.key })).status,
    ).toBe(403);
    // Refused at request rate, it is counted every time and audited once a minute.
    const refusedBefore = await refusedCalls('read_only');
    for (let i = 0; i < 30; i++)
      expect((await call('DELETE', `/browsers/b${i}`, { token: reader.key })).status).toBe(403);
    expect((await refusedCalls('read_only')) - refusedBefore).toBe(30);
    const audited = await call<AuditLogEntry[]>(
      'GET',
      `/audit-logs?${new URLSearchParams({
        start: started,
        end: new Date(Date.now() + 1000).toISOString(),
        limit: '100',
        search: 'browsers',
      })}`,
    );
    const ofReader = audited.json.filter((entry) => entry.key_id === reader.id);
    expect(ofReader).toHaveLength(1);
    expect(ofReader[0]).toMatchObject({ method: 'POST', status: 403, count: 1 });
  });

  it('stop at once when rotated or deleted, and a key cannot delete itself', async () => {
    const rotated = await call<CreatedApiKey>('POST', `/org/api_keys/${scoped.id}/rotate`, {
      body: {},
    });
    expect(rotated.status).toBe(201);
    secrets.add(rotated.json.key);
    expect(rotated.json).toMatchObject({ name: 'ci for alpha', project_id: a.id });
    expect(rotated.json.key).not.toBe(scoped.key);
    expect((await call('GET', '/browsers', { token: scoped.key })).status).toBe(401);
    expect((await call('GET', '/browsers', { token: rotated.json.key })).status).toBe(200);

    const admin = (await call<CreatedApiKey>('POST', '/org/api_keys', { body: { name: 'admin' } }))
      .json;
    secrets.add(admin.key);
    expect((await call('DELETE', `/org/api_keys/${admin.id}`, { token: admin.key })).status).toBe(
      409,
    );
    expect(
      (await call('DELETE', `/org/api_keys/${rotated.json.id}`, { token: admin.key })).status,
    ).toBe(204);
    expect((await call('GET', '/browsers', { token: rotated.json.key })).status).toBe(401);
    expect((await call('GET', `/org/api_keys/${rotated.json.id}`)).status).toBe(404);
    const kept = await call<ApiKey>('GET', `/org/api_keys/${rotated.json.id}?include_deleted=true`);
    expect(kept.json.deleted_at).not.toBeNull();
  });
});

describe('limits', () => {
  it('answer 429 past max_concurrent_sessions, pools counted, and free up as a browser ends', async () => {
    const limits = await call<{ max_concurrent_sessions: number | null }>(
      'PATCH',
      `/org/projects/${a.id}/limits`,
      { body: { max_concurrent_sessions: 2 } },
    );
    expect(limits.json).toEqual({ max_concurrent_sessions: 2, max_concurrent_invocations: null });
    // A's pool of 1 holds one place; one browser takes the other.
    const first = await call<BrowserSession>('POST', '/browsers', {
      body: { headless: true },
      project: a.id,
    });
    expect(first.status).toBe(201);
    const refused = await call<{ message: string }>('POST', '/browsers', {
      body: { headless: true },
      project: a.id,
    });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('5');
    expect(refused.json.message).toContain('max_concurrent_sessions');
    const bigger = await call('PATCH', '/browser_pools/warm', {
      body: { size: 2 },
      project: a.id,
    });
    expect(bigger.status).toBe(429);
    // Another project is not held by A's limit.
    const inB = await call<BrowserSession>('POST', '/browsers', {
      body: { headless: true },
      project: b.id,
    });
    expect(inB.status).toBe(201);
    await call('DELETE', `/browsers/${inB.json.session_id}`, { project: b.id });
    await call('DELETE', `/browsers/${first.json.session_id}`, { project: a.id });
    const again = await call<BrowserSession>('POST', '/browsers', {
      body: { headless: true },
      project: a.id,
    });
    expect(again.status).toBe(201);
    await call('DELETE', `/browsers/${again.json.session_id}`, { project: a.id });
    // A cap past the server's own is refused; 0 removes the cap.
    expect(
      (
        await call('PATCH', `/org/projects/${a.id}/limits`, {
          body: { max_concurrent_sessions: 7 },
        })
      ).status,
    ).toBe(400);
    const removed = await call<{ max_concurrent_sessions: number | null }>(
      'PATCH',
      `/org/projects/${a.id}/limits`,
      { body: { max_concurrent_sessions: 0 } },
    );
    expect(removed.json.max_concurrent_sessions).toBeNull();
  });

  it('answer 429 past max_concurrent_invocations, and the organization default applies', async () => {
    const defaults = await call<Record<string, number | null>>('PATCH', '/org/limits', {
      body: { default_project_max_concurrent_invocations: 1 },
    });
    expect(defaults.json).toEqual({
      max_concurrent_sessions: 6,
      default_project_max_concurrent_sessions: null,
      default_project_max_concurrent_invocations: 1,
    });
    const app = await deployTestApp(test.server.url, b.id);
    writes.push({ method: 'POST', path: '/deployments', status: 201 });
    const body = app.invocation();
    const first = await call<Invocation>('POST', '/invocations', { body, project: b.id });
    expect(first.status).toBe(202);
    const refused = await call<{ message: string }>('POST', '/invocations', {
      body,
      project: b.id,
    });
    expect(refused.status).toBe(429);
    expect(refused.json.message).toContain('max_concurrent_invocations');
    await call('PATCH', `/invocations/${first.json.id}`, {
      body: { status: 'succeeded' },
      project: b.id,
    });
    expect((await call('POST', '/invocations', { body, project: b.id })).status).toBe(202);
    // A project's own limit wins over the default.
    await call('PATCH', `/org/projects/${b.id}/limits`, {
      body: { max_concurrent_invocations: 3 },
    });
    expect((await call('POST', '/invocations', { body, project: b.id })).status).toBe(202);
    await call('PATCH', '/org/limits', { body: { default_project_max_concurrent_invocations: 0 } });
    // Stopping the deployment ends the invocations still running.
    await app.remove();
    writes.push({ method: 'DELETE', path: `/deployments/${app.deployment}`, status: 204 });
  });
});

/** The server's count of refused calls for `reason`, from its metrics. */
async function refusedCalls(reason: string): Promise<number> {
  const text = await (
    await fetch(`${test.server.url}/metrics`, {
      headers: { authorization: `Bearer ${TEST_TOKEN}` },
    })
  ).text();
  const line = text
    .split('\n')
    .find((each) => each.startsWith(`xb_refused_calls_total{reason="${reason}"}`));
  return Number(line?.split(' ').at(-1) ?? 0);
}

describe('the audit log', () => {
  it('has every write of this file, newest first, a page at a time, and no secret', async () => {
    const end = new Date(Date.now() + 1000).toISOString();
    const entries: AuditLogEntry[] = [];
    let token: string | null = null;
    let pages = 0;
    do {
      const query = new URLSearchParams({ start: started, end, limit: '25' });
      if (token) query.set('page_token', token);
      const page = await call<AuditLogEntry[]>('GET', `/audit-logs?${query}`);
      expect(page.status).toBe(200);
      entries.push(...page.json);
      token = page.headers.get('x-next-page-token');
      pages++;
    } while (token);
    expect(pages).toBeGreaterThan(1);
    const seen = entries.map((entry) => `${entry.method} ${entry.path} ${entry.status}`).sort();
    const made = writes.map((write) => `${write.method} ${write.path} ${write.status}`).sort();
    expect(seen).toEqual(made);
    const times = entries.map((entry) => entry.timestamp);
    expect(times).toEqual([...times].sort().reverse());
    const text = JSON.stringify(entries);
    for (const secret of secrets) expect(text).not.toContain(secret);
    const byKey = entries.find((entry) => entry.auth_strategy === 'api_key');
    expect(byKey).toMatchObject({ key_name: expect.any(String), client_ip: expect.any(String) });
    expect(entries.find((entry) => entry.project_id === a.id)).toBeDefined();
    // Filters: the method, and text in the path, in any case (an id may hold "OrG").
    const query = new URLSearchParams({ start: started, end, method: 'DELETE', search: 'org' });
    const deletes = await call<AuditLogEntry[]>('GET', `/audit-logs?${query}`);
    expect(deletes.json.length).toBeGreaterThan(0);
    for (const entry of deletes.json) {
      expect(entry.method).toBe('DELETE');
      expect(entry.path.toLowerCase()).toContain('org');
    }
  });
});
