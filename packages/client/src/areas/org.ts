/**
 * The `org` area: its records, each of its operations' input and answer as named types
 * with the descriptions of the catalog, and each operation as a function of a core
 * (`createCore`), for apps that bundle only what they call. Each function carries its route
 * (no schema), and upload and stream code only when it needs it.
 *
 * Generated from the catalog of @x/types by `pnpm --filter @x/client generate`; a test fails
 * when it falls behind. Do not edit.
 */
import { drainServerTimeMs } from '@x/types';
import { defineCall } from '../calls/define-call.js';
import type { PagePromise } from '../calls/list-page.js';
import { defineListCall } from '../calls/list-page.js';
import type { CallPromise } from '../client/call-promise.js';
import type { Core } from '../client/core.js';
import type { CallOptions } from '../client/options.js';

// Records

export interface CreatedApiKey {
  /** the key's id */
  id: string;
  /** its label (not unique) */
  name: string;
  /** the key with all but its prefix and last four characters hidden */
  masked_key: string;
  /** the one project it reaches; null: every project */
  project_id: string | null;
  /** that project's name; null for an organization-wide key */
  project_name: string | null;
  /** whether it may only read records and metrics */
  read_only: boolean;
  /** when it was made (ISO 8601 UTC) */
  created_at: string;
  /** when it stops working; null: never */
  expires_at: string | null;
  /** when it was deleted or rotated away; null while it works */
  deleted_at: string | null;
  /** the key: shown only now, kept only as a hash */
  key: string;
}

export interface ApiKey {
  /** the key's id */
  id: string;
  /** its label (not unique) */
  name: string;
  /** the key with all but its prefix and last four characters hidden */
  masked_key: string;
  /** the one project it reaches; null: every project */
  project_id: string | null;
  /** that project's name; null for an organization-wide key */
  project_name: string | null;
  /** whether it may only read records and metrics */
  read_only: boolean;
  /** when it was made (ISO 8601 UTC) */
  created_at: string;
  /** when it stops working; null: never */
  expires_at: string | null;
  /** when it was deleted or rotated away; null while it works */
  deleted_at: string | null;
}

export interface AuditLogEntry {
  /** the entry's id */
  id: string;
  /** when the request arrived (UTC) */
  timestamp: string;
  /** the id of the key that called */
  key_id: string;
  /** that key's name */
  key_name: string;
  /** operator_token, api_key, or session_jwt (a session URL’s jwt, on the calls that take it) */
  auth_strategy: 'operator_token' | 'api_key' | 'session_jwt';
  /** the project it acted in; null for an organization operation */
  project_id: string | null;
  /** the HTTP method */
  method: string;
  /** the path, without its query */
  path: string;
  /** the operation it was */
  route: string;
  /** the status answered */
  status: number;
  /** where it came from */
  client_ip: string;
  /** its User-Agent */
  user_agent: string;
  /** how long it took, in ms */
  duration_ms: number;
  /** for a refused call (403): how many refused calls of this key the entry stands for, this one and those since the last entry of the key (at most one a minute) */
  count?: number | undefined;
}

export interface Node {
  /** the node's id (the tag its ids carry); `local` for a server alone */
  id: string;
  /** where the other nodes reach it (XB_NODE_URL); null for a server alone */
  url: string | null;
  /** up; draining (no new browser starts on it, its sessions go on); lost (its heartbeat lapsed) */
  state: 'up' | 'draining' | 'lost';
  /** whether it is the node that answered this call */
  is_self: boolean;
  /** the browsers it runs at most (its XB_MAX_BROWSERS) */
  max_browsers: number;
  /** the browsers it runs, pools' idle ones included (another node's as of its last heartbeat, at most 2 s old) */
  browsers: number;
}

export interface DrainedNode {
  /** the node, draining */
  node: Node;
  /** browsers still in use on it when the call answered (pools' idle ones left out): 0 means it can stop without ending a session */
  browsers_in_use: number;
}

export interface OrgLimits {
  /** most browsers the server runs at once, all projects together (read-only) */
  max_concurrent_sessions: number;
  /** the cap of a project that sets none; null: none */
  default_project_max_concurrent_sessions: number | null;
  /** the invocation cap of a project that sets none; null: none */
  default_project_max_concurrent_invocations: number | null;
}

export interface Project {
  /** the project's id */
  id: string;
  /** the project's unique name */
  name: string;
  /** active, or archived (no request reaches it) */
  status: 'active' | 'archived';
  /** when it was created (ISO 8601 UTC) */
  created_at: string;
  /** when it last changed (ISO 8601 UTC) */
  updated_at: string;
}

export interface ProjectLimits {
  /** most browsers at once, pools' sizes included; null: the organization's default */
  max_concurrent_sessions: number | null;
  /** most running invocations at once; null: the organization's default */
  max_concurrent_invocations: number | null;
}

// Inputs and answers

/** What `apiKeys.create` takes: its body fields. */
export interface CreateApiKeyInput {
  /** a label, 1–255 characters */
  name: string;
  /** the one project it reaches (id or name); absent: every project */
  project_id?: string | null | undefined;
  /** it may only read records and metrics, default false */
  read_only?: boolean | undefined;
  /** days until it stops working, 1–3650; absent or null: never */
  days_to_expire?: number | null | undefined;
}

/** What `apiKeys.delete` takes: its path parameters. */
export interface DeleteApiKeyInput {
  /** API key id */
  id: string;
}

/** What `apiKeys.get` takes: its path parameters, query parameters, side by side. */
export interface GetApiKeyInput {
  /** API key id */
  id: string;
  /** answer for a deleted key too, default false */
  include_deleted?: boolean | ('true' | 'false') | undefined;
}

/** What `apiKeys.list` takes: its query parameters. */
export interface ListApiKeysInput {
  /** records skipped before this page, ≥ 0, default 0 */
  offset?: number | string | undefined;
  /** records on the page, 1–100, default 20 */
  limit?: number | string | undefined;
  /** active (default), deleted, or all */
  status?: 'active' | 'deleted' | 'all' | undefined;
  /** only keys with exactly this label */
  name?: string | undefined;
  /** only keys whose id, label or project contains this, any case */
  query?: string | undefined;
}

/** What `apiKeys.rotate` takes: its path parameters, body fields, side by side. */
export interface RotateApiKeyInput {
  /** API key id */
  id: string;
  /** the new key's lifetime in days; absent: the old key's lifetime */
  days_to_expire?: number | null | undefined;
  /** days the old key keeps working, 0–30; absent or 0: it stops now */
  expire_in_days?: number | null | undefined;
}

/** What `apiKeys.update` takes: its path parameters, body fields, side by side. */
export interface UpdateApiKeyInput {
  /** API key id */
  id: string;
  /** the new label */
  name: string;
}

/** What `auditLogs.list` takes: its query parameters. */
export interface ListAuditLogsInput {
  /** earliest time, inclusive (ISO 8601) */
  start: string;
  /** latest time, exclusive (ISO 8601) */
  end: string;
  /** only entries of this method */
  method?: 'POST' | 'PUT' | 'PATCH' | 'DELETE' | undefined;
  /** only entries whose path, key id, key name, client IP or status contains this, any case */
  search?: string | undefined;
  /** where the last page stopped (its X-Next-Page-Token) */
  page_token?: string | undefined;
  /** entries on the page, 1–100, default 20 */
  limit?: number | string | undefined;
}

/** What `nodes.drain` takes: its path parameters, body fields, side by side. */
export interface DrainNodeInput {
  /** node id */
  id: string;
  /** how long the call waits for the node's sessions in use to end, 0–600 s, default 0 (answer at once) */
  wait_seconds?: number | undefined;
}

/** What `nodes.list` takes: its query parameters. */
export interface ListNodesInput {
  /** records skipped before this page, ≥ 0, default 0 */
  offset?: number | string | undefined;
  /** records on the page, 1–100, default 20 */
  limit?: number | string | undefined;
}

/** What `org.limits.get` takes: nothing. */
export type GetOrgLimitsInput = Record<never, never>;

/** What `org.limits.update` takes: its body fields. */
export interface UpdateOrgLimitsInput {
  /** the cap of projects that set none, 0–100000; 0 or null removes it */
  default_project_max_concurrent_sessions?: number | null | undefined;
  /** the invocation cap of projects that set none, 0–100000; 0 or null removes it */
  default_project_max_concurrent_invocations?: number | null | undefined;
}

/** What `projects.create` takes: its body fields. */
export interface CreateProjectInput {
  /** unique name, [A-Za-z0-9._-], 1–255 characters */
  name: string;
}

/** What `projects.delete` takes: its path parameters. */
export interface DeleteProjectInput {
  /** project id or name */
  id_or_name: string;
}

/** What `projects.get` takes: its path parameters. */
export interface GetProjectInput {
  /** project id or name */
  id_or_name: string;
}

/** What `projects.list` takes: its query parameters. */
export interface ListProjectsInput {
  /** records skipped before this page, ≥ 0, default 0 */
  offset?: number | string | undefined;
  /** records on the page, 1–100, default 20 */
  limit?: number | string | undefined;
  /** only the project with exactly this name */
  name?: string | undefined;
  /** only projects whose id or name contains this, any case */
  query?: string | undefined;
}

/** What `projects.update` takes: its path parameters, body fields, side by side. */
export interface UpdateProjectInput {
  /** project id or name */
  id_or_name: string;
  /** new unique name */
  name?: string | undefined;
  /** active or archived */
  status?: 'active' | 'archived' | undefined;
}

/** What `projects.limits.get` takes: its path parameters. */
export interface GetProjectLimitsInput {
  /** project id or name */
  id_or_name: string;
}

/** What `projects.limits.update` takes: its path parameters, body fields, side by side. */
export interface UpdateProjectLimitsInput {
  /** project id or name */
  id_or_name: string;
  /** most browsers at once, pools' sizes included, 0–100000; 0 or null removes the cap */
  max_concurrent_sessions?: number | null | undefined;
  /** most running invocations at once, 0–100000; 0 or null removes the cap */
  max_concurrent_invocations?: number | null | undefined;
}

// Functions

// apiKeys

/**
 * Create an API key, optionally for one project and read-only (the key is shown once).
 *
 * `POST /org/api_keys`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 409, 413, 415, 422, 429, 500, 503.
 * `apiKeys.create`
 */
export const createApiKey: (
  core: Core,
  input: CreateApiKeyInput,
  options?: CallOptions,
) => CallPromise<CreatedApiKey> = /* @__PURE__ */ defineCall<CreateApiKeyInput, CreatedApiKey>({
  name: 'apiKeys.create',
  method: 'POST',
  path: '/org/api_keys',
  body: 'json',
  responses: { 201: 'json' },
  write: true,
});

/**
 * Delete an API key: refused (401) from the next call (not by itself).
 *
 * `DELETE /org/api_keys/{id}`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 409, 429, 500, 503.
 * `apiKeys.delete`
 */
export const deleteApiKey: (
  core: Core,
  input: DeleteApiKeyInput,
  options?: CallOptions,
) => CallPromise<undefined> = /* @__PURE__ */ defineCall<DeleteApiKeyInput, undefined>({
  name: 'apiKeys.delete',
  method: 'DELETE',
  path: '/org/api_keys/{id}',
  responses: { 204: 'none' },
  write: true,
});

/**
 * Get an API key, masked.
 *
 * `GET /org/api_keys/{id}`: any token, read-only ones too.
 * Errors: 400, 401, 403, 404, 429, 500, 503.
 * `apiKeys.get`
 */
export const getApiKey: (
  core: Core,
  input: GetApiKeyInput,
  options?: CallOptions,
) => CallPromise<ApiKey> = /* @__PURE__ */ defineCall<GetApiKeyInput, ApiKey>({
  name: 'apiKeys.get',
  method: 'GET',
  path: '/org/api_keys/{id}',
  query: ['include_deleted'],
  responses: { 200: 'json' },
});

/**
 * List the API keys, masked, newest first.
 *
 * `GET /org/api_keys`: any token, read-only ones too.
 * Errors: 400, 401, 403, 429, 500, 503.
 * `apiKeys.list`
 */
export const listApiKeys: (
  core: Core,
  input?: ListApiKeysInput,
  options?: CallOptions,
) => PagePromise<ApiKey> = /* @__PURE__ */ defineListCall<ListApiKeysInput, ApiKey>({
  name: 'apiKeys.list',
  method: 'GET',
  path: '/org/api_keys',
  query: ['offset', 'limit', 'status', 'name', 'query'],
  responses: { 200: 'json' },
  paginated: true,
});

/**
 * Rotate an API key: a new key (shown once) with its name and project; the old one stops.
 *
 * `POST /org/api_keys/{id}/rotate`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 413, 415, 422, 429, 500, 503.
 * `apiKeys.rotate`
 */
export const rotateApiKey: (
  core: Core,
  input: RotateApiKeyInput,
  options?: CallOptions,
) => CallPromise<CreatedApiKey> = /* @__PURE__ */ defineCall<RotateApiKeyInput, CreatedApiKey>({
  name: 'apiKeys.rotate',
  method: 'POST',
  path: '/org/api_keys/{id}/rotate',
  body: 'json',
  bodyOptional: true,
  responses: { 201: 'json' },
  write: true,
});

/**
 * Change an API key's label.
 *
 * `PATCH /org/api_keys/{id}`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 413, 415, 429, 500, 503.
 * `apiKeys.update`
 */
export const updateApiKey: (
  core: Core,
  input: UpdateApiKeyInput,
  options?: CallOptions,
) => CallPromise<ApiKey> = /* @__PURE__ */ defineCall<UpdateApiKeyInput, ApiKey>({
  name: 'apiKeys.update',
  method: 'PATCH',
  path: '/org/api_keys/{id}',
  body: 'json',
  responses: { 200: 'json' },
  write: true,
});

// auditLogs

/**
 * List the audit log: every write, newest first, a page at a time (a project key sees its project).
 *
 * `GET /audit-logs`: any token, read-only ones too.
 * Errors: 400, 401, 403, 429, 500, 503.
 * `auditLogs.list`
 */
export const listAuditLogs: (
  core: Core,
  input: ListAuditLogsInput,
  options?: CallOptions,
) => PagePromise<AuditLogEntry> = /* @__PURE__ */ defineListCall<ListAuditLogsInput, AuditLogEntry>(
  {
    name: 'auditLogs.list',
    method: 'GET',
    path: '/audit-logs',
    query: ['start', 'end', 'method', 'search', 'page_token', 'limit'],
    responses: { 200: 'json' },
    paginated: true,
    pageToken: true,
  },
);

// nodes

/**
 * Drain a node for a deploy: no new browser starts on it until it stops; wait up to wait_seconds for its sessions in use to end (an organization-wide key only).
 *
 * `POST /org/nodes/{id}/drain`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 409, 413, 415, 422, 429, 500, 503.
 * `nodes.drain`
 */
export const drainNode: (
  core: Core,
  input: DrainNodeInput,
  options?: CallOptions,
) => CallPromise<DrainedNode> = /* @__PURE__ */ defineCall<DrainNodeInput, DrainedNode>({
  name: 'nodes.drain',
  method: 'POST',
  path: '/org/nodes/{id}/drain',
  body: 'json',
  responses: { 200: 'json' },
  write: true,
  serverTimeMs: drainServerTimeMs,
});

/**
 * List the service's nodes: one for a server alone, every node of a cluster.
 *
 * `GET /org/nodes`: any token, read-only ones too.
 * Errors: 400, 401, 403, 429, 500, 503.
 * `nodes.list`
 */
export const listNodes: (
  core: Core,
  input?: ListNodesInput,
  options?: CallOptions,
) => PagePromise<Node> = /* @__PURE__ */ defineListCall<ListNodesInput, Node>({
  name: 'nodes.list',
  method: 'GET',
  path: '/org/nodes',
  query: ['offset', 'limit'],
  responses: { 200: 'json' },
  paginated: true,
});

// org.limits

/**
 * Get the organization's limits: the server's cap and projects' defaults.
 *
 * `GET /org/limits`: any token, read-only ones too.
 * Errors: 401, 403, 429, 500, 503.
 * `org.limits.get`
 */
export const getOrgLimits: (
  core: Core,
  input?: GetOrgLimitsInput,
  options?: CallOptions,
) => CallPromise<OrgLimits> = /* @__PURE__ */ defineCall<GetOrgLimitsInput, OrgLimits>({
  name: 'org.limits.get',
  method: 'GET',
  path: '/org/limits',
  responses: { 200: 'json' },
});

/**
 * Change the defaults of projects' limits (an organization-wide key only).
 *
 * `PATCH /org/limits`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 413, 415, 429, 500, 503.
 * `org.limits.update`
 */
export const updateOrgLimits: (
  core: Core,
  input?: UpdateOrgLimitsInput,
  options?: CallOptions,
) => CallPromise<OrgLimits> = /* @__PURE__ */ defineCall<UpdateOrgLimitsInput, OrgLimits>({
  name: 'org.limits.update',
  method: 'PATCH',
  path: '/org/limits',
  body: 'json',
  responses: { 200: 'json' },
  write: true,
});

// projects

/**
 * Create a project (an organization-wide key only).
 *
 * `POST /org/projects`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 409, 413, 415, 422, 429, 500, 503.
 * `projects.create`
 */
export const createProject: (
  core: Core,
  input: CreateProjectInput,
  options?: CallOptions,
) => CallPromise<Project> = /* @__PURE__ */ defineCall<CreateProjectInput, Project>({
  name: 'projects.create',
  method: 'POST',
  path: '/org/projects',
  body: 'json',
  responses: { 201: 'json' },
  write: true,
});

/**
 * Delete an empty project (409 while it holds resources; the default stays).
 *
 * `DELETE /org/projects/{id_or_name}`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 409, 429, 500, 503.
 * `projects.delete`
 */
export const deleteProject: (
  core: Core,
  input: DeleteProjectInput,
  options?: CallOptions,
) => CallPromise<undefined> = /* @__PURE__ */ defineCall<DeleteProjectInput, undefined>({
  name: 'projects.delete',
  method: 'DELETE',
  path: '/org/projects/{id_or_name}',
  responses: { 204: 'none' },
  write: true,
});

/**
 * Get a project by id or name.
 *
 * `GET /org/projects/{id_or_name}`: any token, read-only ones too.
 * Errors: 400, 401, 403, 404, 429, 500, 503.
 * `projects.get`
 */
export const getProject: (
  core: Core,
  input: GetProjectInput,
  options?: CallOptions,
) => CallPromise<Project> = /* @__PURE__ */ defineCall<GetProjectInput, Project>({
  name: 'projects.get',
  method: 'GET',
  path: '/org/projects/{id_or_name}',
  responses: { 200: 'json' },
});

/**
 * List the projects (a project's key sees its own).
 *
 * `GET /org/projects`: any token, read-only ones too.
 * Errors: 400, 401, 403, 429, 500, 503.
 * `projects.list`
 */
export const listProjects: (
  core: Core,
  input?: ListProjectsInput,
  options?: CallOptions,
) => PagePromise<Project> = /* @__PURE__ */ defineListCall<ListProjectsInput, Project>({
  name: 'projects.list',
  method: 'GET',
  path: '/org/projects',
  query: ['offset', 'limit', 'name', 'query'],
  responses: { 200: 'json' },
  paginated: true,
});

/**
 * Rename a project, or archive or restore it (a project's key may rename its own).
 *
 * `PATCH /org/projects/{id_or_name}`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 409, 413, 415, 429, 500, 503.
 * `projects.update`
 */
export const updateProject: (
  core: Core,
  input: UpdateProjectInput,
  options?: CallOptions,
) => CallPromise<Project> = /* @__PURE__ */ defineCall<UpdateProjectInput, Project>({
  name: 'projects.update',
  method: 'PATCH',
  path: '/org/projects/{id_or_name}',
  body: 'json',
  responses: { 200: 'json' },
  write: true,
});

// projects.limits

/**
 * Get a project's limits (null: the organization's default applies).
 *
 * `GET /org/projects/{id_or_name}/limits`: any token, read-only ones too.
 * Errors: 400, 401, 403, 404, 429, 500, 503.
 * `projects.limits.get`
 */
export const getProjectLimits: (
  core: Core,
  input: GetProjectLimitsInput,
  options?: CallOptions,
) => CallPromise<ProjectLimits> = /* @__PURE__ */ defineCall<GetProjectLimitsInput, ProjectLimits>({
  name: 'projects.limits.get',
  method: 'GET',
  path: '/org/projects/{id_or_name}/limits',
  responses: { 200: 'json' },
});

/**
 * Change a project's limits (0 or null removes one; an organization-wide key only).
 *
 * `PATCH /org/projects/{id_or_name}/limits`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 413, 415, 429, 500, 503.
 * `projects.limits.update`
 */
export const updateProjectLimits: (
  core: Core,
  input: UpdateProjectLimitsInput,
  options?: CallOptions,
) => CallPromise<ProjectLimits> = /* @__PURE__ */ defineCall<
  UpdateProjectLimitsInput,
  ProjectLimits
>({
  name: 'projects.limits.update',
  method: 'PATCH',
  path: '/org/projects/{id_or_name}/limits',
  body: 'json',
  responses: { 200: 'json' },
  write: true,
});
