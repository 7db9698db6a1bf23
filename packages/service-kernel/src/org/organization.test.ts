import { type AuditLogEntry, type Operation, operationByName } from '@x/types';
import { describe, expect, it } from 'vitest';
import type { NodeDirectory } from '../engines.js';
import { DEFAULT_BROWSER_LIMITS } from '../model-context.js';
import { createMemoryAuditStore } from '../records/memory-audit-store.js';
import { createMemoryRecordStores } from '../records/memory-record-store.js';
import { ServiceError } from '../service-error.js';
import { keyOf, OPERATOR } from '../test-support/callers.js';
import { BROWSER, memoryEngines, orgSettings } from '../test-support/memory-engines.js';
import type { ScriptedAppEngine } from '../test-support/scripted-app-engine.js';
import { Organization } from './organization.js';

const DAY = 86_400_000;

/** Every entry of an audit log, from the epoch to a day ahead. */
const ALL_ENTRIES = { start: new Date(0), end: new Date(Date.now() + DAY), limit: 1000 };

function testOrg(maxBrowsers = 4, nodes?: NodeDirectory, engines = memoryEngines()) {
  let now = Date.parse('2026-11-24T10:00:00.000Z');
  const audit = createMemoryAuditStore();
  const org = new Organization({
    engines: engines.engines,
    stores: createMemoryRecordStores(),
    audit,
    settings: orgSettings(maxBrowsers),
    clock: () => new Date(now),
    ...(nodes ? { nodes } : {}),
  });
  return { org, audit, advance: (ms: number) => (now += ms), now: () => now };
}

const operator = OPERATOR;

describe('the organization', () => {
  it('keeps a call on a session in its telemetry only for a caller of its project', async () => {
    const { org } = testOrg();
    const a = await org.projects.create(operator, 'alpha');
    const entry = await org.model(a.id).browsers.create({ ...BROWSER, telemetry: {} }, 'http://x');
    const id = entry.record.session_id;
    const call = (project: string | undefined) => ({
      operation: operationByName('browsers.computer.moveMouse') as Operation,
      params: { id },
      project,
      requestId: 'req_1',
      status: 204,
      durationMs: 3,
      isReadOnly: false,
    });
    org.answered(call(undefined)); // refused before its project was known
    org.answered(call('default')); // a key of another project: 404 to it
    org.answered({ ...call(a.id), operation: operationByName('browsers.telemetry.events') });
    org.answered({ ...call(a.id), operation: operationByName('browsers.get') });
    expect(entry.telemetry.lastSeq).toBe(0);
    org.answered(call(a.id));
    expect(entry.telemetry.page({ offset: 0, limit: 10 }).items[0]?.event).toMatchObject({
      category: 'control',
      type: 'api_call',
      data: { operation_id: 'browsers.computer.moveMouse', request_id: 'req_1', status: 204 },
    });
    await org.close();
  });

  it('finds the project of a call: header, then key, then default; 400, 403 and 404 as due', async () => {
    const { org } = testOrg();
    const a = await org.projects.create(operator, 'alpha');
    expect(await org.callers.projectOf(operator, undefined)).toBe('default');
    expect(await org.callers.projectOf(operator, 'alpha')).toBe(a.id);
    expect(await org.callers.projectOf(keyOf(a.id), undefined)).toBe(a.id);
    await expect(org.callers.projectOf(operator, '..')).rejects.toMatchObject({ status: 400 });
    await expect(org.callers.projectOf(operator, 'nothing')).rejects.toMatchObject({ status: 404 });
    await expect(org.callers.projectOf(keyOf(a.id), 'default')).rejects.toMatchObject({
      status: 403,
    });
    await org.projects.update(operator, 'alpha', { status: 'archived' });
    await expect(org.callers.projectOf(operator, 'alpha')).rejects.toMatchObject({ status: 404 });
    await expect(org.callers.projectOf(keyOf(a.id), undefined)).rejects.toMatchObject({
      status: 404,
    });
  });

  it("caps a project's browsers on the node's count too, and its own cap over the default", async () => {
    const { org } = testOrg(3);
    const a = await org.projects.create(operator, 'alpha');
    await org.projects.updateOrgLimits(operator, { default_project_max_concurrent_sessions: 1 });
    const inDefault = org.model('default');
    await inDefault.browsers.create(BROWSER, 'http://x');
    expect(() => inDefault.browsers.create(BROWSER, 'http://x')).toThrow(/max_concurrent_sessions/);
    await org.projects.updateLimits(operator, a.id, { max_concurrent_sessions: 3 });
    const inA = org.model(a.id);
    await inA.browsers.create(BROWSER, 'http://x');
    await inA.browsers.create(BROWSER, 'http://x');
    // The node's cap (3) holds across projects whatever a project's own cap says.
    expect(() => inA.browsers.create(BROWSER, 'http://x')).toThrow(/at most 3 browsers/);
    await expect(
      org.projects.updateLimits(operator, a.id, { max_concurrent_sessions: 4 }),
    ).rejects.toMatchObject({ status: 400 });
    await org.close();
  });

  it("keeps the node's last invocation places for projects that run none", async () => {
    const engines = memoryEngines();
    const org = new Organization({
      engines: engines.engines,
      stores: createMemoryRecordStores(),
      audit: createMemoryAuditStore(),
      settings: {
        maxBrowsers: 4,
        maxInvocations: 8,
        isProcessExecutionEnabled: true,
        watchBufferSize: 4,
        jwtSecret: 'secret',
        isFillRateLimited: false,
        limits: DEFAULT_BROWSER_LIMITS,
      },
    });
    const b = await org.projects.create(operator, 'beta');
    const deployed = async (project: string) => {
      const model = org.model(project);
      const made = await model.deployments.create({
        file: new Blob([new Uint8Array([80, 75, 5, 6])]),
        entrypoint_rel_path: 'app.ts',
        version: 'v1',
        force: 'false',
      });
      for await (const _ of model.deployments.events(made.id, new AbortController().signal));
      return model;
    };
    const apps = engines.engines.apps as ScriptedAppEngine;
    const betaModel = await deployed(b.id);
    const defaultModel = await deployed('default');
    apps.hold();
    const invoke = (model: typeof betaModel) =>
      model.invocations.invoke({
        app_name: 'demo',
        action_name: 'run',
        version: 'v1',
        async: true,
        async_timeout_seconds: 60,
      });
    for (let i = 0; i < 6; i++) await invoke(betaModel);
    await expect(invoke(betaModel)).rejects.toMatchObject({
      status: 429,
      message: expect.stringMatching(/keeps its last 2 of 8 invocation places for other projects/),
    });
    // The default project still gets a place.
    expect((await invoke(defaultModel)).invocation.status).toBe('queued');
    apps.release();
  });

  it('makes a key for the default project as its first call', async () => {
    const { org } = testOrg();
    const key = await org.keys.create(operator, { name: 'first', project_id: 'default' });
    expect(key.project_id).toBe('default');
  });

  it('queues at most 4 deploys of a project while the node serves others; another still gets a place', async () => {
    const engines = memoryEngines();
    const { org } = testOrg(4, undefined, engines);
    const b = await org.projects.create(operator, 'beta');
    const apps = engines.engines.apps as ScriptedAppEngine;
    apps.hold();
    const deploy = (project: string, version: string) =>
      org.model(project).deployments.create({
        file: new Blob([new Uint8Array([80, 75, 5, 6])]),
        entrypoint_rel_path: 'app.ts',
        version,
        force: 'false',
      });
    // The node's 2 deploy slots taken by beta, then its 4 places in the queue.
    await deploy(b.id, 'a');
    await deploy(b.id, 'b');
    await new Promise((resolve) => setTimeout(resolve, 5));
    for (const version of ['c', 'd', 'e', 'f']) {
      expect((await deploy(b.id, version)).status).toBe('queued');
    }
    const refused = await deploy(b.id, 'g').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ServiceError);
    expect(refused).toMatchObject({
      status: 429,
      code: 'rate_limited',
      message: 'This project has 4 deploys waiting already. Try again when they are done.',
      headers: { 'retry-after': '10' },
    });
    expect((refused as ServiceError).body()).toMatchObject({
      code: 'rate_limited',
      message: expect.stringContaining('4 deploys waiting'),
    });
    // The default project still gets a place in the line.
    expect((await deploy('default', 'mine')).status).toBe('queued');
    apps.release();
    await org.close();
  });

  it("keeps a minted key working while its deployer's key (or the key it was rotated to) does", async () => {
    const { org } = testOrg();
    const a = await org.projects.create(operator, 'alpha');
    const deployer = await org.keys.create(operator, { name: 'ci', project_id: a.id });
    const minted = await org.keys.mintDeploymentKey(
      a.id,
      'invocation inv_1',
      { keyId: deployer.id, parentKey: deployer.id },
      new Date(Date.now() + DAY),
    );
    expect(await org.callers.grantOf(minted.key)).toMatchObject({ isMinted: true, project: a.id });
    // Rotated at once: the old key stops, the minted one follows it to the new key.
    const rotated = await org.keys.rotate(operator, deployer.id, {});
    expect(await org.callers.grantOf(deployer.key)).toBeUndefined();
    expect(await org.callers.grantOf(minted.key)).toBeDefined();
    await expect(org.keys.rotate(operator, minted.id, {})).rejects.toMatchObject({ status: 409 });
    await org.keys.delete(operator, rotated.id);
    expect(await org.callers.grantOf(minted.key)).toBeUndefined();
    // Retired, nothing is kept of it.
    await org.keys.retireDeploymentKey(minted.id);
    await expect(org.keys.get(operator, minted.id, true)).rejects.toMatchObject({ status: 404 });
  });

  it('audits a key refused at request rate once a minute, with a count', async () => {
    const { org, audit } = testOrg();
    const call = (status: number) => ({
      at: new Date(),
      caller: { ...keyOf('default'), isReadOnly: true },
      project: 'default',
      method: 'POST',
      path: '/browsers',
      operation: 'browsers.create',
      status,
      clientIp: '127.0.0.1',
      userAgent: 'test',
      durationMs: 1,
    });
    for (let i = 0; i < 100; i++) await org.audit.record(call(403));
    await org.audit.record(call(201));
    const entries = await audit.page(ALL_ENTRIES);
    expect(entries.map((entry) => [entry.status, entry.count])).toEqual([
      [201, undefined],
      [403, 1],
    ]);
    await org.close();
    const closed = await audit.page(ALL_ENTRIES);
    expect(closed.find((entry) => entry.count === 99)).toBeDefined();
  });

  it('pages the audit log by token, newest first, and refuses a token no page gave', async () => {
    const { org, advance, now } = testOrg();
    for (let index = 0; index < 5; index++) {
      await org.audit.record({
        at: new Date(now()),
        caller: operator,
        project: 'default',
        method: 'POST',
        path: `/profiles/${index}`,
        operation: 'profiles.create',
        status: 201,
        clientIp: '127.0.0.1',
        userAgent: 'test',
        durationMs: 1,
      });
      advance(1000);
    }
    const query = {
      start: new Date(now() - DAY).toISOString(),
      end: new Date(now() + DAY).toISOString(),
      limit: 2,
    };
    const paths: string[] = [];
    let token: string | undefined;
    do {
      const page = await org.audit.page(operator, {
        ...query,
        ...(token ? { page_token: token } : {}),
      });
      paths.push(...page.items.map((entry: AuditLogEntry) => entry.path));
      token = page.headers['x-next-page-token'];
    } while (token);
    expect(paths).toEqual([
      '/profiles/4',
      '/profiles/3',
      '/profiles/2',
      '/profiles/1',
      '/profiles/0',
    ]);
    await expect(
      org.audit.page(operator, { ...query, page_token: 'bm90LWEtdG9rZW4' }),
    ).rejects.toMatchObject({ status: 400 });
    // A project key reads its own project's entries only.
    expect((await org.audit.page(keyOf('other'), query)).items).toEqual([]);
    advance(31 * DAY);
    expect(await org.audit.prune(30)).toBe(5);
  });
});

describe('the nodes of the organization', () => {
  const never = new AbortController().signal;

  it('are one, local, for a server alone; an organization-wide key only', async () => {
    const { org } = testOrg(4);
    await org.model('default').browsers.create(BROWSER, 'http://x');
    expect(org.nodes.page(operator, { offset: 0, limit: 20 }).items).toEqual([
      { id: 'local', url: null, state: 'up', is_self: true, max_browsers: 4, browsers: 1 },
    ]);
    expect(() => org.nodes.page(keyOf('default'), { offset: 0, limit: 20 })).toThrow(
      /organization-wide key/,
    );
    await expect(org.nodes.drain(keyOf('default'), 'local', 0, never)).rejects.toMatchObject({
      code: 'forbidden',
    });
    await org.close();
  });

  it('drains this node: no new browser, a wait for those in use, as long as asked and no longer', async () => {
    let drained = 0;
    const nodes: NodeDirectory = {
      self: 'aaaa',
      members: () => [
        { id: 'bbbb', url: 'http://b', state: 'up', capacity: 8, running: 3 },
        { id: 'aaaa', url: 'http://a', state: 'up', capacity: 4, running: 0 },
        { id: 'cccc', url: 'http://c', state: 'lost', capacity: 8, running: 0 },
      ],
      drain: async () => {
        drained++;
      },
    };
    const { org } = testOrg(4, nodes);
    const model = org.model('default');
    const inUse = await model.browsers.create(BROWSER, 'http://x');
    const started = Date.now();
    const answer = await org.nodes.drain(operator, 'aaaa', 1, never);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(answer).toEqual({
      node: {
        id: 'aaaa',
        url: 'http://a',
        state: 'draining',
        is_self: true,
        max_browsers: 4,
        browsers: 1,
      },
      browsers_in_use: 1,
    });
    expect(drained).toBe(1);
    await expect((async () => model.browsers.create(BROWSER, 'http://x'))()).rejects.toMatchObject({
      code: 'unavailable',
    });
    // A project made after the drain drains too.
    const later = await org.projects.create(operator, 'later');
    await expect(
      (async () => org.model(later.id).browsers.create(BROWSER, 'http://x'))(),
    ).rejects.toMatchObject({
      code: 'unavailable',
    });
    // The session in use ends: the next drain answers at once, nothing in use.
    await model.browsers.delete(inUse.record.session_id);
    const waited = Date.now();
    expect((await org.nodes.drain(operator, 'aaaa', 30, never)).browsers_in_use).toBe(0);
    expect(Date.now() - waited).toBeLessThan(1000);
    expect(org.nodes.page(operator, { offset: 0, limit: 20 }).items.map((n) => n.state)).toEqual([
      'draining',
      'up',
      'lost',
    ]);
    await org.close();
  });

  it('stops waiting when the caller goes away', async () => {
    const { org } = testOrg(4);
    await org.model('default').browsers.create(BROWSER, 'http://x');
    const gone = new AbortController();
    setTimeout(() => gone.abort(), 300);
    const started = Date.now();
    expect((await org.nodes.drain(operator, 'local', 600, gone.signal)).browsers_in_use).toBe(1);
    expect(Date.now() - started).toBeLessThan(2000);
    await org.close();
  });

  it('are 404 when unknown, 409 when lost, 503 when another one could not be asked', async () => {
    const nodes: NodeDirectory = {
      self: 'aaaa',
      members: () => [
        { id: 'bbbb', url: 'http://b', state: 'up', capacity: 8, running: 3 },
        { id: 'cccc', url: 'http://c', state: 'lost', capacity: 8, running: 0 },
      ],
      drain: async () => undefined,
    };
    const { org } = testOrg(4, nodes);
    await expect(org.nodes.drain(operator, 'zzzz', 0, never)).rejects.toMatchObject({
      code: 'not_found',
    });
    await expect(org.nodes.drain(operator, 'cccc', 0, never)).rejects.toMatchObject({
      code: 'conflict',
    });
    await expect(org.nodes.drain(operator, 'bbbb', 0, never)).rejects.toMatchObject({
      code: 'unavailable',
    });
    // Nothing of those drained this node.
    await org.model('default').browsers.create(BROWSER, 'http://x');
    await org.close();
  });
});
