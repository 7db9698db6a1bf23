import { array, type InferOutput, optional, string } from 'valibot';
import { defineOperation } from '../catalog/operation.js';
import { described } from '../common/describe.js';
import { FORM_FRAMING_BYTES, LIMITS } from '../common/limits.js';
import { pageQueryEntries } from '../common/pages.js';
import { requestObject } from '../common/request-object.js';
import { IdSchema } from '../common/scalars.js';
import {
  AppVersionSchema,
  CreateDeploymentFormSchema,
  DeploymentEventSchema,
  DeploymentListSchema,
  DeploymentSchema,
  ListDeploymentsQuerySchema,
  MAX_DEPLOYMENT_ENV_VARS,
} from './deployment.js';

/** Path parameters of an operation on one deployment. */
export const DeploymentPathSchema = /* @__PURE__ */ requestObject({
  id: /* @__PURE__ */ described(IdSchema, 'deployment id'),
});

/** POST /deployments: deploys an app's code (a zip), answered once it is queued. */
export const createDeploymentOperation = /* @__PURE__ */ defineOperation({
  name: 'deployments.create',
  clusterRoute: 'here',
  summary: "Deploy an app's code: a zip of its folder, its entrypoint and version.",
  method: 'POST',
  path: '/deployments',
  body: {
    encoding: 'multipart',
    schema: CreateDeploymentFormSchema,
    maxBytes: LIMITS.extensionArchiveBytes + FORM_FRAMING_BYTES,
    maxParts: MAX_DEPLOYMENT_ENV_VARS + 8,
  },
  responses: { 201: { kind: 'json', schema: DeploymentSchema } },
  errorStatuses: [409, 413, 415],
  access: 'write',
});

/** GET /deployments: one page of the deployments (by app and version), oldest first. */
export const listDeploymentsOperation = /* @__PURE__ */ defineOperation({
  name: 'deployments.list',
  clusterRoute: 'here',
  summary: 'List the deployments.',
  paginated: true,
  method: 'GET',
  path: '/deployments',
  query: ListDeploymentsQuerySchema,
  responses: { 200: { kind: 'json', schema: DeploymentListSchema } },
  errorStatuses: [],
  access: 'read',
});

/** GET /deployments/{id}: one deployment. */
export const getDeploymentOperation = /* @__PURE__ */ defineOperation({
  name: 'deployments.get',
  clusterRoute: 'run',
  summary: 'Get a deployment.',
  method: 'GET',
  path: '/deployments/{id}',
  pathParams: DeploymentPathSchema,
  responses: { 200: { kind: 'json', schema: DeploymentSchema } },
  errorStatuses: [404],
  access: 'read',
});

/** DELETE /deployments/{id}: stops the deployment; its apps can no longer be invoked. */
export const deleteDeploymentOperation = /* @__PURE__ */ defineOperation({
  name: 'deployments.delete',
  clusterRoute: 'run',
  summary: 'Stop a deployment: its apps can no longer be invoked.',
  method: 'DELETE',
  path: '/deployments/{id}',
  pathParams: DeploymentPathSchema,
  responses: { 204: { kind: 'none' } },
  errorStatuses: [404],
  access: 'write',
});

/** GET /deployments/{id}/events: its install's log and states, until a final state. */
export const followDeploymentOperation = /* @__PURE__ */ defineOperation({
  name: 'deployments.events',
  clusterRoute: 'run',
  summary: "Follow a deployment: its install's log, its apps and its states, until it ends.",
  method: 'GET',
  path: '/deployments/{id}/events',
  pathParams: DeploymentPathSchema,
  responses: { 200: { kind: 'event-stream', eventSchema: DeploymentEventSchema } },
  errorStatuses: [404, 429],
  access: 'contents',
});

/** Query of GET /apps: a page, and filters by app and version. */
export const ListAppsQuerySchema = /* @__PURE__ */ requestObject({
  ...pageQueryEntries,
  app_name: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ string()),
    'only versions of this app',
  ),
  version: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ string()),
    'only this version',
  ),
});

/** A GET /apps query, defaults applied. */
export type ListAppsQuery = InferOutput<typeof ListAppsQuerySchema>;

/** GET /apps: the app versions deployed and running, with their actions. */
export const listAppsOperation = /* @__PURE__ */ defineOperation({
  name: 'apps.list',
  clusterRoute: 'here',
  summary: 'List the app versions that can be invoked, with their actions.',
  paginated: true,
  method: 'GET',
  path: '/apps',
  query: ListAppsQuerySchema,
  responses: { 200: { kind: 'json', schema: /* @__PURE__ */ array(AppVersionSchema) } },
  errorStatuses: [],
  access: 'read',
});
