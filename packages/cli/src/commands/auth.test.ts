import { useFakeService } from '@x/testing/vitest';
import { AuthConnectionSchema, AuthContextSchema, CreatedApiKeySchema } from '@x/types';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { onlyJson, TRANSPORTS, xbAgainst } from '../test-support/run-xb.js';

const fake = useFakeService({ listen: true });
const PASSWORD = 'cli-auth-typed-pw';

describe.each(TRANSPORTS)('auth commands (%s)', (_, overHttp) => {
  const { run } = xbAgainst(fake, overHttp);

  it('context says who the token is and where a call acts, for the operator and a project key', async () => {
    const shown = await run(['auth', 'context']);
    expect(shown.stdout).toMatch(/^kind +operator token$/m);
    expect(shown.stdout).toMatch(/^access +full$/m);
    expect(shown.stdout).toMatch(/^reaches +every project$/m);
    expect(shown.stdout).toMatch(/^acts_in +default$/m);
    const name = `ctx-${overHttp ? 'http' : 'direct'}`;
    const project = onlyJson((await run(['projects', 'create', '--name', name, '--json'])).stdout);
    const { id: projectId } = project as { id: string };
    const key = v.parse(
      CreatedApiKeySchema,
      onlyJson(
        (
          await run([
            'keys',
            'create',
            '--name',
            name,
            '--project-id',
            projectId,
            '--read-only',
            '--json',
          ])
        ).stdout,
      ),
    );
    const asKey = v.parse(
      AuthContextSchema,
      onlyJson((await run(['auth', 'context', '--token', key.key, '--json'])).stdout),
    );
    expect(asKey.authentication).toMatchObject({ credential_id: key.id, credential_name: name });
    expect(asKey.authorization).toEqual({
      credential_scope: { project_id: projectId },
      effective_scope: { project_id: projectId },
      read_only: true,
    });
    expect((await run(['auth', 'context', '--project', name])).stdout).toMatch(
      new RegExp(`^acts_in +${projectId}$`, 'm'),
    );
  });

  it('login follows the flow, asks for what the credential lacks on stdin, and signs in', async () => {
    const domain = `${overHttp ? 'http' : 'direct'}.example.com`;
    await run([
      'credentials',
      'create',
      '--name',
      `${domain}-login`,
      '--domain',
      domain,
      '--values',
      '{"username":"agent"}',
    ]);
    const created = await run([
      'auth',
      'create',
      '--domain',
      domain,
      '--profile-name',
      'agent',
      '--credential',
      JSON.stringify({ name: `${domain}-login` }),
      '--json',
    ]);
    const connection = v.parse(AuthConnectionSchema, onlyJson(created.stdout));
    expect(connection.status).toBe('NEEDS_AUTH');
    const login = await run(['auth', 'login', connection.id], { stdin: `${PASSWORD}\n` });
    expect(login.stderr).toMatch(/The site asks for Password\.\nPassword \(password\): /);
    expect(login.stdout).toBe('✓ Signed in; the profile is saved.\n');
    expect(login.code).toBe(0);
    expect(`${login.stdout}${login.stderr}`).not.toContain(PASSWORD);
    expect((await run(['auth', 'get', connection.id])).stdout).toMatch(/^status +AUTHENTICATED$/m);
    expect((await run(['auth', 'list'])).stdout).toMatch(
      new RegExp(
        `^auth_\\w+ +${domain.replace(/\./g, '\\.')} +agent +AUTHENTICATED +SUCCESS COMPLETED`,
        'm',
      ),
    );
    expect((await run(['auth', 'timeline', connection.id])).stdout).toMatch(
      / login +SUCCESS +COMPLETED/,
    );
    expect((await run(['credentials', 'get', `${domain}-login`])).stdout).toMatch(
      /^values +password, username$/m,
    );
  });

  it('a refused sign-in exits 3 with the site’s message', async () => {
    const domain = `refused-${overHttp ? 'http' : 'direct'}.example.com`;
    await run([
      'credentials',
      'create',
      '--name',
      `${domain}-login`,
      '--domain',
      domain,
      '--values',
      '{"username":"agent","password":"wrong-password"}',
    ]);
    const created = await run([
      'auth',
      'create',
      '--domain',
      domain,
      '--profile-name',
      'agent',
      '--credential',
      JSON.stringify({ name: `${domain}-login` }),
      '--json',
    ]);
    const { id } = v.parse(AuthConnectionSchema, onlyJson(created.stdout));
    const login = await run(['auth', 'login', id]);
    expect(login.code).toBe(3);
    expect(login.stderr).toMatch(
      /The sign-in failed: .*\(the site said: Incorrect username or password\.\)/,
    );
    const started = await run(['auth', 'login', id, '--detach', '--json']);
    expect(onlyJson(started.stdout)).toMatchObject({ id, flow_type: 'LOGIN' });
  });
});
