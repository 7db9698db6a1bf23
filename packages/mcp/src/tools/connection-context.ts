import { DEFAULT_PROJECT_ID } from '@x/types';
import { jsonResult } from '../results.js';
import { defineTool } from '../tool.js';

/** Projects a context names before it says how many more there are. */
const LISTED_PROJECTS = 20;

/** `get_connection_context`: which service, which project, which projects the token sees. */
export const getConnectionContext = defineTool({
  name: 'get_connection_context',
  title: 'Connection context',
  description: [
    "Says where your calls go: the service, the project they act in (what a tool that takes `project` creates or lists is in it unless you name another) and why, and the projects your token can see (a project's API key sees only its own).",
    'Call it first when unsure which project you are in, or why a record you expect is not found.',
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
    const { baseUrl, project: chosen, token } = client.core.options;
    const page = await client.projects.list({ limit: LISTED_PROJECTS }, call);
    // A project key sees only its own project, and acts in it; a token for the organization sees
    // every project, and acts in the default one unless told otherwise.
    const only = page.items.length === 1 && !page.hasMore ? page.items[0] : undefined;
    const project = chosen
      ? await client.projects.get({ id_or_name: chosen }, call)
      : (only ?? (await client.projects.get({ id_or_name: DEFAULT_PROJECT_ID }, call)));
    return jsonResult(
      {
        service: baseUrl,
        token_ends_with: token.slice(-4),
        project: { id: project.id, name: project.name, status: project.status },
        project_chosen_by: chosen
          ? 'configuration (the project setting)'
          : only
            ? 'the token (the only project it sees)'
            : 'the service (its default project)',
        visible_projects: page.items.map((each) => ({ id: each.id, name: each.name })),
        more_projects: page.hasMore,
      },
      maxTextChars,
    );
  },
});
