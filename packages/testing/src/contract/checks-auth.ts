import type { AuthConnection, AuthTimelineEvent, LoginResponse, Profile } from '@x/types';
import { type ContractCheck, defineChecks } from './check.js';
import { type ContractContext, expect } from './context.js';
import { uniqueName } from './resources.js';

/** Makes a connection for a check (a profile of its own); both are deleted afterwards. */
async function createConnection(context: ContractContext, body: Record<string, unknown> = {}) {
  const profile = uniqueName('auth-profile');
  const answer = await context.call('POST', '/auth/connections', {
    json: { domain: 'Login.Example.com', profile_name: profile, ...body },
  });
  const connection = context.expectSuccess<AuthConnection>(answer, 'auth.connections.create', 201);
  context.defer(() => context.call('DELETE', `/profiles/${profile}`));
  context.defer(() => context.call('DELETE', `/auth/connections/${connection.id}`));
  return connection;
}

/** Auth connections: a profile kept signed in to a site; sign-in flows followed to their end. */
export const authChecks: readonly ContractCheck[] = defineChecks('auth connections', {
  'a connection makes its profile, is unique per profile and site, and changes what is given':
    async (context) => {
      const connection = await createConnection(context);
      expect(
        connection.domain === 'login.example.com' &&
          connection.status === 'NEEDS_AUTH' &&
          connection.save_credentials &&
          connection.health_checks === true &&
          connection.can_reauth === false,
        `the new connection reads ${JSON.stringify(connection)}`,
      );
      context.expectSuccess<Profile>(
        await context.call('GET', `/profiles/${connection.profile_name}`),
        'profiles.get',
        200,
      );
      context.expectError(
        await context.call('POST', '/auth/connections', {
          json: { domain: 'login.example.com', profile_name: connection.profile_name },
        }),
        409,
        'conflict',
      );
      const changed = context.expectSuccess<AuthConnection>(
        await context.call('PATCH', `/auth/connections/${connection.id}`, {
          json: { health_check_interval: 600, allowed_domains: ['sso.example.com'] },
        }),
        'auth.connections.update',
        200,
      );
      expect(
        changed.health_check_interval === 600 &&
          JSON.stringify(changed.allowed_domains) === '["sso.example.com"]',
        `the change reads ${JSON.stringify(changed)}`,
      );
      const page = context.expectSuccess<AuthConnection[]>(
        await context.call('GET', `/auth/connections?profile_name=${connection.profile_name}`),
        'auth.connections.list',
        200,
      );
      expect(page.length === 1 && page[0]?.id === connection.id, 'the list misses the connection');
      for (const json of [
        { domain: 'not a host', profile_name: 'p' },
        { domain: 'example.com', profile_name: 'p', health_check_interval: 10 },
        { domain: 'example.com', profile_name: 'p', credential: {} },
        { domain: 'example.com', profile_name: 'p', login_url: 'ftp://example.com/' },
      ])
        context.expectError(
          await context.call('POST', '/auth/connections', { json }),
          400,
          'bad_request',
        );
      context.expectError(
        await context.call('GET', '/auth/connections/auth_nope'),
        404,
        'not_found',
      );
      context.expectError(
        await context.call('POST', `/auth/connections/${connection.id}/submit`, {
          json: { field_values: { password: 'x' } },
        }),
        409,
        'conflict',
      );
    },
  'a login runs a flow whose events end in a final state, kept in the connection and its timeline':
    async (context) => {
      // Nothing answers at this address on a real network; a fake asks for values and takes them.
      const connection = await createConnection(context, { login_url: 'http://127.0.0.1:9/login' });
      const login = context.expectSuccess<LoginResponse>(
        await context.call('POST', `/auth/connections/${connection.id}/login`),
        'auth.connections.login',
        200,
      );
      expect(
        login.id === connection.id && login.flow_type === 'LOGIN' && login.hosted_url !== '',
        `the login reads ${JSON.stringify(login)}`,
      );
      const stream = await context.stream(`/auth/connections/${connection.id}/events`);
      let last: Record<string, unknown> | undefined;
      try {
        for (let count = 0; count < 50; count++) {
          const event = (await stream.next()) as Record<string, unknown> | undefined;
          if (!event) break;
          if (event.event !== 'managed_auth_state') continue;
          last = event;
          if (event.flow_status !== 'IN_PROGRESS') break;
          if (event.flow_step === 'AWAITING_INPUT') {
            const fields = event.fields as { id: string }[];
            const answer = await context.call('POST', `/auth/connections/${connection.id}/submit`, {
              json: {
                field_values: Object.fromEntries(fields.map((field) => [field.id, 'contract'])),
              },
            });
            context.expectSuccess(answer, 'auth.connections.submit', 200);
          }
        }
      } finally {
        stream.close();
      }
      expect(
        last !== undefined && ['SUCCESS', 'FAILED'].includes(String(last.flow_status)),
        `the flow's last event reads ${JSON.stringify(last)}`,
      );
      const after = context.expectSuccess<AuthConnection>(
        await context.call('GET', `/auth/connections/${connection.id}`),
        'auth.connections.get',
        200,
      );
      expect(
        after.flow_status === last?.flow_status &&
          after.status === (last?.flow_status === 'SUCCESS' ? 'AUTHENTICATED' : 'NEEDS_AUTH'),
        `after the flow the connection reads ${JSON.stringify(after)}`,
      );
      const timeline = context.expectSuccess<AuthTimelineEvent[]>(
        await context.call('GET', `/auth/connections/${connection.id}/timeline?type=login`),
        'auth.connections.timeline',
        200,
      );
      expect(
        timeline.length === 1 && timeline[0]?.status === last?.flow_status,
        `the timeline reads ${JSON.stringify(timeline)}`,
      );
      // A flow hands out links that drive a browser: a read-only token follows no flow.
      context.expectError(
        await context.call('GET', `/auth/connections/${connection.id}/events`, {
          token: context.target.readOnlyToken,
        }),
        403,
        'forbidden',
      );
    },
});
