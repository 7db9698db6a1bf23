import Kernel from '@onkernel/sdk';
import { describe, expect, it } from 'vitest';
import { TEST_TOKEN, useTestServer } from '../test-support/servers.js';

const test = useTestServer({ XB_MAX_BROWSERS: '4' });

/** The public Kernel SDK, pointed at this server, optionally in one project. */
const kernel = (options: { apiKey?: string; projectID?: string } = {}) =>
  new Kernel({
    apiKey: options.apiKey ?? TEST_TOKEN,
    baseURL: test.server.url,
    maxRetries: 0,
    ...(options.projectID === undefined ? {} : { projectID: options.projectID }),
  });

describe('the Kernel SDK 0.84 drives projects, keys and limits', () => {
  it('makes, finds, pages through, renames and deletes projects', async () => {
    const sdk = kernel();
    const made = [];
    for (const name of ['sdk-one', 'sdk-two', 'sdk-three']) {
      made.push(await sdk.projects.create({ name }));
    }
    expect(made[0]).toMatchObject({ name: 'sdk-one', status: 'active' });
    // Its pager follows X-Has-More and X-Next-Offset across pages of one.
    const names: string[] = [];
    for await (const project of sdk.projects.list({ limit: 1 })) names.push(project.name);
    expect(names).toEqual(['default', 'sdk-one', 'sdk-two', 'sdk-three']);
    expect((await sdk.projects.retrieve('sdk-two')).id).toBe(made[1]?.id);
    const renamed = await sdk.projects.update(made[2]?.id as string, { name: 'sdk-renamed' });
    expect(renamed.name).toBe('sdk-renamed');
    await sdk.projects.delete('sdk-renamed');
    await expect(sdk.projects.retrieve('sdk-renamed')).rejects.toMatchObject({ status: 404 });
  });

  it('acts in the project its projectID names, and nowhere else', async () => {
    const one = kernel({ projectID: 'sdk-one' });
    const two = kernel({ projectID: 'sdk-two' });
    const browser = await one.browsers.create({ headless: true });
    const seenByOne = [];
    for await (const session of one.browsers.list()) seenByOne.push(session.session_id);
    expect(seenByOne).toContain(browser.session_id);
    await expect(two.browsers.retrieve(browser.session_id)).rejects.toMatchObject({ status: 404 });
    await expect(kernel().browsers.retrieve(browser.session_id)).rejects.toMatchObject({
      status: 404,
    });
    await one.browsers.deleteByID(browser.session_id);
  });

  it('sets project and organization limits, and a create past one is 429', async () => {
    const sdk = kernel();
    const project = await sdk.projects.retrieve('sdk-one');
    const limits = await sdk.projects.limits.update(project.id, { max_concurrent_sessions: 1 });
    expect(limits).toMatchObject({ max_concurrent_sessions: 1, max_concurrent_invocations: null });
    expect(await sdk.projects.limits.retrieve(project.id)).toMatchObject({
      max_concurrent_sessions: 1,
    });
    const one = kernel({ projectID: project.id });
    const browser = await one.browsers.create({ headless: true });
    await expect(one.browsers.create({ headless: true })).rejects.toMatchObject({ status: 429 });
    await one.browsers.deleteByID(browser.session_id);
    await sdk.projects.limits.update(project.id, { max_concurrent_sessions: 0 });

    const org = await sdk.organization.limits.update({
      default_project_max_concurrent_sessions: 3,
    });
    expect(org).toMatchObject({
      max_concurrent_sessions: 4,
      default_project_max_concurrent_sessions: 3,
    });
    expect((await sdk.organization.limits.retrieve()).default_project_max_concurrent_sessions).toBe(
      3,
    );
    await sdk.organization.limits.update({ default_project_max_concurrent_sessions: 0 });
  });

  it('makes, lists, rotates and deletes API keys; a project key is held to its project', async () => {
    const sdk = kernel();
    const created = await sdk.apiKeys.create({
      name: 'sdk key',
      project_id: (await sdk.projects.retrieve('sdk-two')).id,
      days_to_expire: 7,
    });
    expect(created.key).toMatch(/^xbk_/);
    const listed = [];
    for await (const key of sdk.apiKeys.list()) listed.push(key);
    expect(listed.find((key) => key.id === created.id)?.masked_key).toBe(
      `xbk_…${created.key.slice(-4)}`,
    );
    const scoped = kernel({ apiKey: created.key });
    expect(await scoped.browsers.list()).toBeDefined();
    await expect(
      kernel({ apiKey: created.key, projectID: 'sdk-one' }).browsers.list(),
    ).rejects.toMatchObject({ status: 403 });
    const rotated = await sdk.apiKeys.rotate(created.id);
    await expect(scoped.browsers.list()).rejects.toMatchObject({ status: 401 });
    expect(await kernel({ apiKey: rotated.key }).browsers.list()).toBeDefined();
    expect((await sdk.apiKeys.update(rotated.id, { name: 'renamed' })).name).toBe('renamed');
    await sdk.apiKeys.delete(rotated.id);
    await expect(kernel({ apiKey: rotated.key }).browsers.list()).rejects.toMatchObject({
      status: 401,
    });
  });

  it('reads the audit log page by page with its page tokens', async () => {
    const sdk = kernel();
    const start = new Date(Date.now() - 3_600_000).toISOString();
    const end = new Date(Date.now() + 60_000).toISOString();
    const entries = [];
    for await (const entry of sdk.auditLogs.list({ start, end, limit: 5 })) entries.push(entry);
    expect(entries.length).toBeGreaterThan(10);
    expect(entries.some((entry) => entry.path === '/org/projects' && entry.method === 'POST')).toBe(
      true,
    );
    expect(new Set(entries.map((entry) => (entry as { id?: string }).id)).size).toBe(
      entries.length,
    );
  });
});
