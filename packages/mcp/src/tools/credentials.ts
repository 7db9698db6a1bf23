import { z } from 'zod';
import { defined, jsonResult, listResult, refuseOthers, required } from '../results.js';
import { defineTool } from '../tool.js';

const ACTIONS = ['list', 'get', 'totp_code', 'create', 'update', 'delete'] as const;

/** `manage_credentials`: logins the service signs in with, their values write-only. */
export const manageCredentials = defineTool({
  name: 'manage_credentials',
  title: 'Manage credentials',
  description: [
    'A credential is a login for one site (username, password, …, and a TOTP secret for one-time codes) that auth connections sign in with (manage_auth_connections create with credential: { name }). Its values and TOTP secret are write-only: no answer shows them, only the names of the values and whether a secret is set.',
    '- list: one page of credentials (`domain`, `query` filter them; `limit`, `offset`); says when more follow.',
    '- get: one credential by `credential` (id or name).',
    '- totp_code: the current one-time code of `credential` and when it expires.',
    '- create: a new credential (`name`, `domain` and `values` required; sso_provider, totp_secret).',
    '- update: changes `credential`: `name` renames it, `values` adds or overwrites values, `remove_value_keys` removes some, `sso_provider`, `totp_secret` ("" removes it).',
    '- delete: removes `credential` and its values for good.',
  ].join('\n'),
  projectScoped: true,
  annotations: {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: false,
  },
  input: {
    action: z.enum(ACTIONS).describe('what to do: list, get, totp_code, create, update or delete'),
    credential: z
      .string()
      .optional()
      .describe('the credential, by id or name: for get, totp_code, update and delete'),
    name: z
      .string()
      .optional()
      .describe('create (required): its unique name; update: the new name'),
    domain: z
      .string()
      .optional()
      .describe('create (required): the site it signs in to; list: only credentials for it'),
    values: z
      .record(z.string(), z.string())
      .optional()
      .describe(
        'create (required): the values its sign-in fills, by name (username, password, …); update: values to add or overwrite',
      ),
    remove_value_keys: z.array(z.string()).optional().describe('update: names of values to remove'),
    sso_provider: z
      .string()
      .optional()
      .describe('create, update: an identity provider whose button the sign-in clicks first'),
    totp_secret: z
      .string()
      .optional()
      .describe('create, update: the base32 secret of its one-time codes; update: "" removes it'),
    query: z.string().optional().describe('list: only credentials whose name or site has this'),
    limit: z.number().int().optional().describe('list: records per page, 1–100, default 20'),
    offset: z.number().int().optional().describe('list: records to skip'),
  },
  async run(args, { client, call, maxTextChars }) {
    const {
      action,
      credential,
      name,
      domain,
      values,
      remove_value_keys,
      sso_provider,
      totp_secret,
      query,
      limit,
      offset,
    } = args;
    const writing = { values, remove_value_keys, sso_provider, totp_secret };
    const listing = { query, limit, offset };
    switch (action) {
      case 'list':
        refuseOthers({ credential, name, ...writing }, action);
        return listResult(
          await client.credentials.list(defined({ domain, ...listing }), call),
          maxTextChars,
        );
      case 'get':
        refuseOthers({ name, domain, ...writing, ...listing }, action);
        return jsonResult(
          await client.credentials.get({ id_or_name: required(args, 'credential', action) }, call),
          maxTextChars,
        );
      case 'totp_code':
        refuseOthers({ name, domain, ...writing, ...listing }, action);
        return jsonResult(
          await client.credentials.totpCode(
            { id_or_name: required(args, 'credential', action) },
            call,
          ),
          maxTextChars,
        );
      case 'create':
        refuseOthers({ credential, remove_value_keys, ...listing }, action);
        return jsonResult(
          await client.credentials.create(
            {
              name: required(args, 'name', action),
              domain: required(args, 'domain', action),
              values: required(args, 'values', action),
              ...defined({ sso_provider, totp_secret }),
            },
            call,
          ),
          maxTextChars,
        );
      case 'update':
        refuseOthers({ domain, ...listing }, action);
        return jsonResult(
          await client.credentials.update(
            { id_or_name: required(args, 'credential', action), ...defined({ name, ...writing }) },
            call,
          ),
          maxTextChars,
        );
      case 'delete': {
        refuseOthers({ name, domain, ...writing, ...listing }, action);
        const id_or_name = required(args, 'credential', action);
        await client.credentials.delete({ id_or_name }, call);
        return jsonResult({ deleted: id_or_name }, maxTextChars);
      }
    }
  },
});
