import { z } from 'zod';
import { defined, jsonResult, listResult, refuseOthers, required } from '../results.js';
import { defineTool } from '../tool.js';

const ACTIONS = ['create', 'list', 'get', 'update', 'delete'] as const;

/** `manage_api_keys`: the organization's API keys. */
export const manageApiKeys = defineTool({
  name: 'manage_api_keys',
  title: 'Manage API keys',
  description: [
    "API keys for the service's API, the CLI and this MCP server: organization-wide, or for one project, and read-only if asked. Every action takes an organization-wide key.",
    '- create: a new key (`name` required; `project` it alone reaches, by id or name; `read_only`; `days_to_expire`). The answer holds the key itself in `key`: it is shown this once and never again, so hand it on now.',
    '- list: one page of keys, masked, newest first (`status`: active, deleted or all; `query`; `limit`, `offset`); says when more follow.',
    '- get: one key by `key_id`, masked (`include_deleted` for a deleted one).',
    '- update: gives `key_id` the new label `name`.',
    '- delete: revokes `key_id`: calls made with it are refused from then on.',
  ].join('\n'),
  annotations: {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: false,
  },
  input: {
    action: z.enum(ACTIONS).describe('what to do: create, list, get, update or delete'),
    key_id: z.string().optional().describe("the key's id: for get, update and delete"),
    name: z
      .string()
      .optional()
      .describe('create (required): a label; update (required): the new label'),
    project: z
      .string()
      .optional()
      .describe('create: the one project the key reaches, by id or name; default every project'),
    read_only: z.boolean().optional().describe('create: the key may only read records and metrics'),
    days_to_expire: z
      .number()
      .int()
      .optional()
      .describe('create: days until it stops working, 1–3650; default never'),
    status: z
      .enum(['active', 'deleted', 'all'])
      .optional()
      .describe('list: which keys, default active'),
    query: z
      .string()
      .optional()
      .describe('list: only keys whose id, label or project contains this'),
    limit: z.number().int().optional().describe('list: records per page, 1–100, default 20'),
    offset: z.number().int().optional().describe('list: records to skip'),
    include_deleted: z.boolean().optional().describe('get: answer for a deleted key too'),
  },
  async run(args, { client, call, maxTextChars }) {
    const {
      action,
      key_id,
      name,
      project,
      read_only,
      days_to_expire,
      status,
      query,
      limit,
      offset,
      include_deleted,
    } = args;
    const creating = { project, read_only, days_to_expire };
    const listing = { status, query, limit, offset };
    switch (action) {
      case 'create':
        refuseOthers({ key_id, ...listing, include_deleted }, action);
        return jsonResult(
          await client.apiKeys.create(
            {
              name: required(args, 'name', action),
              ...defined({ project_id: project, read_only, days_to_expire }),
            },
            call,
          ),
          maxTextChars,
        );
      case 'list':
        refuseOthers({ key_id, name, ...creating, include_deleted }, action);
        return listResult(await client.apiKeys.list(defined(listing), call), maxTextChars);
      case 'get':
        refuseOthers({ name, ...creating, ...listing }, action);
        return jsonResult(
          await client.apiKeys.get(
            { id: required(args, 'key_id', action), ...defined({ include_deleted }) },
            call,
          ),
          maxTextChars,
        );
      case 'update':
        refuseOthers({ ...creating, ...listing, include_deleted }, action);
        return jsonResult(
          await client.apiKeys.update(
            { id: required(args, 'key_id', action), name: required(args, 'name', action) },
            call,
          ),
          maxTextChars,
        );
      case 'delete': {
        refuseOthers({ name, ...creating, ...listing, include_deleted }, action);
        const id = required(args, 'key_id', action);
        await client.apiKeys.delete({ id }, call);
        return jsonResult({ deleted: id }, maxTextChars);
      }
    }
  },
});
