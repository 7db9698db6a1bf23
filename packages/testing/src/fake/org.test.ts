import type { CreatedApiKey, Project } from '@x/types';
import { describe, expect, it } from 'vitest';
import { apiOf, manualClock } from '../test-support/api.js';
import { createFakeService } from './fake-service.js';

const DAY = 86_400_000;

describe('projects and keys in the fake, on its clock', () => {
  it('refuses a key once it expires, and a rotated key once its grace ends', async () => {
    const time = manualClock();
    const fake = createFakeService({ clock: time.clock });
    const api = apiOf(fake);
    const key = (
      await api.call('POST', '/org/api_keys', { json: { name: 'short', days_to_expire: 1 } })
    ).json as CreatedApiKey;
    expect(key.expires_at).toBe(new Date(time.clock().getTime() + DAY).toISOString());
    expect((await api.call('GET', '/browsers', { token: key.key })).status).toBe(200);
    time.advance(DAY);
    expect((await api.call('GET', '/browsers', { token: key.key })).status).toBe(401);

    const lasting = (await api.call('POST', '/org/api_keys', { json: { name: 'ci' } }))
      .json as CreatedApiKey;
    const rotated = (
      await api.call('POST', `/org/api_keys/${lasting.id}/rotate`, { json: { expire_in_days: 2 } })
    ).json as CreatedApiKey;
    expect(rotated.expires_at).toBeNull();
    time.advance(DAY);
    expect((await api.call('GET', '/browsers', { token: lasting.key })).status).toBe(200);
    time.advance(DAY);
    expect((await api.call('GET', '/browsers', { token: lasting.key })).status).toBe(401);
    expect((await api.call('GET', '/browsers', { token: rotated.key })).status).toBe(200);
    await fake.close();
  });

  it("counts a project's pools against its cap, and leaves other projects alone", async () => {
    const fake = createFakeService();
    const api = apiOf(fake);
    const project = (await api.call('POST', '/org/projects', { json: { name: 'capped' } }))
      .json as Project;
    const headers = { 'x-kernel-project-id': project.name };
    await api.call('PATCH', `/org/projects/${project.id}/limits`, {
      json: { max_concurrent_sessions: 2 },
    });
    const tooBig = await api.call('POST', '/browser_pools', {
      json: { name: 'warm', size: 3 },
      headers,
    });
    expect(tooBig.status).toBe(429);
    expect(tooBig.text).toContain('max_concurrent_sessions');
    expect(
      (await api.call('POST', '/browser_pools', { json: { name: 'warm', size: 2 }, headers }))
        .status,
    ).toBe(201);
    expect((await api.call('POST', '/browsers', { json: {}, headers })).status).toBe(429);
    // The default project has no cap: the same calls go through there.
    expect(
      (await api.call('POST', '/browser_pools', { json: { name: 'warm', size: 3 } })).status,
    ).toBe(201);
    expect((await api.call('POST', '/browsers', { json: {} })).status).toBe(201);
    await fake.close();
  });
});
