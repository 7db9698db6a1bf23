import { z } from 'zod';
import { defined, jsonResult, listResult, refuseOthers, required } from '../results.js';
import { defineTool } from '../tool.js';

const ACTIONS = ['create', 'list', 'get', 'rename', 'delete'] as const;

/** `manage_profiles`: saved browser state (logins, cookies) kept between sessions. */
export const manageProfiles = defineTool({
  name: 'manage_profiles',
  title: 'Manage profiles',
  description: [
    "Profiles keep a browser's logins, cookies and site data from one session to the next. Create one, start a browser with it (manage_browsers create with profile: { name, save_changes: true }), sign in there, and delete the browser: the profile then holds the sign-in for every later browser that starts with it.",
    '- create: a new, empty profile (`name` optional).',
    '- list: one page of profiles (`query` matches names and ids, `limit`, `offset`); says when more follow.',
    '- get: one profile by `profile` (id or name).',
    '- rename: gives `profile` the new `name`.',
    '- delete: removes `profile` and everything it saved, for good.',
  ].join('\n'),
  projectScoped: true,
  annotations: {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: false,
  },
  input: {
    action: z.enum(ACTIONS).describe('what to do: create, list, get, rename or delete'),
    profile: z
      .string()
      .optional()
      .describe('the profile, by id or name: for get, rename and delete'),
    name: z.string().optional().describe('create: its name; rename: the new name'),
    query: z.string().optional().describe('list: only profiles whose name or id contains this'),
    limit: z.number().int().optional().describe('list: records per page, 1–100, default 20'),
    offset: z.number().int().optional().describe('list: records to skip'),
  },
  async run(args, { client, call, maxTextChars }) {
    const { action, profile, name, query, limit, offset } = args;
    switch (action) {
      case 'create':
        refuseOthers({ profile, query, limit, offset }, action);
        return jsonResult(await client.profiles.create(defined({ name }), call), maxTextChars);
      case 'list': {
        refuseOthers({ profile, name }, action);
        return listResult(
          await client.profiles.list(defined({ query, limit, offset }), call),
          maxTextChars,
        );
      }
      case 'get':
        refuseOthers({ name, query, limit, offset }, action);
        return jsonResult(
          await client.profiles.get({ id_or_name: required(args, 'profile', action) }, call),
          maxTextChars,
        );
      case 'rename':
        refuseOthers({ query, limit, offset }, action);
        return jsonResult(
          await client.profiles.update(
            { id_or_name: required(args, 'profile', action), name: required(args, 'name', action) },
            call,
          ),
          maxTextChars,
        );
      case 'delete': {
        refuseOthers({ name, query, limit, offset }, action);
        const id_or_name = required(args, 'profile', action);
        await client.profiles.delete({ id_or_name }, call);
        return jsonResult({ deleted: id_or_name }, maxTextChars);
      }
    }
  },
});
