import { z } from 'zod';
import { defined, jsonResult, listResult, refuseOthers, required } from '../results.js';
import { defineTool } from '../tool.js';

const ACTIONS = ['create', 'list', 'get', 'rename', 'check', 'delete'] as const;

/** `manage_proxies`: proxies browsers route their traffic through. */
export const manageProxies = defineTool({
  name: 'manage_proxies',
  title: 'Manage proxies',
  description: [
    "Proxies the browsers' traffic goes through: one you run or rent, given by host and port. A browser or pool uses one by its `proxy_id` (manage_browsers create with proxy_id).",
    '- create: a new proxy (`host` and `port` required; name, protocol, username, password, bypass_hosts). The password is write-only: answers only say whether one is set.',
    '- list: one page of proxies (`limit`, `offset`); says when more follow.',
    '- get: one proxy by `proxy_id`.',
    '- rename: gives `proxy_id` the new `name`.',
    '- check: reaches a site through `proxy_id` now; returns the proxy with its status (available or unavailable) and the address sites see.',
    '- delete: removes `proxy_id`; refused while a browser uses it unless `force`.',
  ].join('\n'),
  projectScoped: true,
  annotations: {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: true,
  },
  input: {
    action: z.enum(ACTIONS).describe('what to do: create, list, get, rename, check or delete'),
    proxy_id: z.string().optional().describe("the proxy's id: for get, rename, check and delete"),
    name: z.string().optional().describe('create: a unique name; rename: the new name'),
    host: z.string().optional().describe('create: host name or IP address, without scheme'),
    port: z.number().int().optional().describe('create: port, 1–65535'),
    protocol: z
      .enum(['http', 'https'])
      .optional()
      .describe('create: http, or https (TLS to the proxy); default http'),
    username: z.string().optional().describe('create: the username the proxy asks for'),
    password: z.string().optional().describe('create: the password the proxy asks for'),
    bypass_hosts: z
      .array(z.string())
      .optional()
      .describe('create: hosts reached directly (example.com, *.example.com)'),
    limit: z.number().int().optional().describe('list: records per page, 1–100, default 20'),
    offset: z.number().int().optional().describe('list: records to skip'),
    force: z.boolean().optional().describe('delete: even while browsers use it'),
  },
  async run(args, { client, call, maxTextChars }) {
    const { action, proxy_id, name, limit, offset, force, ...proxy } = args;
    switch (action) {
      case 'create': {
        refuseOthers({ proxy_id, limit, offset, force }, action);
        const { username, password, protocol, bypass_hosts } = proxy;
        return jsonResult(
          await client.proxies.create(
            {
              // A self-hosted server routes through proxies the operator provides: custom only.
              type: 'custom',
              config: {
                host: required(args, 'host', action),
                port: required(args, 'port', action),
                ...defined({ username, password }),
              },
              ...defined({ name, protocol, bypass_hosts }),
            },
            call,
          ),
          maxTextChars,
        );
      }
      case 'list':
        refuseOthers({ proxy_id, name, force, ...proxy }, action);
        return listResult(
          await client.proxies.list(defined({ limit, offset }), call),
          maxTextChars,
        );
      case 'get':
        refuseOthers({ name, limit, offset, force, ...proxy }, action);
        return jsonResult(
          await client.proxies.get({ id: required(args, 'proxy_id', action) }, call),
          maxTextChars,
        );
      case 'rename':
        refuseOthers({ limit, offset, force, ...proxy }, action);
        return jsonResult(
          await client.proxies.update(
            { id: required(args, 'proxy_id', action), name: required(args, 'name', action) },
            call,
          ),
          maxTextChars,
        );
      case 'check':
        refuseOthers({ name, limit, offset, force, ...proxy }, action);
        return jsonResult(
          await client.proxies.check({ id: required(args, 'proxy_id', action) }, call),
          maxTextChars,
        );
      case 'delete': {
        refuseOthers({ name, limit, offset, ...proxy }, action);
        const id = required(args, 'proxy_id', action);
        await client.proxies.delete({ id, ...defined({ force }) }, call);
        return jsonResult({ deleted: id }, maxTextChars);
      }
    }
  },
});
