import { describe, expect, it } from 'vitest';
import { jsonCaller, shellRunner, TEST_TOKEN, useTestServer } from '../test-support/servers.js';

const test = useTestServer({ XB_SESSION_PIDS: '300', XB_SESSION_MEMORY_MB: '1024' });
const call = jsonCaller(() => test.server.url);
const exec = shellRunner(() => test.server.url);

describe('per-session cgroups', () => {
  it('put the browser and every process it runs in its own groups, removed with it', async () => {
    const browser = (await call<{ session_id: string }>('POST', '/browsers', {})).json.session_id;
    const { json } = await call<{ pid: number }>('POST', `/browsers/${browser}/process/spawn`, {
      command: 'sleep',
      args: ['30'],
    });
    const cgroups = test.server.cgroups;
    expect(cgroups).toBeDefined();
    const members = cgroups?.membersOf(browser) ?? [];
    expect(members).toContain(
      test.server.model.browsers.live(browser).instance.chromium.process.pid,
    );
    expect(members.length).toBeGreaterThan(3);
    expect(json.pid).toBeGreaterThan(0);
    // Started at the host's speed, handed over with its quota (one CPU) in force.
    expect(cgroups?.cpuQuotaOf(browser)).toMatch(/^100000( 100000)?$/);
    await call('DELETE', `/browsers/${browser}`);
    expect(cgroups?.membersOf(browser)).toEqual([]);
  });

  it('stop a fork bomb at the pids limit, and the server and other sessions go on', async () => {
    const [bomber, bystander] = await Promise.all(
      [0, 1].map(
        async () => (await call<{ session_id: string }>('POST', '/browsers', {})).json.session_id,
      ),
    );
    const result = await exec(
      bomber as string,
      'i=0; while [ $i -lt 1000 ]; do sleep 20 2>/dev/null & i=$((i+1)); done 2>/dev/null; ls /proc | grep -c "^[0-9]"',
    );
    expect(Number(result.stdout.trim())).toBeLessThan(300);
    expect((await fetch(`${test.server.url}/healthz`)).status).toBe(200);
    const shot = await fetch(`${test.server.url}/browsers/${bystander}/computer/screenshot`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_TOKEN}` },
    });
    expect(shot.status).not.toBe(500);
    await Promise.all([bomber, bystander].map((id) => call('DELETE', `/browsers/${id}`)));
  });

  it('kill a process that takes more memory than its session may, not the server', async () => {
    const browser = (await call<{ session_id: string }>('POST', '/browsers', {})).json.session_id;
    // tail -n 1 holds a "line" with no end: 2 GiB of it, past the session's 1 GiB.
    const result = await exec(
      browser,
      'head -c 2147483648 /dev/zero | tail -n 1 > /dev/null; echo $?',
    );
    expect(['137', '141']).toContain(result.stdout.trim().split('\n').at(-1));
    expect((await fetch(`${test.server.url}/healthz`)).status).toBe(200);
    await call('DELETE', `/browsers/${browser}`);
  });
});
