import type { AuthConnection, CallOptions, Client } from '@x/client';
import { z } from 'zod';
import { defined, jsonResult, listResult, refuseOthers, required } from '../results.js';
import { defineTool } from '../tool.js';

const ACTIONS = ['create', 'list', 'get', 'delete', 'login', 'submit', 'wait'] as const;

/** Seconds `wait` waits by default, and at most: below the time-out MCP clients give a call. */
const WAIT_SECONDS = { default: 30, max: 300 } as const;

/** `manage_auth_connections`: profiles kept signed in to a site. */
export const manageAuthConnections = defineTool({
  name: 'manage_auth_connections',
  title: 'Manage auth connections',
  description: [
    'An auth connection keeps a profile signed in to one site: the service signs in with a stored credential or values you submit, checks now and then that the profile is still signed in, and signs in again when it can. Browsers started with the profile are then signed in.',
    '- create: a connection for `domain` and `profile_name` (the profile is made when missing); optional credential ({name} of a stored credential, {provider, path} or {provider, auto: true}), login_url, allowed_domains, health_checks, health_check_interval, auto_reauth, save_credentials, record_session, proxy.',
    '- list: one page of connections (`domain`, `profile_name`, `query` filter them; `limit`, `offset`); says when more follow.',
    '- get: one connection by `connection_id`, with the state of its current sign-in flow.',
    '- delete: removes `connection_id` and cancels its flow; the profile stays.',
    '- login: starts a sign-in flow for `connection_id`; returns `hosted_url`, where a person can watch and finish it. Then call wait.',
    '- submit: gives a flow waiting for input (flow_step AWAITING_INPUT) the values of its `fields`, as `field_values` by field id. Then call wait.',
    '- wait: waits (up to `timeout_seconds`, default 30) until the flow of `connection_id` asks for input or ends; returns `outcome` (signed_in, awaiting_input, failed, expired, canceled, no_flow; or, when the time ran out, awaiting_person or in_progress) and the connection. A step only a person can do (AWAITING_EXTERNAL_ACTION, its external_action_message) keeps the wait going until they do it at hosted_url; get says at once what the flow waits for.',
    'Values you submit are never shown back.',
  ].join('\n'),
  projectScoped: true,
  annotations: {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: true,
  },
  input: {
    action: z
      .enum(ACTIONS)
      .describe('what to do: create, list, get, delete, login, submit or wait'),
    connection_id: z
      .string()
      .optional()
      .describe("the connection's id: for get, delete, login, submit and wait"),
    domain: z
      .string()
      .optional()
      .describe('create (required): the site, a host name; list: only connections for this site'),
    profile_name: z
      .string()
      .optional()
      .describe('create (required): the profile to keep signed in; list: only its connections'),
    credential: z
      .object({
        name: z.string().optional(),
        provider: z.string().optional(),
        path: z.string().optional(),
        auto: z.literal(true).optional(),
      })
      .optional()
      .describe(
        'create: where the values come from: {name} of a stored credential, {provider, path: "<vault>/<item>"}, or {provider, auto: true}',
      ),
    login_url: z.string().optional().describe('create: where sign-ins start'),
    allowed_domains: z
      .array(z.string())
      .optional()
      .describe('create: other sites the sign-in may pass through (an identity provider)'),
    health_checks: z
      .boolean()
      .optional()
      .describe('create: check now and then that the profile is signed in (default true)'),
    health_check_interval: z
      .number()
      .int()
      .optional()
      .describe('create: seconds between health checks, 300–86400'),
    auto_reauth: z
      .boolean()
      .optional()
      .describe('create: sign in again after a failed health check (default true)'),
    save_credentials: z
      .boolean()
      .optional()
      .describe('create: keep values typed in a flow for the next (default true)'),
    record_session: z
      .boolean()
      .optional()
      .describe('create, login: record the flow browser as a replay'),
    proxy: z
      .object({ id: z.string().optional(), name: z.string().optional() })
      .optional()
      .describe('create, login: a proxy for the flow browser, by id or name'),
    query: z.string().optional().describe('list: only connections whose site or profile has this'),
    limit: z.number().int().optional().describe('list: records per page, 1–100, default 20'),
    offset: z.number().int().optional().describe('list: records to skip'),
    field_values: z
      .record(z.string(), z.string())
      .optional()
      .describe("submit (required): values by the ids of the flow's `fields`"),
    timeout_seconds: z
      .number()
      .int()
      .min(1)
      .max(WAIT_SECONDS.max)
      .optional()
      .describe(
        `wait: seconds to wait at most, 1–${WAIT_SECONDS.max}, default ${WAIT_SECONDS.default}`,
      ),
  },
  async run(args, { client, call, maxTextChars }) {
    const {
      action,
      connection_id,
      domain,
      profile_name,
      query,
      limit,
      offset,
      field_values,
      timeout_seconds,
      record_session,
      proxy,
      ...settings
    } = args;
    const listing = { query, limit, offset };
    switch (action) {
      case 'create':
        refuseOthers({ connection_id, ...listing, field_values, timeout_seconds }, action);
        // The client checks the credential's shape against the catalog.
        return jsonResult(
          await client.auth.connections.create(
            {
              domain: required(args, 'domain', action),
              profile_name: required(args, 'profile_name', action),
              ...defined({ ...settings, record_session, proxy }),
            } as never,
            call,
          ),
          maxTextChars,
        );
      case 'list':
        refuseOthers(
          { connection_id, ...settings, record_session, proxy, field_values, timeout_seconds },
          action,
        );
        return listResult(
          await client.auth.connections.list(defined({ domain, profile_name, ...listing }), call),
          maxTextChars,
        );
      case 'get':
      case 'delete': {
        refuseOthers(
          {
            domain,
            profile_name,
            ...settings,
            record_session,
            proxy,
            ...listing,
            field_values,
            timeout_seconds,
          },
          action,
        );
        const id = required(args, 'connection_id', action);
        if (action === 'get') {
          return jsonResult(await client.auth.connections.get({ id }, call), maxTextChars);
        }
        await client.auth.connections.delete({ id }, call);
        return jsonResult({ deleted: id }, maxTextChars);
      }
      case 'login':
        refuseOthers(
          { domain, profile_name, ...settings, ...listing, field_values, timeout_seconds },
          action,
        );
        return jsonResult(
          await client.auth.connections.login(
            {
              id: required(args, 'connection_id', action),
              ...defined({ record_session, proxy }),
            } as never,
            call,
          ),
          maxTextChars,
        );
      case 'submit':
        refuseOthers(
          { domain, profile_name, ...settings, record_session, proxy, ...listing, timeout_seconds },
          action,
        );
        // The answer says only whether the flow took the values: they are never shown back.
        return jsonResult(
          await client.auth.connections.submit(
            {
              id: required(args, 'connection_id', action),
              field_values: required(args, 'field_values', action),
            },
            call,
          ),
          maxTextChars,
        );
      case 'wait': {
        refuseOthers(
          { domain, profile_name, ...settings, record_session, proxy, ...listing, field_values },
          action,
        );
        const id = required(args, 'connection_id', action);
        const seconds = timeout_seconds ?? WAIT_SECONDS.default;
        return jsonResult(await waitForFlow(client, id, seconds, call), maxTextChars);
      }
    }
  },
});

/**
 * Follows the flow of connection `id` until it asks for input or ends, or until `seconds` pass;
 * then reads the connection as it stands.
 */
async function waitForFlow(
  client: Client,
  id: string,
  seconds: number,
  call: CallOptions,
): Promise<{ outcome: string; connection: AuthConnection }> {
  const stream = await client.auth.connections.events({ id }, call);
  let isTimedOut = false;
  const timer = setTimeout(() => {
    isTimedOut = true;
    void stream.close();
  }, seconds * 1000);
  try {
    for await (const event of stream) {
      if (event.event === 'error') throw new Error(event.error.message);
      if (event.event !== 'managed_auth_state') continue;
      // A step a person does at hosted_url is what the wait is for: it goes on through it.
      if (event.flow_status !== 'IN_PROGRESS' || event.flow_step === 'AWAITING_INPUT') break;
    }
  } catch (error) {
    // Closing the stream when the time is up may break off a read: that is the time-out.
    if (!isTimedOut) throw error;
  } finally {
    clearTimeout(timer);
    await stream.close();
  }
  const connection = await client.auth.connections.get({ id }, call);
  return { outcome: outcomeOf(connection), connection };
}

/** One word for where a connection's flow stands. */
function outcomeOf(connection: AuthConnection): string {
  switch (connection.flow_status) {
    case 'SUCCESS':
      return 'signed_in';
    case 'FAILED':
    case 'EXPIRED':
    case 'CANCELED':
      return connection.flow_status.toLowerCase();
    case 'IN_PROGRESS':
      return connection.flow_step === 'AWAITING_INPUT'
        ? 'awaiting_input'
        : connection.flow_step === 'AWAITING_EXTERNAL_ACTION'
          ? 'awaiting_person'
          : 'in_progress';
    default:
      return 'no_flow';
  }
}
