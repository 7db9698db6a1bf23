import { z } from 'zod';
import { defined, jsonResult, listResult, refuseOthers, required } from '../results.js';
import { defineTool } from '../tool.js';

const ACTIONS = ['list', 'get', 'create', 'update', 'delete', 'list_items', 'test'] as const;

/** `manage_credential_providers`: password managers sign-ins read logins from. */
export const manageCredentialProviders = defineTool({
  name: 'manage_credential_providers',
  title: 'Manage credential providers',
  description: [
    "A credential provider is the organization's password manager (a 1Password Connect server) that auth connections read logins from (manage_auth_connections create with credential: { provider, path } or { provider, auto: true }). It belongs to the organization, not to a project; its token is write-only: no answer shows it.",
    '- list: one page of providers (`query`, `limit`, `offset`); says when more follow.',
    '- get: one provider by `provider` (id or name).',
    '- create: a new provider (`name`, `token` required; url, cache_ttl_seconds, enabled, priority, allowed_projects).',
    '- update: changes `provider`: `name` renames it, `token` rotates it, and url, cache_ttl_seconds, enabled, priority, allowed_projects.',
    '- delete: removes `provider` and its token for good.',
    '- list_items: the login items `provider` holds: their path ("<vault>/<item>"), title and sites, never their values.',
    '- test: whether `provider` answers and takes its token, and the vaults it reaches.',
  ].join('\n'),
  annotations: {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: true,
  },
  input: {
    action: z
      .enum(ACTIONS)
      .describe('what to do: list, get, create, update, delete, list_items or test'),
    provider: z
      .string()
      .optional()
      .describe('the provider, by id or name: for get, update, delete, list_items and test'),
    name: z.string().optional().describe('create (required): a unique name; update: the new name'),
    token: z
      .string()
      .optional()
      .describe('create (required): the access token its server takes; update: a new one'),
    url: z
      .string()
      .optional()
      .describe("create, update: its server's address; default: the operator's"),
    cache_ttl_seconds: z
      .number()
      .int()
      .optional()
      .describe('create, update: seconds its lists are kept, 0–86400, default 300'),
    enabled: z
      .boolean()
      .optional()
      .describe('create, update: whether sign-ins look items up in it (default true)'),
    priority: z
      .number()
      .int()
      .optional()
      .describe('create, update: its place among providers, lower first, default 0'),
    allowed_projects: z
      .array(z.string())
      .optional()
      .describe(
        'create, update: ids of the projects whose own keys may use it (organization-wide keys always may); update replaces the list',
      ),
    query: z.string().optional().describe('list: only providers whose name contains this'),
    limit: z.number().int().optional().describe('list: records per page, 1–100, default 20'),
    offset: z.number().int().optional().describe('list: records to skip'),
  },
  async run(args, { client, call, maxTextChars }) {
    const { action, provider, query, limit, offset, ...settings } = args;
    const listing = { query, limit, offset };
    switch (action) {
      case 'list':
        refuseOthers({ provider, ...settings }, action);
        return listResult(
          await client.credentialProviders.list(defined(listing), call),
          maxTextChars,
        );
      case 'get':
        refuseOthers({ ...settings, ...listing }, action);
        return jsonResult(
          await client.credentialProviders.get(
            { id_or_name: required(args, 'provider', action) },
            call,
          ),
          maxTextChars,
        );
      case 'create':
        refuseOthers({ provider, ...listing }, action);
        return jsonResult(
          await client.credentialProviders.create(
            {
              ...defined(settings),
              name: required(args, 'name', action),
              token: required(args, 'token', action),
              provider_type: 'onepassword',
            },
            call,
          ),
          maxTextChars,
        );
      case 'update':
        refuseOthers(listing, action);
        return jsonResult(
          await client.credentialProviders.update(
            { id_or_name: required(args, 'provider', action), ...defined(settings) },
            call,
          ),
          maxTextChars,
        );
      case 'delete': {
        refuseOthers({ ...settings, ...listing }, action);
        const id_or_name = required(args, 'provider', action);
        await client.credentialProviders.delete({ id_or_name }, call);
        return jsonResult({ deleted: id_or_name }, maxTextChars);
      }
      case 'list_items':
        refuseOthers({ ...settings, ...listing }, action);
        return jsonResult(
          await client.credentialProviders.items(
            { id_or_name: required(args, 'provider', action) },
            call,
          ),
          maxTextChars,
          'it holds more items than one answer shows',
        );
      case 'test':
        refuseOthers({ ...settings, ...listing }, action);
        return jsonResult(
          await client.credentialProviders.test(
            { id_or_name: required(args, 'provider', action) },
            call,
          ),
          maxTextChars,
        );
    }
  },
});
