import type { BrowserInstance } from '../engines.js';
import { pageAnswer } from '../handler.js';
import type { HandlerGroup } from '../handler-group.js';
import { ServiceError } from '../service-error.js';
import type { ServiceModel } from '../service-model.js';
import type { Organization } from './organization.js';

type Operations =
  | 'projects.create'
  | 'projects.list'
  | 'projects.get'
  | 'projects.update'
  | 'projects.delete'
  | 'projects.limits.get'
  | 'projects.limits.update'
  | 'org.limits.get'
  | 'org.limits.update'
  | 'apiKeys.create'
  | 'apiKeys.list'
  | 'apiKeys.get'
  | 'apiKeys.update'
  | 'apiKeys.delete'
  | 'apiKeys.rotate'
  | 'auditLogs.list'
  | 'nodes.list'
  | 'nodes.drain'
  | 'credentialProviders.create'
  | 'credentialProviders.list'
  | 'credentialProviders.get'
  | 'credentialProviders.update'
  | 'credentialProviders.delete'
  | 'credentialProviders.test'
  | 'credentialProviders.items';

/** The organization a model belongs to; a model on its own has none to answer with. */
function orgOf<I extends BrowserInstance>(model: ServiceModel<I>): Organization<I> {
  if (!model.org) throw new ServiceError('not_found', 'This service has no organization.');
  return model.org;
}

/** The operations on the organization: projects, their limits, API keys, the audit log, nodes. */
export function orgHandlers<I extends BrowserInstance>(): HandlerGroup<I, Operations> {
  return {
    'projects.create': async ({ runtime, caller, body }) => ({
      status: 201,
      json: await orgOf(runtime).createProject(caller, body.name),
    }),
    'projects.list': ({ runtime, caller, query }) =>
      pageAnswer(orgOf(runtime).pageOfProjects(caller, query)),
    'projects.get': async ({ runtime, caller, params }) => ({
      status: 200,
      json: await orgOf(runtime).getProject(caller, params.id_or_name),
    }),
    'projects.update': async ({ runtime, caller, params, body }) => ({
      status: 200,
      json: await orgOf(runtime).updateProject(caller, params.id_or_name, body),
    }),
    'projects.delete': async ({ runtime, caller, params }) => {
      await orgOf(runtime).deleteProject(caller, params.id_or_name);
      return { status: 204 };
    },
    'projects.limits.get': async ({ runtime, caller, params }) => ({
      status: 200,
      json: await orgOf(runtime).projectLimits(caller, params.id_or_name),
    }),
    'projects.limits.update': async ({ runtime, caller, params, body }) => ({
      status: 200,
      json: await orgOf(runtime).updateProjectLimits(caller, params.id_or_name, body),
    }),
    'org.limits.get': async ({ runtime }) => ({
      status: 200,
      json: await orgOf(runtime).orgLimits(),
    }),
    'org.limits.update': async ({ runtime, caller, body }) => ({
      status: 200,
      json: await orgOf(runtime).updateOrgLimits(caller, body),
    }),
    'apiKeys.create': async ({ runtime, caller, body }) => ({
      status: 201,
      json: await orgOf(runtime).createKey(caller, body),
    }),
    'apiKeys.list': ({ runtime, caller, query }) =>
      pageAnswer(orgOf(runtime).pageOfKeys(caller, query)),
    'apiKeys.get': async ({ runtime, caller, params, query }) => ({
      status: 200,
      json: await orgOf(runtime).getKey(caller, params.id, query.include_deleted),
    }),
    'apiKeys.update': async ({ runtime, caller, params, body }) => ({
      status: 200,
      json: await orgOf(runtime).updateKey(caller, params.id, body.name),
    }),
    'apiKeys.delete': async ({ runtime, caller, params }) => {
      await orgOf(runtime).deleteKey(caller, params.id);
      return { status: 204 };
    },
    'apiKeys.rotate': async ({ runtime, caller, params, body }) => ({
      status: 201,
      json: await orgOf(runtime).rotateKey(caller, params.id, body),
    }),
    'auditLogs.list': ({ runtime, caller, query }) =>
      pageAnswer(orgOf(runtime).pageOfAudit(caller, query)),
    'nodes.list': ({ runtime, caller, query }) =>
      pageAnswer(orgOf(runtime).pageOfNodes(caller, query)),
    'nodes.drain': async ({ runtime, caller, params, body, signal }) => ({
      status: 200,
      json: await orgOf(runtime).drainNode(caller, params.id, body.wait_seconds, signal),
    }),
    'credentialProviders.create': async ({ runtime, caller, body }) => ({
      status: 201,
      json: await orgOf(runtime).credentialProviders(caller, 'change').create(body),
    }),
    'credentialProviders.list': ({ runtime, caller, query }) =>
      pageAnswer(orgOf(runtime).credentialProviders(caller).list(query)),
    'credentialProviders.get': async ({ runtime, caller, params }) => ({
      status: 200,
      json: await orgOf(runtime).credentialProviders(caller).get(params.id_or_name),
    }),
    'credentialProviders.update': async ({ runtime, caller, params, body }) => ({
      status: 200,
      json: await orgOf(runtime)
        .credentialProviders(caller, 'change')
        .update(params.id_or_name, body),
    }),
    'credentialProviders.delete': async ({ runtime, caller, params }) => {
      await orgOf(runtime).credentialProviders(caller, 'change').delete(params.id_or_name);
      return { status: 204 };
    },
    'credentialProviders.test': async ({ runtime, caller, params }) => ({
      status: 200,
      json: await orgOf(runtime).credentialProviders(caller, 'contents').test(params.id_or_name),
    }),
    'credentialProviders.items': async ({ runtime, caller, params }) => ({
      status: 200,
      json: {
        items: await orgOf(runtime)
          .credentialProviders(caller, 'contents')
          .items(params.id_or_name),
      },
    }),
  };
}
