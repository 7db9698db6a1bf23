import { z } from 'zod';
import { defined, jsonResult, listResult, refuseOthers, required, withLinks } from '../results.js';
import { defineTool } from '../tool.js';

const ACTIONS = ['create', 'update', 'list', 'get', 'delete'] as const;

const viewport = z
  .object({
    width: z.number().int().describe('width in CSS pixels'),
    height: z.number().int().describe('height in CSS pixels'),
    refresh_rate: z.number().int().optional().describe('refresh rate in Hz'),
  })
  .passthrough();

/** `manage_browsers`: create, update, list, get and delete browser sessions. */
export const manageBrowsers = defineTool({
  name: 'manage_browsers',
  title: 'Manage browsers',
  description: [
    'Create, change, list, inspect and delete cloud browser sessions (one tool, chosen by `action`).',
    '- create: starts a browser and returns its record: `session_id` (what every other browser tool takes), `cdp_ws_url` for Playwright or Puppeteer, and `browser_live_view_url`, a page where a person can watch and drive it. Options as the API takes them: name, headless, stealth, start_url, viewport, timeout_seconds (idle time before it ends itself), profile, proxy_id, extensions, tags.',
    '- update: changes a running browser (`session_id` plus name, tags, viewport, proxy_id or timeout_seconds).',
    '- list: running browsers (`status`: active, deleted or all), one page (`limit`, `offset`); says when more follow.',
    '- get: one browser by `session_id`.',
    '- delete: ends the browser `session_id`; what it held is gone (a profile saves first when it was created with save_changes).',
    'Delete browsers you no longer need: each one holds a sandbox until it ends.',
  ].join('\n'),
  projectScoped: true,
  annotations: {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: false,
  },
  input: {
    action: z.enum(ACTIONS).describe('what to do: create, update, list, get or delete'),
    session_id: z
      .string()
      .optional()
      .describe("the browser's session_id: required for update, get and delete"),
    name: z.string().optional().describe('create, update: a name unique among running browsers'),
    headless: z
      .boolean()
      .optional()
      .describe('create: no screen (no live view, no screenshots of a desktop)'),
    stealth: z
      .boolean()
      .optional()
      .describe('create: reduce the signs of automation sites look for'),
    start_url: z.string().optional().describe('create: the page the browser opens first'),
    viewport: viewport.optional().describe('create, update: the window size'),
    timeout_seconds: z
      .number()
      .int()
      .optional()
      .describe(
        'create, update: seconds without a connection or call before the browser ends itself',
      ),
    profile: z
      .object({
        id: z.string().optional(),
        name: z.string().optional(),
        save_changes: z.boolean().optional(),
      })
      .optional()
      .describe(
        'create: start with a saved profile (logins, cookies) by id or name; save_changes saves back when it ends',
      ),
    proxy_id: z.string().optional().describe('create, update: route traffic through this proxy'),
    extensions: z
      .array(z.object({ id: z.string().optional(), name: z.string().optional() }))
      .optional()
      .describe('create: uploaded extensions to load, by id or name'),
    tags: z
      .record(z.string(), z.string())
      .optional()
      .describe('create, update: labels, key to value'),
    status: z
      .enum(['active', 'deleted', 'all'])
      .optional()
      .describe('list: which browsers, default active'),
    limit: z.number().int().optional().describe('list: records per page, 1–100, default 20'),
    offset: z.number().int().optional().describe('list: records to skip'),
  },
  async run(args, { client, call, maxTextChars }) {
    const { action, session_id, status, limit, offset, ...options } = args;
    switch (action) {
      case 'create':
        // The client checks the body against the catalog (an extension named by id or by name).
        return browserAnswer(
          await client.browsers.create(defined(options) as never, call),
          maxTextChars,
        );
      case 'update': {
        const id = required(args, 'session_id', action);
        const { name, viewport, timeout_seconds, proxy_id, tags, ...rest } = options;
        refuseOthers(rest, action);
        return jsonResult(
          await client.browsers.update(
            { id, ...defined({ name, viewport, timeout_seconds, proxy_id, tags }) },
            call,
          ),
          maxTextChars,
        );
      }
      case 'list': {
        refuseOthers({ session_id, ...options }, action);
        return listResult(
          await client.browsers.list(defined({ status, limit, offset }), call),
          maxTextChars,
        );
      }
      case 'get':
        refuseOthers(options, action);
        return browserAnswer(
          await client.browsers.get({ id: required(args, 'session_id', action) }, call),
          maxTextChars,
        );
      case 'delete': {
        refuseOthers(options, action);
        const id = required(args, 'session_id', action);
        await client.browsers.delete({ id }, call);
        return jsonResult({ deleted: id }, maxTextChars);
      }
    }
  },
});

/** A browser's record, with its live view as a resource a client can open for a person. */
function browserAnswer(
  browser: {
    session_id: string;
    browser_live_view_url?: string | null;
    deleted_at?: string | null;
  },
  maxTextChars: number,
) {
  const live = browser.deleted_at ? undefined : browser.browser_live_view_url;
  return withLinks(
    jsonResult(browser, maxTextChars),
    live
      ? [
          {
            uri: live,
            name: `Live view of ${browser.session_id}`,
            description:
              'A page where a person watches and drives this browser. Its URL holds a key to the browser: share it as you would the browser.',
          },
        ]
      : [],
  );
}
