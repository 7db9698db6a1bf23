import { chmodSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { jsonCaller, useTestServer } from '../test-support/servers.js';

// A "Chromium" that exists on the host (so the server starts and is ready) but not in the
// sandbox, where only /usr is: every browser start fails after its cgroup, user, home and network
// were made.
const folder = mkdtempSync(join(tmpdir(), 'xb-no-chromium-'));
const chromePath = join(folder, 'chromium');
writeFileSync(chromePath, '#!/bin/sh\nexit 1\n');
chmodSync(chromePath, 0o755);
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const test = useTestServer({ CHROME_PATH: chromePath });
const call = jsonCaller(() => test.server.url);

describe('a browser that fails to start', () => {
  it('is a clear error, and leaves no cgroup or home behind', async () => {
    for (let attempt = 0; attempt < 3; attempt++) {
      const answer = await call<{ code: string; message: string }>('POST', '/browsers', {});
      expect(answer.status).toBe(500);
      expect(answer.json.message).toBe('The browser failed to start.');
    }
    expect([...(test.server.cgroups?.sessions() ?? [])]).toEqual([]);
    expect(readdirSync(join(test.dataDir, 'instances'))).toEqual([]);
    const listed = await call<unknown[]>('GET', '/browsers', undefined);
    expect(listed.json).toEqual([]);
  });
});
