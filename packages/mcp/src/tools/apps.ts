import { z } from 'zod';
import { defined, jsonResult, listResult, refuseOthers, required } from '../results.js';
import { defineTool } from '../tool.js';

const ACTIONS = [
  'list_apps',
  'invoke',
  'get_deployment',
  'list_deployments',
  'delete_deployment',
  'get_invocation',
  'list_invocation_browsers',
] as const;

/** `manage_apps`: deployed apps, their deployments and invocations. */
export const manageApps = defineTool({
  name: 'manage_apps',
  title: 'Manage apps',
  description: [
    'Apps are code deployed to the service (with `xb deploy`), each with named actions that run in a sandbox of their own and may start browsers. Invoke an action, then follow its invocation until it ends.',
    '- list_apps: one page of the app versions that can be invoked, with their actions (`app_name`, `version` filter them; `limit`, `offset`).',
    '- invoke: runs `action_name` of `app_name` (optional `version`, default "latest"; `payload` as JSON text; `async_timeout_seconds`, default 900) in the background. Returns at once with the `invocation_id`: poll get_invocation until its status is succeeded or failed.',
    '- get_invocation: one invocation by `invocation_id`: its status, and its output or the reason it failed.',
    '- list_invocation_browsers: the browsers `invocation_id` has running; their session_id works with every browser tool.',
    '- list_deployments: one page of deployments (`app_name`, `version` filter them; `limit`, `offset`).',
    '- get_deployment: one deployment by `deployment_id`: its status, app and version.',
    '- delete_deployment: stops `deployment_id`: its apps can no longer be invoked.',
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
      .describe(
        'what to do: list_apps, invoke, get_deployment, list_deployments, delete_deployment, get_invocation or list_invocation_browsers',
      ),
    app_name: z
      .string()
      .optional()
      .describe('invoke (required): the app; list_apps, list_deployments: only this app'),
    action_name: z.string().optional().describe('invoke (required): the action to run'),
    version: z
      .string()
      .optional()
      .describe('invoke: the app version, default "latest"; list_apps, list_deployments: only it'),
    payload: z
      .string()
      .optional()
      .describe('invoke: the action\'s input as JSON text, e.g. {"url": "https://example.com"}'),
    async_timeout_seconds: z
      .number()
      .int()
      .optional()
      .describe('invoke: how long it may run, 10–3600, default 900'),
    deployment_id: z
      .string()
      .optional()
      .describe('get_deployment, delete_deployment: the deployment'),
    invocation_id: z
      .string()
      .optional()
      .describe('get_invocation, list_invocation_browsers: the invocation'),
    limit: z
      .number()
      .int()
      .optional()
      .describe('list_apps, list_deployments: records per page, 1–100, default 20'),
    offset: z.number().int().optional().describe('list_apps, list_deployments: records to skip'),
  },
  async run(args, { client, call, maxTextChars }) {
    const {
      action,
      app_name,
      action_name,
      version,
      payload,
      async_timeout_seconds,
      deployment_id,
      invocation_id,
      limit,
      offset,
    } = args;
    const invoking = { action_name, payload, async_timeout_seconds };
    const ids = { deployment_id, invocation_id };
    switch (action) {
      case 'list_apps':
        refuseOthers({ ...invoking, ...ids }, action);
        return listResult(
          await client.apps.list(defined({ app_name, version, limit, offset }), call),
          maxTextChars,
        );
      case 'invoke': {
        refuseOthers({ ...ids, limit, offset }, action);
        const { value: invocation } = await client.invocations.create(
          {
            app_name: required(args, 'app_name', action),
            action_name: required(args, 'action_name', action),
            ...defined({ version, payload, async_timeout_seconds }),
            async: true,
          },
          call,
        );
        return jsonResult(
          {
            invocation_id: invocation.id,
            status: invocation.status,
            app_name: invocation.app_name,
            action_name: invocation.action_name,
            version: invocation.version,
          },
          maxTextChars,
        );
      }
      case 'get_deployment':
        refuseOthers({ app_name, version, ...invoking, invocation_id, limit, offset }, action);
        return jsonResult(
          await client.deployments.get({ id: required(args, 'deployment_id', action) }, call),
          maxTextChars,
        );
      case 'list_deployments':
        refuseOthers({ ...invoking, ...ids }, action);
        return listResult(
          await client.deployments.list(
            defined({ app_name, app_version: version, limit, offset }),
            call,
          ),
          maxTextChars,
        );
      case 'delete_deployment': {
        refuseOthers({ app_name, version, ...invoking, invocation_id, limit, offset }, action);
        const id = required(args, 'deployment_id', action);
        await client.deployments.delete({ id }, call);
        return jsonResult({ deleted: id }, maxTextChars);
      }
      case 'get_invocation':
        refuseOthers({ app_name, version, ...invoking, deployment_id, limit, offset }, action);
        return jsonResult(
          await client.invocations.get({ id: required(args, 'invocation_id', action) }, call),
          maxTextChars,
        );
      case 'list_invocation_browsers': {
        refuseOthers({ app_name, version, ...invoking, deployment_id, limit, offset }, action);
        const { browsers } = await client.invocations.listBrowsers(
          { id: required(args, 'invocation_id', action) },
          call,
        );
        return jsonResult({ items: browsers, has_more: false }, maxTextChars);
      }
    }
  },
});
