import { spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MAIN, startServerProcess } from '../test-support/binary.js';
import { TEST_ALLOW_NETWORKS } from '../test-support/servers.js';

const folder = mkdtempSync(join(tmpdir(), 'xb-inherited-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** What each descriptor of a shell points at, as a sandboxed process lists them. */
const LIST = 'for f in /proc/$$/fd/*; do readlink "$f"; done';

describe('descriptors the server inherited', () => {
  it('reach no sandbox: a session process sees none of them', async () => {
    const canary = join(folder, 'inherited-canary');
    const fd = openSync(canary, 'w');
    try {
      // At 50, as a shell's open file would be (Node marks a low one close-on-exec itself).
      const extra = [...Array<'ignore'>(47).fill('ignore'), fd];
      // Control: a program started with that descriptor sees it.
      const plain = spawnSync('sh', ['-c', LIST], { stdio: ['ignore', 'pipe', 'pipe', ...extra] });
      expect(plain.stdout.toString()).toContain('inherited-canary');
      const token = 'inherited-fds-token';
      const { url, child } = await startServerProcess(
        [process.execPath, MAIN],
        {
          ...process.env,
          XB_DATA_DIR: join(folder, 'data'),
          XB_PORT: '0',
          XB_ALLOW_NETWORKS: TEST_ALLOW_NETWORKS,
          XB_TOKENS: token,
        },
        undefined,
        false,
        extra,
      );
      const call = (method: string, path: string, body?: unknown) =>
        fetch(`${url}${path}`, {
          method,
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
      const { session_id: id } = (await (await call('POST', '/browsers', {})).json()) as {
        session_id: string;
      };
      const ran = (await (
        await call('POST', `/browsers/${id}/process/exec`, { command: 'sh', args: ['-c', LIST] })
      ).json()) as { stdout_b64: string };
      const seen = Buffer.from(ran.stdout_b64, 'base64').toString();
      expect(seen).not.toContain('inherited-canary');
      expect(seen.split('\n').filter(Boolean).length).toBeGreaterThanOrEqual(3); // 0, 1, 2
      await call('DELETE', `/browsers/${id}`);
      // Stopped as an operator stops it, so its networks go with it (a kill would leave them).
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    } finally {
      closeSync(fd);
    }
  });
});
