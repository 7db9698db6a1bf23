import { describe, expect, it } from 'vitest';
import { useTestServer } from '../test-support/servers.js';

const test = useTestServer();

const LONG = 'n'.repeat(300);

describe('names longer than Linux takes', () => {
  it('are 400 wherever a caller names a path or a thing, never 500', async () => {
    const { session_id: id } = (await test.api.call('POST', '/browsers', { json: {} })).json as {
      session_id: string;
    };
    try {
      const path = `/home/browser/${LONG}`;
      const query = (name: string) => `path=${encodeURIComponent(name)}`;
      const answers: [string, number][] = [];
      const note = async (what: string, answer: Promise<{ status: number }>) =>
        answers.push([what, (await answer).status]);
      await note(
        'write_file',
        test.api.call('PUT', `/browsers/${id}/fs/write_file?${query(path)}`, { body: 'x' }),
      );
      await note(
        'write_file (deep)',
        test.api.call(
          'PUT',
          `/browsers/${id}/fs/write_file?${query(`/home/browser/${'d/'.repeat(2100)}f`)}`,
          {
            body: 'x',
          },
        ),
      );
      await note('read_file', test.api.call('GET', `/browsers/${id}/fs/read_file?${query(path)}`));
      await note(
        'create_directory',
        test.api.call('PUT', `/browsers/${id}/fs/create_directory`, { json: { path } }),
      );
      await note('watch', test.api.call('POST', `/browsers/${id}/fs/watch`, { json: { path } }));
      await note(
        'cwd',
        test.api.call('POST', `/browsers/${id}/process/exec`, {
          json: { command: 'true', cwd: path },
        }),
      );
      expect(answers).toEqual(answers.map(([what]) => [what, 400]));
      // Names of things the server keeps: refused or kept, never a failure.
      for (const [route, body] of [
        ['/profiles', { name: LONG }],
        ['/browser_pools', { name: LONG, size: 1 }],
      ] as const) {
        const answer = await test.api.call('POST', route, { json: body });
        expect([route, answer.status < 500]).toEqual([route, true]);
      }
      // Control: a name of 255 bytes is a name like any other.
      const fits = `/home/browser/${'n'.repeat(255)}`;
      expect(
        (await test.api.call('PUT', `/browsers/${id}/fs/write_file?${query(fits)}`, { body: 'x' }))
          .status,
      ).toBe(201);
    } finally {
      await test.api.call('DELETE', `/browsers/${id}`);
    }
  });
});
