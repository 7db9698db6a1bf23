import { defineOperation } from '../catalog/operation.js';
import { drainServerTimeMs } from '../catalog/server-time.js';
import { described } from '../common/describe.js';
import { requestObject } from '../common/request-object.js';
import { IdOrNameSchema, IdSchema } from '../common/scalars.js';
import {
  ApiKeyListSchema,
  ApiKeySchema,
  CreateApiKeyBodySchema,
  CreatedApiKeySchema,
  GetApiKeyQuerySchema,
  ListApiKeysQuerySchema,
  RotateApiKeyBodySchema,
  UpdateApiKeyBodySchema,
} from './api-key.js';
import { AuditLogListSchema, ListAuditLogsQuerySchema } from './audit-log.js';
import {
  DrainedNodeSchema,
  DrainNodeBodySchema,
  ListNodesQuerySchema,
  NodeListSchema,
} from './node.js';
import {
  CreateProjectBodySchema,
  ListProjectsQuerySchema,
  OrgLimitsSchema,
  ProjectLimitsSchema,
  ProjectListSchema,
  ProjectSchema,
  UpdateOrgLimitsBodySchema,
  UpdateProjectBodySchema,
  UpdateProjectLimitsBodySchema,
} from './project.js';

/** Path parameters of an operation on one project. */
export const ProjectPathSchema = /* @__PURE__ */ requestObject({
  id_or_name: /* @__PURE__ */ described(IdOrNameSchema, 'project id or name'),
});

/** Path parameters of an operation on one node. */
export const NodePathSchema = /* @__PURE__ */ requestObject({
  id: /* @__PURE__ */ described(IdSchema, 'node id'),
});

/** Path parameters of an operation on one API key. */
export const ApiKeyPathSchema = /* @__PURE__ */ requestObject({
  id: /* @__PURE__ */ described(IdSchema, 'API key id'),
});

/** POST /org/projects: a new, empty project. */
export const createProjectOperation = /* @__PURE__ */ defineOperation({
  name: 'projects.create',
  clusterRoute: 'here',
  summary: 'Create a project (an organization-wide key only).',
  method: 'POST',
  path: '/org/projects',
  body: { encoding: 'json', schema: CreateProjectBodySchema },
  responses: { 201: { kind: 'json', schema: ProjectSchema } },
  errorStatuses: [409],
  access: 'write',
  scope: 'org',
});

/** GET /org/projects: one page of the projects, oldest first. */
export const listProjectsOperation = /* @__PURE__ */ defineOperation({
  name: 'projects.list',
  clusterRoute: 'here',
  summary: "List the projects (a project's key sees its own).",
  paginated: true,
  method: 'GET',
  path: '/org/projects',
  query: ListProjectsQuerySchema,
  responses: { 200: { kind: 'json', schema: ProjectListSchema } },
  errorStatuses: [],
  access: 'read',
  scope: 'org',
});

/** GET /org/projects/{id_or_name}: one project. */
export const getProjectOperation = /* @__PURE__ */ defineOperation({
  name: 'projects.get',
  clusterRoute: 'here',
  summary: 'Get a project by id or name.',
  method: 'GET',
  path: '/org/projects/{id_or_name}',
  pathParams: ProjectPathSchema,
  responses: { 200: { kind: 'json', schema: ProjectSchema } },
  errorStatuses: [404],
  access: 'read',
  scope: 'org',
});

/** PATCH /org/projects/{id_or_name}: renames, archives or restores a project. */
export const updateProjectOperation = /* @__PURE__ */ defineOperation({
  name: 'projects.update',
  clusterRoute: 'here',
  summary: "Rename a project, or archive or restore it (a project's key may rename its own).",
  method: 'PATCH',
  path: '/org/projects/{id_or_name}',
  pathParams: ProjectPathSchema,
  body: { encoding: 'json', schema: UpdateProjectBodySchema },
  responses: { 200: { kind: 'json', schema: ProjectSchema } },
  errorStatuses: [404, 409],
  access: 'write',
  scope: 'org',
});

/** DELETE /org/projects/{id_or_name}: removes an empty project. */
export const deleteProjectOperation = /* @__PURE__ */ defineOperation({
  name: 'projects.delete',
  clusterRoute: 'here',
  summary: 'Delete an empty project (409 while it holds resources; the default stays).',
  method: 'DELETE',
  path: '/org/projects/{id_or_name}',
  pathParams: ProjectPathSchema,
  responses: { 204: { kind: 'none' } },
  errorStatuses: [404, 409],
  access: 'write',
  scope: 'org',
});

/** GET /org/projects/{id_or_name}/limits: a project's own caps. */
export const getProjectLimitsOperation = /* @__PURE__ */ defineOperation({
  name: 'projects.limits.get',
  clusterRoute: 'here',
  summary: "Get a project's limits (null: the organization's default applies).",
  method: 'GET',
  path: '/org/projects/{id_or_name}/limits',
  pathParams: ProjectPathSchema,
  responses: { 200: { kind: 'json', schema: ProjectLimitsSchema } },
  errorStatuses: [404],
  access: 'read',
  scope: 'org',
});

/** PATCH /org/projects/{id_or_name}/limits: changes the caps given. */
export const updateProjectLimitsOperation = /* @__PURE__ */ defineOperation({
  name: 'projects.limits.update',
  clusterRoute: 'here',
  summary: "Change a project's limits (0 or null removes one; an organization-wide key only).",
  method: 'PATCH',
  path: '/org/projects/{id_or_name}/limits',
  pathParams: ProjectPathSchema,
  body: { encoding: 'json', schema: UpdateProjectLimitsBodySchema },
  responses: { 200: { kind: 'json', schema: ProjectLimitsSchema } },
  errorStatuses: [404],
  access: 'write',
  scope: 'org',
});

/** GET /org/limits: the server's cap and the defaults of projects. */
export const getOrgLimitsOperation = /* @__PURE__ */ defineOperation({
  name: 'org.limits.get',
  clusterRoute: 'here',
  summary: "Get the organization's limits: the server's cap and projects' defaults.",
  method: 'GET',
  path: '/org/limits',
  responses: { 200: { kind: 'json', schema: OrgLimitsSchema } },
  errorStatuses: [],
  access: 'read',
  scope: 'org',
});

/** PATCH /org/limits: changes the defaults of projects. */
export const updateOrgLimitsOperation = /* @__PURE__ */ defineOperation({
  name: 'org.limits.update',
  clusterRoute: 'here',
  summary: "Change the defaults of projects' limits (an organization-wide key only).",
  method: 'PATCH',
  path: '/org/limits',
  body: { encoding: 'json', schema: UpdateOrgLimitsBodySchema },
  responses: { 200: { kind: 'json', schema: OrgLimitsSchema } },
  errorStatuses: [],
  access: 'write',
  scope: 'org',
});

/** POST /org/api_keys: a new key, shown once. */
export const createApiKeyOperation = /* @__PURE__ */ defineOperation({
  name: 'apiKeys.create',
  clusterRoute: 'here',
  summary: 'Create an API key, optionally for one project and read-only (the key is shown once).',
  method: 'POST',
  path: '/org/api_keys',
  body: { encoding: 'json', schema: CreateApiKeyBodySchema },
  responses: { 201: { kind: 'json', schema: CreatedApiKeySchema } },
  errorStatuses: [404, 409],
  access: 'write',
  scope: 'org',
});

/** GET /org/api_keys: one page of the keys, newest first, masked. */
export const listApiKeysOperation = /* @__PURE__ */ defineOperation({
  name: 'apiKeys.list',
  clusterRoute: 'here',
  summary: 'List the API keys, masked, newest first.',
  paginated: true,
  method: 'GET',
  path: '/org/api_keys',
  query: ListApiKeysQuerySchema,
  responses: { 200: { kind: 'json', schema: ApiKeyListSchema } },
  errorStatuses: [],
  access: 'read',
  scope: 'org',
});

/** GET /org/api_keys/{id}: one key, masked. */
export const getApiKeyOperation = /* @__PURE__ */ defineOperation({
  name: 'apiKeys.get',
  clusterRoute: 'here',
  summary: 'Get an API key, masked.',
  method: 'GET',
  path: '/org/api_keys/{id}',
  pathParams: ApiKeyPathSchema,
  query: GetApiKeyQuerySchema,
  responses: { 200: { kind: 'json', schema: ApiKeySchema } },
  errorStatuses: [404],
  access: 'read',
  scope: 'org',
});

/** PATCH /org/api_keys/{id}: a new label. */
export const updateApiKeyOperation = /* @__PURE__ */ defineOperation({
  name: 'apiKeys.update',
  clusterRoute: 'here',
  summary: "Change an API key's label.",
  method: 'PATCH',
  path: '/org/api_keys/{id}',
  pathParams: ApiKeyPathSchema,
  body: { encoding: 'json', schema: UpdateApiKeyBodySchema },
  responses: { 200: { kind: 'json', schema: ApiKeySchema } },
  errorStatuses: [404],
  access: 'write',
  scope: 'org',
});

/** DELETE /org/api_keys/{id}: the key is refused from the next call. */
export const deleteApiKeyOperation = /* @__PURE__ */ defineOperation({
  name: 'apiKeys.delete',
  clusterRoute: 'here',
  summary: 'Delete an API key: refused (401) from the next call (not by itself).',
  method: 'DELETE',
  path: '/org/api_keys/{id}',
  pathParams: ApiKeyPathSchema,
  responses: { 204: { kind: 'none' } },
  errorStatuses: [404, 409],
  access: 'write',
  scope: 'org',
});

/** POST /org/api_keys/{id}/rotate: a new key in its place; the old one stops. */
export const rotateApiKeyOperation = /* @__PURE__ */ defineOperation({
  name: 'apiKeys.rotate',
  clusterRoute: 'here',
  summary:
    'Rotate an API key: a new key (shown once) with its name and project; the old one stops.',
  method: 'POST',
  path: '/org/api_keys/{id}/rotate',
  pathParams: ApiKeyPathSchema,
  body: { encoding: 'json', schema: RotateApiKeyBodySchema },
  responses: { 201: { kind: 'json', schema: CreatedApiKeySchema } },
  errorStatuses: [404],
  access: 'write',
  scope: 'org',
});

/** GET /audit-logs: the writes of a time range, newest first, a page at a time. */
export const listAuditLogsOperation = /* @__PURE__ */ defineOperation({
  name: 'auditLogs.list',
  clusterRoute: 'here',
  summary:
    'List the audit log: every write, newest first, a page at a time (a project key sees its project).',
  paginated: true,
  pageToken: true,
  method: 'GET',
  path: '/audit-logs',
  query: ListAuditLogsQuerySchema,
  responses: { 200: { kind: 'json', schema: AuditLogListSchema } },
  errorStatuses: [],
  access: 'read',
  scope: 'org',
});

/** GET /org/nodes: the nodes of the service, as the node asked knows them. */
export const listNodesOperation = /* @__PURE__ */ defineOperation({
  name: 'nodes.list',
  clusterRoute: 'here',
  summary: "List the service's nodes: one for a server alone, every node of a cluster.",
  paginated: true,
  method: 'GET',
  path: '/org/nodes',
  query: ListNodesQuerySchema,
  responses: { 200: { kind: 'json', schema: NodeListSchema } },
  errorStatuses: [],
  access: 'read',
  scope: 'org',
});

/**
 * POST /org/nodes/{id}/drain: no new browser starts on the node from now until it stops (a
 * cluster places them on the others); the call may wait for its sessions in use to end.
 */
export const drainNodeOperation = /* @__PURE__ */ defineOperation({
  name: 'nodes.drain',
  clusterRoute: 'node',
  summary:
    'Drain a node for a deploy: no new browser starts on it until it stops; wait up to wait_seconds for its sessions in use to end (an organization-wide key only).',
  method: 'POST',
  path: '/org/nodes/{id}/drain',
  pathParams: NodePathSchema,
  body: { encoding: 'json', schema: DrainNodeBodySchema },
  serverTimeMs: drainServerTimeMs,
  responses: { 200: { kind: 'json', schema: DrainedNodeSchema } },
  errorStatuses: [404, 409],
  access: 'write',
  scope: 'org',
});
