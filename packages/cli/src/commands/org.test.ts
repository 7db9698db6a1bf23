import { useFakeService } from '@x/testing/vitest';
import {
  ApiKeySchema,
  AuditLogListSchema,
  BrowserSessionSchema,
  CreatedApiKeySchema,
  ProjectSchema,
} from '@x/types';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { onlyJson, TRANSPORTS, xbAgainst } from '../test-support/run-xb.js';

const fake = useFakeService({ listen: true });

describe.each(TRANSPORTS)('project, key and audit commands (%s)', (_, overHttp) => {
  const { run } = xbAgainst(fake, overHttp);

  it('makes projects, acts in one with --project, and sets its limits', async () => {
    const project = v.parse(
      ProjectSchema,
      onlyJson((await run(['projects', 'create', '--name', 'team-a', '--json'])).stdout),
    );
    expect((await run(['projects', 'list'])).stdout).toMatch(/^ID +NAME +STATUS +CREATED\n/);
    const made = await run(['browsers', 'create', '--project', 'team-a', '--json']);
    const session = v.parse(BrowserSessionSchema, onlyJson(made.stdout));
    // Not in the default project; found in team-a by id or name.
    expect((await run(['browsers', 'get', session.session_id])).code).not.toBe(0);
    expect((await run(['browsers', 'get', session.session_id, '--project', project.id])).code).toBe(
      0,
    );
    const limits = await run([
      'projects',
      'set-limits',
      'team-a',
      '--max-concurrent-sessions',
      '1',
    ]);
    expect(limits.stdout).toMatch(/^max_concurrent_sessions +1$/m);
    expect((await run(['projects', 'limits', 'team-a', '--json'])).stdout).toBe(
      `${JSON.stringify({ max_concurrent_sessions: 1, max_concurrent_invocations: null })}\n`,
    );
    await run(['browsers', 'delete', session.session_id, '--project', 'team-a']);
    expect((await run(['projects', 'org-limits'])).stdout).toMatch(/^max_concurrent_sessions +50/m);
  });

  it('shows a key once, masks it in lists, rotates and deletes it', async () => {
    const created = v.parse(
      CreatedApiKeySchema,
      onlyJson((await run(['keys', 'create', '--name', 'ci', '--read-only', '--json'])).stdout),
    );
    expect(created.read_only).toBe(true);
    const shown = await run(['keys', 'get', created.id]);
    expect(shown.stdout).not.toContain(created.key);
    expect(shown.stdout).toContain(created.masked_key);
    const listed = await run(['keys', 'list']);
    expect(listed.stdout).not.toContain(created.key);
    const rotated = await run(['keys', 'rotate', created.id]);
    expect(rotated.stdout).toMatch(/shown only this once/);
    const newId = /^id +(key_\w+)$/m.exec(rotated.stdout)?.[1] as string;
    const renamed = v.parse(
      ApiKeySchema,
      onlyJson((await run(['keys', 'update', newId, '--name', 'x', '--json'])).stdout),
    );
    expect(renamed).toMatchObject({ name: 'x', read_only: true });
    // The rotated key is gone (404); the new one is deleted.
    expect((await run(['keys', 'delete', created.id])).code).not.toBe(0);
    expect((await run(['keys', 'delete', newId])).stdout).toMatch(/refused from now on/);
  });

  it('reads the audit log, a page at a time or all of it', async () => {
    const start = new Date(Date.now() - 60_000).toISOString();
    const end = new Date(Date.now() + 60_000).toISOString();
    await run(['projects', 'create', '--name', 'audited']);
    await run(['projects', 'delete', 'audited']);
    const page = await run(['audit', 'list', '--start', start, '--end', end, '--limit', '1']);
    expect(page.stderr).toMatch(/More follow: --page-token \S+ for the next page/);
    const all = v.parse(
      AuditLogListSchema,
      onlyJson(
        (
          await run([
            'audit',
            'list',
            '--start',
            start,
            '--end',
            end,
            '--limit',
            '1',
            '--all',
            '--json',
          ])
        ).stdout,
      ),
    );
    expect(all.map((entry) => `${entry.method} ${entry.path}`)).toEqual(
      expect.arrayContaining(['POST /org/projects', 'DELETE /org/projects/audited']),
    );
  });
});
