/**
 * The `apps` area: its records, each of its operations' input and answer as named types
 * with the descriptions of the catalog, and each operation as a function of a core
 * (`createCore`), for apps that bundle only what they call. Each function carries its route
 * (no schema), and upload and stream code only when it needs it.
 *
 * Generated from the catalog of @x/types by `pnpm --filter @x/client generate`; a test fails
 * when it falls behind. Do not edit.
 */

import { defineCall } from '../calls/define-call.js';
import type { PagePromise } from '../calls/list-page.js';
import { defineListCall } from '../calls/list-page.js';
import type { CallPromise } from '../client/call-promise.js';
import type { Core } from '../client/core.js';
import type { CallOptions } from '../client/options.js';
import type { EventStream } from '../streams/event-stream.js';
import { readStreamBody } from '../streams/read-body.js';
import { encodeUploadBody } from '../uploads/encode-body.js';
import type { UploadSource } from '../uploads/upload-source.js';

// Records

export interface AppAction {
  /** the action's name */
  name: string;
}

export interface AppVersion {
  /** the app version's id */
  id: string;
  /** the app's name */
  app_name: string;
  /** the version */
  version: string;
  /** the deployment that brought it */
  deployment: string;
  /** its actions */
  actions: AppAction[];
  /** its deployment's environment variables: names only, each value '' */
  env_vars: { [key: string]: '' };
}

export type DeploymentStatus = 'queued' | 'in_progress' | 'running' | 'failed' | 'stopped';

export interface Deployment {
  /** the deployment's id */
  id: string;
  /** when it was made (ISO 8601 UTC) */
  created_at: string;
  /** when its status last changed (ISO 8601 UTC) */
  updated_at?: string | undefined;
  /** queued, in_progress, running, failed or stopped */
  status: DeploymentStatus;
  /** why it failed or stopped */
  status_reason?: string | undefined;
  /** the app its code defines, once found (the first, when it defines several) */
  app_name?: string | undefined;
  /** the apps' version */
  version: string;
  /** the file loaded, relative to the archive root */
  entrypoint_rel_path: string;
  /** the code's environment variables: names only, each value '' */
  env_vars: { [key: string]: '' };
  /** an uploaded archive */
  source_type: 'file';
  /** SHA-256 of the archive as uploaded (lowercase hex) */
  source_checksum: string;
}

// Inputs and answers

/** What `apps.list` takes: its query parameters. */
export interface ListAppsInput {
  /** records skipped before this page, ≥ 0, default 0 */
  offset?: number | string | undefined;
  /** records on the page, 1–100, default 20 */
  limit?: number | string | undefined;
  /** only versions of this app */
  app_name?: string | undefined;
  /** only this version */
  version?: string | undefined;
}

/** What `deployments.create` takes: its form fields. */
export interface CreateDeploymentInput {
  /** zip of the app folder (package.json and its lockfile at the root) */
  file: UploadSource;
  /** the file to load, relative to the archive root (app.ts, src/index.js) */
  entrypoint_rel_path: string;
  /** the apps' version, default latest */
  version?: string | undefined;
  /**
   * replace a version deployed already (true or false)
   * @default "false"
   */
  force?: 'true' | 'false' | undefined;
  /** accepted for the peer SDK's sake and ignored: this service has one place, its own */
  region?: 'aws.us-east-1a' | undefined;
  /** the code's environment, one part per variable (env_vars[NAME]), ≤ 100 */
  env_vars?: { [key: string]: string } | undefined;
}

/** What `deployments.delete` takes: its path parameters. */
export interface DeleteDeploymentInput {
  /** deployment id */
  id: string;
}

/** What `deployments.events` takes: its path parameters. */
export interface FollowDeploymentInput {
  /** deployment id */
  id: string;
}

/** What `deployments.events` answers. */
export type FollowDeploymentResult = EventStream<
  | {
      /** a line of the install */
      event: 'log';
      /** when */
      timestamp: string;
      /** the line */
      message: string;
    }
  | {
      /** the deployment changed status */
      event: 'deployment_state';
      /** when */
      timestamp: string;
      /** the deployment as it is now */
      deployment: Deployment;
    }
  | {
      /** an app the code defines */
      event: 'app_version_summary';
      /** when */
      timestamp: string;
      /** the app version's id */
      id: string;
      /** the app's name */
      app_name: string;
      /** the version */
      version: string;
      /** the deployment that brought it */
      deployment: string;
      /** its actions */
      actions: AppAction[];
      /** its deployment's environment variables: names only, each value '' */
      env_vars: { [key: string]: '' };
    }
  | {
      /** the stream cannot go on */
      event: 'error';
      /** when */
      timestamp: string;
      /** what went wrong */
      error: {
        /** an error code */
        code: string;
        /** what went wrong */
        message: string;
      };
    }
  | {
      /** nothing changed; the stream is alive */
      event: 'sse_heartbeat';
      /** when */
      timestamp: string;
    }
>;

/** What `deployments.get` takes: its path parameters. */
export interface GetDeploymentInput {
  /** deployment id */
  id: string;
}

/** What `deployments.list` takes: its query parameters. */
export interface ListDeploymentsInput {
  /** records skipped before this page, ≥ 0, default 0 */
  offset?: number | string | undefined;
  /** records on the page, 1–100, default 20 */
  limit?: number | string | undefined;
  /** only deployments of this app */
  app_name?: string | undefined;
  /** only deployments of this version (with app_name) */
  app_version?: string | undefined;
}

// Functions

// apps

/**
 * List the app versions that can be invoked, with their actions.
 *
 * `GET /apps`: any token, read-only ones too.
 * Errors: 400, 401, 403, 429, 500, 503.
 * `apps.list`
 */
export const listApps: (
  core: Core,
  input?: ListAppsInput,
  options?: CallOptions,
) => PagePromise<AppVersion> = /* @__PURE__ */ defineListCall<ListAppsInput, AppVersion>({
  name: 'apps.list',
  method: 'GET',
  path: '/apps',
  query: ['offset', 'limit', 'app_name', 'version'],
  responses: { 200: 'json' },
  paginated: true,
});

// deployments

/**
 * Deploy an app's code: a zip of its folder, its entrypoint and version.
 *
 * `POST /deployments`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 409, 413, 415, 422, 429, 500, 503.
 * `deployments.create`
 */
export const createDeployment: (
  core: Core,
  input: CreateDeploymentInput,
  options?: CallOptions,
) => CallPromise<Deployment> = /* @__PURE__ */ defineCall<CreateDeploymentInput, Deployment>(
  {
    name: 'deployments.create',
    method: 'POST',
    path: '/deployments',
    body: 'multipart',
    responses: { 201: 'json' },
    write: true,
  },
  { encodeBody: encodeUploadBody },
);

/**
 * Stop a deployment: its apps can no longer be invoked.
 *
 * `DELETE /deployments/{id}`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 429, 500, 503.
 * `deployments.delete`
 */
export const deleteDeployment: (
  core: Core,
  input: DeleteDeploymentInput,
  options?: CallOptions,
) => CallPromise<undefined> = /* @__PURE__ */ defineCall<DeleteDeploymentInput, undefined>({
  name: 'deployments.delete',
  method: 'DELETE',
  path: '/deployments/{id}',
  responses: { 204: 'none' },
  write: true,
});

/**
 * Follow a deployment: its install's log, its apps and its states, until it ends.
 *
 * `GET /deployments/{id}/events`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 429, 500, 503.
 * `deployments.events`
 */
export const followDeployment: (
  core: Core,
  input: FollowDeploymentInput,
  options?: CallOptions,
) => CallPromise<FollowDeploymentResult> = /* @__PURE__ */ defineCall<
  FollowDeploymentInput,
  FollowDeploymentResult
>(
  {
    name: 'deployments.events',
    method: 'GET',
    path: '/deployments/{id}/events',
    responses: { 200: 'event-stream' },
  },
  { readBody: readStreamBody },
);

/**
 * Get a deployment.
 *
 * `GET /deployments/{id}`: any token, read-only ones too.
 * Errors: 400, 401, 403, 404, 429, 500, 503.
 * `deployments.get`
 */
export const getDeployment: (
  core: Core,
  input: GetDeploymentInput,
  options?: CallOptions,
) => CallPromise<Deployment> = /* @__PURE__ */ defineCall<GetDeploymentInput, Deployment>({
  name: 'deployments.get',
  method: 'GET',
  path: '/deployments/{id}',
  responses: { 200: 'json' },
});

/**
 * List the deployments.
 *
 * `GET /deployments`: any token, read-only ones too.
 * Errors: 400, 401, 403, 429, 500, 503.
 * `deployments.list`
 */
export const listDeployments: (
  core: Core,
  input?: ListDeploymentsInput,
  options?: CallOptions,
) => PagePromise<Deployment> = /* @__PURE__ */ defineListCall<ListDeploymentsInput, Deployment>({
  name: 'deployments.list',
  method: 'GET',
  path: '/deployments',
  query: ['offset', 'limit', 'app_name', 'app_version'],
  responses: { 200: 'json' },
  paginated: true,
});
