import type {
  AuditLogEntry,
  AuthContext,
  CreatedApiKey,
  Invocation,
  Profile,
  Project,
  ServiceNode,
} from '@x/types';
import { type ContractCheck, defineChecks } from './check.js';
import { type ContractContext, expect } from './context.js';
import { deployContractApp, invoke, uniqueName } from './resources.js';

/** Creates a project for a check; it is deleted afterwards (once what it holds is gone). */
async function createProject(context: ContractContext): Promise<Project> {
  const project = context.expectSuccess<Project>(
    await context.call('POST', '/org/projects', { json: { name: uniqueName('proj') } }),
    'projects.create',
    201,
  );
  context.defer(() => context.call('DELETE', `/org/projects/${project.id}`));
  return project;
}

/** Headers naming a project. */
const inProject = (project: Project) => ({ 'x-kernel-project-id': project.id });

/** Creates an API key for a check; it is deleted afterwards. */
async function createKey(context: ContractContext, body: Record<string, unknown>) {
  const key = context.expectSuccess<CreatedApiKey>(
    await context.call('POST', '/org/api_keys', { json: { name: uniqueName('key'), ...body } }),
    'apiKeys.create',
    201,
  );
  context.defer(() => context.call('DELETE', `/org/api_keys/${key.id}`));
  return key;
}

/** Projects, API keys, limits, the audit log and the nodes. */
export const orgChecks: readonly ContractCheck[] = defineChecks('org', {
  "a project's records are not found from another, and names repeat across projects": async (
    context,
  ) => {
    const [a, b] = [await createProject(context), await createProject(context)];
    const name = uniqueName('login');
    const made: Profile[] = [];
    for (const project of [a, b]) {
      const profile = context.expectSuccess<Profile>(
        await context.call('POST', '/profiles', { json: { name }, headers: inProject(project) }),
        'profiles.create',
        201,
      );
      made.push(profile);
      context.defer(() =>
        context.call('DELETE', `/profiles/${profile.id}`, { headers: inProject(project) }),
      );
    }
    const [ofA] = made as [Profile, Profile];
    context.expectError(
      await context.call('GET', `/profiles/${ofA.id}`, { headers: inProject(b) }),
      404,
      'not_found',
    );
    context.expectError(await context.call('GET', `/profiles/${ofA.id}`), 404, 'not_found');
    const listed = context.expectSuccess<Profile[]>(
      await context.call('GET', `/profiles?name=${name}`, {
        headers: { 'x-kernel-project-id': a.name },
      }),
      'profiles.list',
      200,
    );
    expect(
      listed.length === 1 && listed[0]?.id === ofA.id,
      `project ${a.name} lists ${JSON.stringify(listed)}`,
    );
    context.expectError(await context.call('DELETE', `/org/projects/${a.id}`), 409, 'conflict');
  },
  'an unknown project is 404; the default project is neither deleted nor archived': async (
    context,
  ) => {
    context.expectError(
      await context.call('GET', '/profiles', {
        headers: { 'x-kernel-project-id': uniqueName('none') },
      }),
      404,
      'not_found',
    );
    context.expectError(await context.call('DELETE', '/org/projects/default'), 409, 'conflict');
    context.expectError(
      await context.call('PATCH', '/org/projects/default', { json: { status: 'archived' } }),
      409,
      'conflict',
    );
  },
  'a project key reaches its project only, and is 401 once deleted': async (context) => {
    const [a, b] = [await createProject(context), await createProject(context)];
    const key = await createKey(context, { project_id: a.id });
    expect(key.key.length >= 32 && key.project_id === a.id, `the key reads ${JSON.stringify(key)}`);
    const listed = await context.call('GET', '/org/api_keys?limit=100');
    expect(!listed.text.includes(key.key), 'the list of keys holds a key');
    context.expectSuccess(
      await context.call('GET', '/profiles', { token: key.key }),
      'profiles.list',
      200,
    );
    context.expectError(
      await context.call('GET', '/profiles', { token: key.key, headers: inProject(b) }),
      403,
      'forbidden',
    );
    context.expectError(
      await context.call('POST', '/org/projects', {
        token: key.key,
        json: { name: uniqueName('p') },
      }),
      403,
      'forbidden',
    );
    context.expectSuccess(
      await context.call('DELETE', `/org/api_keys/${key.id}`),
      'apiKeys.delete',
      204,
    );
    context.expectError(
      await context.call('GET', '/profiles', { token: key.key }),
      401,
      'unauthorized',
    );
  },
  "a project's limit is 429 with Retry-After, naming the limit": async (context) => {
    const project = await createProject(context);
    context.expectSuccess(
      await context.call('PATCH', `/org/projects/${project.id}/limits`, {
        json: { max_concurrent_invocations: 1 },
      }),
      'projects.limits.update',
      200,
    );
    const app = await deployContractApp(context, { headers: inProject(project) });
    const first = context.expectSuccess<Invocation>(
      await invoke(context, app, {}, inProject(project)),
      'invocations.create',
      202,
    );
    context.defer(() =>
      context.call('PATCH', `/invocations/${first.id}`, {
        json: { status: 'failed' },
        headers: inProject(project),
      }),
    );
    const refused = await invoke(context, app, {}, inProject(project));
    context.expectError(refused, 429, 'rate_limited');
    expect(refused.headers.get('retry-after') !== null, 'a 429 without Retry-After');
    expect(
      refused.text.includes('max_concurrent_invocations'),
      `the 429 does not name the limit: ${refused.text}`,
    );
  },
  'the audit log has a write just made, with its key and project, and no key in it': async (
    context,
  ) => {
    const start = new Date(Date.now() - 60_000).toISOString();
    await createProject(context);
    const end = new Date(Date.now() + 60_000).toISOString();
    const all = context.expectSuccess<AuditLogEntry[]>(
      await context.call(
        'GET',
        `/audit-logs?${new URLSearchParams({ start, end, method: 'POST', limit: '100' })}`,
      ),
      'auditLogs.list',
      200,
    );
    const made = all.find((entry) => entry.path === '/org/projects' && entry.status === 201);
    expect(
      made !== undefined && made.key_id.length > 0 && made.project_id === null,
      `no entry of the project just made in ${JSON.stringify(all.slice(0, 3))}`,
    );
    expect(!JSON.stringify(all).includes(context.target.token), 'the audit log holds a token');
  },
  'the auth context names the credential, what it reaches and the project a call acts in': async (
    context,
  ) => {
    const read = async (token?: string, project?: Project) =>
      context.expectSuccess<AuthContext>(
        await context.call('GET', '/auth/context', {
          ...(token !== undefined && { token }),
          ...(project !== undefined && { headers: inProject(project) }),
        }),
        'auth.context.get',
        200,
      );
    // The operator's token: the whole organization, acting in the default project.
    const operator = await read();
    expect(
      operator.authentication.method === 'api_key' &&
        operator.authentication.auth_strategy === 'operator_token' &&
        operator.authentication.credential_id !== null &&
        operator.principal.type === 'api_key' &&
        operator.principal.id === operator.authentication.credential_id &&
        operator.authorization.credential_scope.project_id === null &&
        operator.authorization.effective_scope.project_id === 'default' &&
        !operator.authorization.read_only &&
        operator.organization.id.length > 0,
      `the operator's context reads ${JSON.stringify(operator)}`,
    );
    expect(!JSON.stringify(operator).includes(context.target.token), 'the context holds the token');
    const project = await createProject(context);
    const named = await read(undefined, project);
    expect(
      named.authorization.effective_scope.project_id === project.id &&
        named.authorization.credential_scope.project_id === null,
      `with the project header the context reads ${JSON.stringify(named.authorization)}`,
    );
    // A read-only token may ask: it is a read.
    const readOnly = await read(context.target.readOnlyToken);
    expect(
      readOnly.authorization.read_only &&
        readOnly.authentication.credential_id !== operator.authentication.credential_id,
      `the read-only token's context reads ${JSON.stringify(readOnly)}`,
    );
    // A project key: its id, its project, and that project whatever it names.
    const key = await createKey(context, { project_id: project.id, read_only: true });
    const ofKey = await read(key.key);
    expect(
      ofKey.authentication.auth_strategy === 'api_key' &&
        ofKey.authentication.credential_id === key.id &&
        ofKey.authentication.credential_name === key.name &&
        ofKey.principal.id === key.id &&
        ofKey.principal.type === 'api_key' &&
        ofKey.authorization.credential_scope.project_id === project.id &&
        ofKey.authorization.effective_scope.project_id === project.id &&
        ofKey.authorization.read_only &&
        ofKey.organization.id === operator.organization.id,
      `the project key's context reads ${JSON.stringify(ofKey)}`,
    );
    expect(!JSON.stringify(ofKey).includes(key.key), 'the context holds the key');
    const other = await createProject(context);
    context.expectError(
      await context.call('GET', '/auth/context', { token: key.key, headers: inProject(other) }),
      403,
      'forbidden',
    );
  },
  // A drain cannot be undone, so the suite drains nothing: it checks who may, and the node list.
  'the nodes list the one that answered, up; a drain takes an organization-wide full key and a known node':
    async (context) => {
      const nodes = context.expectSuccess<ServiceNode[]>(
        await context.call('GET', '/org/nodes'),
        'nodes.list',
        200,
      );
      const own = nodes.filter((node) => node.is_self);
      expect(
        own.length === 1 && own[0]?.state === 'up' && nodes.every((n) => n.max_browsers > 0),
        `the nodes read ${JSON.stringify(nodes)}`,
      );
      const self = (own[0] as ServiceNode).id;
      const project = await createProject(context);
      const key = await createKey(context, { project_id: project.id });
      context.expectError(
        await context.call('GET', '/org/nodes', { token: key.key }),
        403,
        'forbidden',
      );
      context.expectError(
        await context.call('POST', `/org/nodes/${self}/drain`, { token: key.key, json: {} }),
        403,
        'forbidden',
      );
      context.expectError(
        await context.call('POST', `/org/nodes/${self}/drain`, {
          token: context.target.readOnlyToken,
          json: {},
        }),
        403,
        'forbidden',
      );
      context.expectError(
        await context.call('POST', '/org/nodes/no-such-node/drain', { json: {} }),
        404,
        'not_found',
      );
      context.expectError(
        await context.call('POST', `/org/nodes/${self}/drain`, { json: { wait_seconds: 601 } }),
        400,
        'bad_request',
      );
    },
});
