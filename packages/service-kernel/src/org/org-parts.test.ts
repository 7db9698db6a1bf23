/**
 * Each part of the organization on its own, over in-memory stores and stand-ins for what it asks
 * of the others: no service model, no Organization.
 */
import { DEFAULT_PROJECT_ID } from '@x/types';
import { describe, expect, it } from 'vitest';
import { silentLog } from '../model-context.js';
import { createMemoryAuditStore } from '../records/memory-audit-store.js';
import { createMemoryRecordStores } from '../records/memory-record-store.js';
import { ORG_SCOPE } from '../records/record-store.js';
import { signSessionJwt } from '../session-jwt.js';
import { keyOf, OPERATOR } from '../test-support/callers.js';
import { orgSettings } from '../test-support/memory-engines.js';
import { ApiKeys } from './api-keys.js';
import { AuditLog } from './audit-log.js';
import { Callers } from './callers.js';
import { Nodes } from './nodes.js';
import type { OrgContext } from './org-context.js';
import { Projects } from './projects.js';

function context(now = Date.parse('2026-11-24T10:00:00.000Z')): OrgContext {
  const stores = createMemoryRecordStores();
  let next = 0;
  return {
    records: stores.scope(ORG_SCOPE),
    stores,
    audit: createMemoryAuditStore(),
    settings: orgSettings(4),
    clock: () => new Date(now),
    nextId: (prefix) => `${prefix}_${++next}`,
    log: silentLog,
  };
}

/** Projects over stand-in models that note what they are asked. */
function projectsAlone(ctx = context(), live = 0) {
  const asked: string[] = [];
  const keys: ApiKeys = new ApiKeys(ctx, (): Promise<void> => projects.ready());
  const projects: Projects = new Projects(
    ctx,
    {
      open: (project) => void asked.push(`open ${project}`),
      liveBrowsers: () => live,
      drop: async (project) => void asked.push(`drop ${project}`),
    },
    () => keys,
  );
  return { projects, keys, asked, ctx };
}

describe('the organization’s parts, each alone', () => {
  it('Projects: made, named, limited, deleted with their keys; the one a call acts in', async () => {
    const { projects, keys, asked } = projectsAlone();
    const made = await projects.create(OPERATOR, 'alpha');
    expect(asked).toEqual([`open ${made.id}`]);
    expect(await projects.actingProject(OPERATOR, 'alpha')).toBe(made.id);
    expect(await projects.actingProject(OPERATOR, undefined)).toBe(DEFAULT_PROJECT_ID);
    await expect(projects.actingProject(keyOf(made.id), DEFAULT_PROJECT_ID)).rejects.toMatchObject({
      code: 'forbidden',
    });
    await projects.updateLimits(OPERATOR, 'alpha', { max_concurrent_sessions: 2 });
    await projects.updateOrgLimits(OPERATOR, { default_project_max_concurrent_sessions: 3 });
    expect(projects.effective(made.id, 'sessions')).toBe(2);
    expect(projects.effective(DEFAULT_PROJECT_ID, 'sessions')).toBe(3);
    await expect(
      projects.updateLimits(OPERATOR, 'alpha', { max_concurrent_sessions: 5 }),
    ).rejects.toMatchObject({ code: 'bad_request' });
    const key = await keys.create(OPERATOR, { name: 'alpha key', project_id: 'alpha' });
    await projects.delete(OPERATOR, 'alpha');
    expect(asked).toContain(`drop ${made.id}`);
    expect(await keys.working(key.key)).toBeUndefined();
    expect((await projects.ids()).sort()).toEqual([DEFAULT_PROJECT_ID]);
  });

  it('Projects: one holding live browsers is not deleted', async () => {
    const { projects } = projectsAlone(context(), 1);
    await projects.create(OPERATOR, 'busy');
    await expect(projects.delete(OPERATOR, 'busy')).rejects.toThrow(/still holds 1 browsers/);
  });

  it('ApiKeys: a key works until deleted; a minted key while its deployer’s key does', async () => {
    const { keys } = projectsAlone();
    const key = await keys.create(OPERATOR, { name: 'ci' });
    expect((await keys.working(key.key))?.record.id).toBe(key.id);
    const minted = await keys.mintDeploymentKey(
      DEFAULT_PROJECT_ID,
      'run',
      { keyId: key.id, parentKey: key.id },
      new Date(Date.parse('2026-11-25T10:00:00.000Z')),
    );
    expect(await keys.working(minted.key)).toBeDefined();
    await keys.delete(OPERATOR, key.id);
    expect(await keys.working(key.key)).toBeUndefined();
    expect(await keys.working(minted.key)).toBeUndefined();
    await expect(keys.create(keyOf(DEFAULT_PROJECT_ID), { name: 'x' })).rejects.toMatchObject({
      code: 'forbidden',
    });
  });

  it('Callers: a working key is a grant and a recent key; a jwt opens only its live session', async () => {
    const { projects, keys, ctx } = projectsAlone();
    const callers = new Callers(ctx, keys, projects, (id) =>
      id === 'live' ? { project: DEFAULT_PROJECT_ID, jwtSecret: 'secret' } : undefined,
    );
    const key = await keys.create(OPERATOR, { name: 'ci', read_only: true });
    expect(callers.isRecentKey(`Bearer ${key.key}`)).toBe(false);
    expect(await callers.grantOf(key.key)).toMatchObject({ keyId: key.id, isReadOnly: true });
    expect(callers.isRecentKey(`Bearer ${key.key}`)).toBe(true);
    await keys.delete(OPERATOR, key.id);
    expect(await callers.grantOf(key.key)).toBeUndefined();
    expect(callers.isRecentKey(`Bearer ${key.key}`)).toBe(false);
    expect(await callers.sessionCaller('gone', 'not-a-jwt')).toBeUndefined();
    expect(await callers.sessionCaller('live', 'not-a-jwt')).toBeUndefined();
    const later = Math.floor(ctx.clock().getTime() / 1000) + 60;
    expect(
      await callers.sessionCaller('live', signSessionJwt('secret', 'live', later)),
    ).toMatchObject({ project: DEFAULT_PROJECT_ID, strategy: 'session_jwt' });
    const elsewhere = signSessionJwt('secret', 'gone', later);
    expect(await callers.sessionCaller('gone', elsewhere)).toBeUndefined();
  });

  it('AuditLog: keeps writes, pages them newest first, prunes old entries', async () => {
    const { keys, ctx } = projectsAlone();
    const audit = new AuditLog(ctx, keys);
    for (const status of [201, 204]) {
      await audit.record({
        at: ctx.clock(),
        caller: OPERATOR,
        project: DEFAULT_PROJECT_ID,
        method: 'POST',
        path: '/browsers',
        operation: 'browsers.create',
        status,
        clientIp: '127.0.0.1',
        userAgent: 'test',
        durationMs: 3,
      });
    }
    const page = await audit.page(OPERATOR, {
      start: '2026-11-24T00:00:00.000Z',
      end: '2026-11-25T00:00:00.000Z',
      limit: 1,
    });
    expect(page.items.map((entry) => entry.status)).toEqual([204]);
    expect(page.headers['x-has-more']).toBe('true');
    expect(await audit.prune(0)).toBe(0);
  });

  it('Nodes: this node alone, drained through the call, refused to a project key', async () => {
    const ctx = context();
    let draining = false;
    const nodes = new Nodes(ctx, undefined, {
      isDraining: () => draining,
      browsers: () => 2,
      drain: async () => {
        draining = true;
        return 1;
      },
    });
    expect(nodes.list()).toMatchObject([{ is_self: true, state: 'up', browsers: 2 }]);
    const [self] = nodes.list();
    const drained = await nodes.drain(OPERATOR, self?.id ?? '', 0, new AbortController().signal);
    expect(drained).toMatchObject({ node: { state: 'draining' }, browsers_in_use: 1 });
    expect(() => nodes.page(keyOf(DEFAULT_PROJECT_ID), { limit: 10, offset: 0 })).toThrow(
      /organization-wide key/,
    );
  });
});
