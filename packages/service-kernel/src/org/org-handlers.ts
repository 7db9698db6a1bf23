import type { CredentialProviderModel } from '../credentials/credential-provider-model.js';
import type { BrowserInstance } from '../engines.js';
import { pageAnswer } from '../handler.js';
import type { HandlerGroup } from '../handler-group.js';
import type { Caller } from '../pipeline/auth.js';
import { assertOrgWide } from './org-context.js';
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

/**
 * The organization's credential providers, as `caller` may reach them. Their records are the
 * organization's to read; a change, or what is in them (vaults and items), takes a key of the
 * whole organization: they serve every project, and hold other projects' logins.
 */
function providersFor<I extends BrowserInstance>(
  org: Organization<I>,
  caller: Caller,
  reach: 'records' | 'change' | 'contents' = 'records',
): CredentialProviderModel {
  if (reach === 'change') assertOrgWide(caller, 'change credential providers');
  if (reach === 'contents') assertOrgWide(caller, "read a credential provider's vaults and items");
  return org.providers;
}

/**
 * The operations on the organization: projects, their limits, API keys, the audit log, nodes,
 * credential providers. `organization` gives the service's (a fake's reset may replace it).
 */
export function orgHandlers<I extends BrowserInstance>(
  organization: () => Organization<I>,
): HandlerGroup<I, Operations> {
  return {
    'projects.create': async ({ caller, body }) => ({
      status: 201,
      json: await organization().projects.create(caller, body.name),
    }),
    'projects.list': ({ caller, query }) => pageAnswer(organization().projects.page(caller, query)),
    'projects.get': async ({ caller, params }) => ({
      status: 200,
      json: await organization().projects.get(caller, params.id_or_name),
    }),
    'projects.update': async ({ caller, params, body }) => ({
      status: 200,
      json: await organization().projects.update(caller, params.id_or_name, body),
    }),
    'projects.delete': async ({ caller, params }) => {
      await organization().projects.delete(caller, params.id_or_name);
      return { status: 204 };
    },
    'projects.limits.get': async ({ caller, params }) => ({
      status: 200,
      json: await organization().projects.limits(caller, params.id_or_name),
    }),
    'projects.limits.update': async ({ caller, params, body }) => ({
      status: 200,
      json: await organization().projects.updateLimits(caller, params.id_or_name, body),
    }),
    'org.limits.get': async () => ({
      status: 200,
      json: await organization().projects.orgLimits(),
    }),
    'org.limits.update': async ({ caller, body }) => ({
      status: 200,
      json: await organization().projects.updateOrgLimits(caller, body),
    }),
    'apiKeys.create': async ({ caller, body }) => ({
      status: 201,
      json: await organization().keys.create(caller, body),
    }),
    'apiKeys.list': ({ caller, query }) => pageAnswer(organization().keys.page(caller, query)),
    'apiKeys.get': async ({ caller, params, query }) => ({
      status: 200,
      json: await organization().keys.get(caller, params.id, query.include_deleted),
    }),
    'apiKeys.update': async ({ caller, params, body }) => ({
      status: 200,
      json: await organization().keys.update(caller, params.id, body.name),
    }),
    'apiKeys.delete': async ({ caller, params }) => {
      await organization().keys.delete(caller, params.id);
      return { status: 204 };
    },
    'apiKeys.rotate': async ({ caller, params, body }) => ({
      status: 201,
      json: await organization().keys.rotate(caller, params.id, body),
    }),
    'auditLogs.list': ({ caller, query }) => pageAnswer(organization().audit.page(caller, query)),
    'nodes.list': ({ caller, query }) => pageAnswer(organization().nodes.page(caller, query)),
    'nodes.drain': async ({ caller, params, body, signal }) => ({
      status: 200,
      json: await organization().nodes.drain(caller, params.id, body.wait_seconds, signal),
    }),
    'credentialProviders.create': async ({ caller, body }) => ({
      status: 201,
      json: await providersFor(organization(), caller, 'change').create(body),
    }),
    'credentialProviders.list': ({ caller, query }) =>
      pageAnswer(providersFor(organization(), caller).list(query)),
    'credentialProviders.get': async ({ caller, params }) => ({
      status: 200,
      json: await providersFor(organization(), caller).get(params.id_or_name),
    }),
    'credentialProviders.update': async ({ caller, params, body }) => ({
      status: 200,
      json: await providersFor(organization(), caller, 'change').update(params.id_or_name, body),
    }),
    'credentialProviders.delete': async ({ caller, params }) => {
      await providersFor(organization(), caller, 'change').delete(params.id_or_name);
      return { status: 204 };
    },
    'credentialProviders.test': async ({ caller, params }) => ({
      status: 200,
      json: await providersFor(organization(), caller, 'contents').test(params.id_or_name),
    }),
    'credentialProviders.items': async ({ caller, params }) => ({
      status: 200,
      json: {
        items: await providersFor(organization(), caller, 'contents').items(params.id_or_name),
      },
    }),
  };
}
