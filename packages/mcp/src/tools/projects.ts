import { z } from 'zod';
import { defined, jsonResult, listResult, refuseOthers, required } from '../results.js';
import { defineTool } from '../tool.js';

const ACTIONS = [
  'create',
  'list',
  'get',
  'update',
  'delete',
  'get_limits',
  'update_limits',
] as const;

/** `manage_projects`: the organization's projects and their limits. */
export const manageProjects = defineTool({
  name: 'manage_projects',
  title: 'Manage projects',
  description: [
    "Projects split the organization's browsers, profiles, pools, credentials and apps: each record lives in one project, and a project's API key reaches only its own. Other tools act in a project named by their `project` input.",
    '- create: a new, empty project (`name` required).',
    '- list: one page of the projects your token sees (`query`, `limit`, `offset`); says when more follow.',
    '- get: one project by `project` (id or name).',
    '- update: renames `project` (`name`), or archives or restores it (`status`: archived, active); an archived project takes no calls.',
    '- delete: removes `project`; refused while it holds anything. The default project stays.',
    "- get_limits: the caps of `project` (null: the organization's default applies).",
    '- update_limits: sets the caps of `project`: `max_concurrent_sessions` (browsers at once, pools included) and `max_concurrent_invocations`; 0 or null removes one.',
    'Creating, archiving, deleting and changing limits take an organization-wide key.',
  ].join('\n'),
  annotations: {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: false,
  },
  input: {
    action: z
      .enum(ACTIONS)
      .describe('what to do: create, list, get, update, delete, get_limits or update_limits'),
    project: z
      .string()
      .optional()
      .describe('the project, by id or name: for every action but create and list'),
    name: z
      .string()
      .optional()
      .describe('create (required): its unique name; update: the new name'),
    status: z
      .enum(['active', 'archived'])
      .optional()
      .describe('update: archived (no call reaches it) or active'),
    query: z.string().optional().describe('list: only projects whose id or name contains this'),
    limit: z.number().int().optional().describe('list: records per page, 1–100, default 20'),
    offset: z.number().int().optional().describe('list: records to skip'),
    max_concurrent_sessions: z
      .number()
      .int()
      .nullable()
      .optional()
      .describe('update_limits: most browsers at once; 0 or null removes the cap'),
    max_concurrent_invocations: z
      .number()
      .int()
      .nullable()
      .optional()
      .describe('update_limits: most running invocations at once; 0 or null removes the cap'),
  },
  async run(args, { client, call, maxTextChars }) {
    const {
      action,
      project,
      name,
      status,
      query,
      limit,
      offset,
      max_concurrent_sessions,
      max_concurrent_invocations,
    } = args;
    const listing = { query, limit, offset };
    const limits = { max_concurrent_sessions, max_concurrent_invocations };
    switch (action) {
      case 'create':
        refuseOthers({ project, status, ...listing, ...limits }, action);
        return jsonResult(
          await client.projects.create({ name: required(args, 'name', action) }, call),
          maxTextChars,
        );
      case 'list':
        refuseOthers({ project, name, status, ...limits }, action);
        return listResult(await client.projects.list(defined(listing), call), maxTextChars);
      case 'get':
        refuseOthers({ name, status, ...listing, ...limits }, action);
        return jsonResult(
          await client.projects.get({ id_or_name: required(args, 'project', action) }, call),
          maxTextChars,
        );
      case 'update':
        refuseOthers({ ...listing, ...limits }, action);
        return jsonResult(
          await client.projects.update(
            { id_or_name: required(args, 'project', action), ...defined({ name, status }) },
            call,
          ),
          maxTextChars,
        );
      case 'delete': {
        refuseOthers({ name, status, ...listing, ...limits }, action);
        const id_or_name = required(args, 'project', action);
        await client.projects.delete({ id_or_name }, call);
        return jsonResult({ deleted: id_or_name }, maxTextChars);
      }
      case 'get_limits':
        refuseOthers({ name, status, ...listing, ...limits }, action);
        return jsonResult(
          await client.projects.limits.get({ id_or_name: required(args, 'project', action) }, call),
          maxTextChars,
        );
      case 'update_limits':
        refuseOthers({ name, status, ...listing }, action);
        return jsonResult(
          await client.projects.limits.update(
            { id_or_name: required(args, 'project', action), ...defined(limits) },
            call,
          ),
          maxTextChars,
        );
    }
  },
});
