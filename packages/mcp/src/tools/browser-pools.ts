import { z } from 'zod';
import { defined, jsonResult, listResult, refuseOthers, required } from '../results.js';
import { defineTool } from '../tool.js';

const ACTIONS = [
  'create',
  'update',
  'list',
  'get',
  'delete',
  'flush',
  'acquire',
  'release',
] as const;

/** `manage_browser_pools`: warm browsers, ready to hand out at once. */
export const manageBrowserPools = defineTool({
  name: 'manage_browser_pools',
  title: 'Manage browser pools',
  description: [
    'A pool keeps `size` browsers of one configuration started and waiting, so a browser is ready at once instead of after a start. Acquire one, use it as any browser (its `session_id` works with every browser tool), and release it when done.',
    '- create: a new pool (`size` required; name, fill_rate_per_minute, timeout_seconds, stealth, headless, profile, extensions, proxy_id, viewport, kiosk_mode, chrome_policy).',
    '- update: changes `pool` (the same fields); browsers already started keep what they started with.',
    '- list: one page of pools (`query`, `limit`, `offset`), with their available and acquired counts; says when more follow.',
    '- get: one pool by `pool` (id or name).',
    '- delete: removes `pool` and its idle browsers; `force` also ends the acquired ones.',
    '- flush: ends the idle browsers of `pool` so fresh ones replace them.',
    '- acquire: hands out a browser of `pool`, waiting up to `acquire_timeout_seconds` (default 30) for one to come free; returns the browser, or says none came free.',
    '- release: hands `session_id` back to `pool`; `reuse: false` ends it instead of keeping it warm.',
  ].join('\n'),
  projectScoped: true,
  annotations: {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: false,
  },
  input: {
    action: z
      .enum(ACTIONS)
      .describe('what to do: create, update, list, get, delete, flush, acquire or release'),
    pool: z
      .string()
      .optional()
      .describe('the pool, by id or name: for every action but create and list'),
    name: z.string().optional().describe('create, update: a unique name for the pool'),
    size: z.number().int().optional().describe('create (required), update: browsers kept warm'),
    fill_rate_per_minute: z
      .number()
      .int()
      .optional()
      .describe('create, update: percent of the size started per minute while filling'),
    timeout_seconds: z
      .number()
      .int()
      .optional()
      .describe('create, update: idle time before an acquired browser ends itself'),
    stealth: z.boolean().optional().describe('create, update: reduce the signs of automation'),
    headless: z.boolean().optional().describe('create, update: no screen'),
    profile: z
      .object({ id: z.string().optional(), name: z.string().optional() })
      .optional()
      .describe('create, update: a saved profile its browsers load read-only, by id or name'),
    extensions: z
      .array(z.object({ id: z.string().optional(), name: z.string().optional() }))
      .optional()
      .describe('create, update: uploaded extensions its browsers load, by id or name'),
    proxy_id: z.string().optional().describe('create, update: route traffic through this proxy'),
    viewport: z
      .object({
        width: z.number().int(),
        height: z.number().int(),
        refresh_rate: z.number().int().optional(),
      })
      .optional()
      .describe('create, update: the window size in CSS pixels'),
    kiosk_mode: z.boolean().optional().describe('create, update: no browser UI'),
    chrome_policy: z
      .record(z.string(), z.unknown())
      .optional()
      .describe('create, update: Chromium enterprise policies, as JSON'),
    query: z.string().optional().describe('list: only pools whose id or name contains this'),
    limit: z.number().int().optional().describe('list: records per page, 1–100, default 20'),
    offset: z.number().int().optional().describe('list: records to skip'),
    force: z.boolean().optional().describe('delete: also end the browsers handed out'),
    acquire_timeout_seconds: z
      .number()
      .int()
      .optional()
      .describe('acquire: seconds to wait for a browser, 0–300, default 30'),
    session_id: z.string().optional().describe('release: the acquired browser to hand back'),
    reuse: z
      .boolean()
      .optional()
      .describe('release: keep it warm for the next acquire (default true), or end it'),
  },
  async run(args, { client, call, maxTextChars }) {
    const {
      action,
      pool,
      query,
      limit,
      offset,
      force,
      acquire_timeout_seconds,
      session_id,
      reuse,
      ...config
    } = args;
    const listing = { query, limit, offset };
    const handing = { force, acquire_timeout_seconds, session_id, reuse };
    switch (action) {
      case 'create':
        refuseOthers({ pool, ...listing, ...handing }, action);
        required(args, 'size', action);
        // The client checks the body against the catalog (an extension named by id or by name).
        return jsonResult(
          await client.browserPools.create(defined(config) as never, call),
          maxTextChars,
        );
      case 'update': {
        refuseOthers({ ...listing, ...handing }, action);
        const id_or_name = required(args, 'pool', action);
        return jsonResult(
          await client.browserPools.update({ id_or_name, ...defined(config) } as never, call),
          maxTextChars,
        );
      }
      case 'list':
        refuseOthers({ pool, ...config, ...handing }, action);
        return listResult(await client.browserPools.list(defined(listing), call), maxTextChars);
      case 'get':
        refuseOthers({ ...config, ...listing, ...handing }, action);
        return jsonResult(
          await client.browserPools.get({ id_or_name: required(args, 'pool', action) }, call),
          maxTextChars,
        );
      case 'delete': {
        refuseOthers({ ...config, ...listing, acquire_timeout_seconds, session_id, reuse }, action);
        const id_or_name = required(args, 'pool', action);
        await client.browserPools.delete({ id_or_name, ...defined({ force }) }, call);
        return jsonResult({ deleted: id_or_name }, maxTextChars);
      }
      case 'flush': {
        refuseOthers({ ...config, ...listing, ...handing }, action);
        const id_or_name = required(args, 'pool', action);
        await client.browserPools.flush({ id_or_name }, call);
        return jsonResult({ flushed: id_or_name }, maxTextChars);
      }
      case 'acquire': {
        refuseOthers({ ...config, ...listing, force, session_id, reuse }, action);
        const id_or_name = required(args, 'pool', action);
        const answer = await client.browserPools.acquire(
          { id_or_name, ...defined({ acquire_timeout_seconds }) },
          call,
        );
        return jsonResult(
          answer.status === 200
            ? answer.value
            : {
                acquired: null,
                message: `No browser of pool "${id_or_name}" came free in time: try again, wait longer (acquire_timeout_seconds), or make the pool larger.`,
              },
          maxTextChars,
        );
      }
      case 'release': {
        refuseOthers({ ...config, ...listing, force, acquire_timeout_seconds }, action);
        const id_or_name = required(args, 'pool', action);
        const session = required(args, 'session_id', action);
        await client.browserPools.release(
          { id_or_name, session_id: session, ...defined({ reuse }) },
          call,
        );
        return jsonResult({ released: session, pool: id_or_name }, maxTextChars);
      }
    }
  },
});
