import { NotFoundError } from '@x/client';
import { z } from 'zod';
import { defined, jsonResult, listResult, refuseOthers, required, withLinks } from '../results.js';
import { defineTool } from '../tool.js';

const ACTIONS = ['setup', 'create', 'list', 'get', 'rename', 'delete'] as const;

/** `manage_profiles`: saved browser state (logins, cookies) kept between sessions. */
export const manageProfiles = defineTool({
  name: 'manage_profiles',
  title: 'Manage profiles',
  description: [
    "Profiles keep a browser's logins, cookies and site data from one session to the next. Create one, start a browser with it (manage_browsers create with profile: { name, save_changes: true }), sign in there, and delete the browser: the profile then holds the sign-in for every later browser that starts with it.",
    '- setup: the guided way. Starts a browser that saves into `profile` (made when no profile has that name) at `start_url`, and answers its live view: give that link to the person, who signs in there; then delete the browser (manage_browsers delete) and the profile keeps the sign-in.',
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
    action: z.enum(ACTIONS).describe('what to do: setup, create, list, get, rename or delete'),
    profile: z
      .string()
      .optional()
      .describe('the profile, by id or name: for setup, get, rename and delete'),
    start_url: z.string().optional().describe('setup: the page the person signs in on'),
    name: z.string().optional().describe('create: its name; rename: the new name'),
    query: z.string().optional().describe('list: only profiles whose name or id contains this'),
    limit: z.number().int().optional().describe('list: records per page, 1–100, default 20'),
    offset: z.number().int().optional().describe('list: records to skip'),
  },
  async run(args, { client, call, maxTextChars }) {
    const { action, profile, name, query, limit, offset, start_url } = args;
    if (action !== 'setup') refuseOthers({ start_url }, action);
    switch (action) {
      case 'setup': {
        refuseOthers({ name, query, limit, offset }, action);
        const wanted = required(args, 'profile', action);
        const kept = await client.profiles.get({ id_or_name: wanted }, call).catch((error) => {
          if (error instanceof NotFoundError) return undefined;
          throw error;
        });
        const saved = kept ?? (await client.profiles.create({ name: wanted }, call));
        const browser = await client.browsers.create(
          {
            profile: saved.name
              ? { name: saved.name, save_changes: true }
              : { id: saved.id, save_changes: true },
            ...defined({ start_url }),
          } as never,
          call,
        );
        const next = `Give the person the live view to sign in; then delete browser ${browser.session_id} (manage_browsers delete) to save the sign-in into profile "${saved.name ?? saved.id}".`;
        return withLinks(
          jsonResult(
            {
              profile: saved,
              made: kept === undefined,
              session_id: browser.session_id,
              browser_live_view_url: browser.browser_live_view_url,
              next,
            },
            maxTextChars,
          ),
          browser.browser_live_view_url
            ? [
                {
                  uri: browser.browser_live_view_url,
                  name: `Sign in for profile ${saved.name ?? saved.id}`,
                  description:
                    'The live view where the person signs in. Its URL holds a key to the browser.',
                },
              ]
            : [],
        );
      }
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
