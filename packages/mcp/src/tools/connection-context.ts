import type { AuthContext } from '@x/client';
import { jsonResult } from '../results.js';
import { defineTool } from '../tool.js';

/** Projects a context names before it says how many more there are. */
const LISTED_PROJECTS = 20;

/** Why calls act in the project they act in. */
function chosenBy(configured: string | undefined, context: AuthContext): string {
  if (context.authorization.effective_scope.project_id === null)
    return 'none: calls act across the organization';
  if (configured) return 'configuration (the project setting)';
  if (context.authorization.credential_scope.project_id !== null)
    return "the token (a project's API key acts in its project)";
  return 'the service (its default project)';
}

/**
 * `get_connection_context`: which service, who the token is, what it reaches, the project calls
 * act in and why, and the projects the token sees. The service says who calls
 * (`GET /auth/context`); nothing here is guessed.
 */
export const getConnectionContext = defineTool({
  name: 'get_connection_context',
  title: 'Connection context',
  description: [
    'Says who you are and where your calls go: the service; the principal (an API key or the operator’s token, by id and name) and its organization; whether the token may only read; the project it is limited to (`credential_scope`, null: every project); the project calls act in (what a tool that takes `project` creates or lists is in it unless you name another) and why; and the projects the token can see.',
    'Call it first when unsure which project you are in, why a record you expect is not found, or why a change is refused.',
  ].join('\n'),
  annotations: {
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  input: {},
  async run(_args, { client, signal, maxTextChars }) {
    const call = { signal };
    const { baseUrl, project: configured, token } = client.core.options;
    // The client sends the configured project with every call, this one too: the service
    // answers the project a call acts in, as it resolves it for any other call.
    const context = await client.auth.context.get({}, call);
    const { authentication, authorization } = context;
    const effective = authorization.effective_scope.project_id;
    const [project, page] = await Promise.all([
      effective === null ? undefined : client.projects.get({ id_or_name: effective }, call),
      client.projects.list({ limit: LISTED_PROJECTS }, call),
    ]);
    return jsonResult(
      {
        service: baseUrl,
        organization: context.organization,
        principal: {
          ...context.principal,
          name: authentication.credential_name,
          credential:
            authentication.auth_strategy === 'operator_token'
              ? "the operator's token"
              : 'an API key',
        },
        token_ends_with: token.slice(-4),
        read_only: authorization.read_only,
        credential_scope: authorization.credential_scope,
        project: project ? { id: project.id, name: project.name, status: project.status } : null,
        project_chosen_by: chosenBy(configured, context),
        visible_projects: page.items.map((each) => ({ id: each.id, name: each.name })),
        more_projects: page.hasMore,
      },
      maxTextChars,
    );
  },
});
