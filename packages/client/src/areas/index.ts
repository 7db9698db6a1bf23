/**
 * Every area's records, inputs, answers and functions, and the client's methods grouped as
 * the API is.
 *
 * Generated from the catalog of @x/types by `pnpm --filter @x/client generate`; a test fails
 * when it falls behind. Do not edit.
 */

import type { PagePromise } from '../calls/list-page.js';
import type { CallPromise } from '../client/call-promise.js';
import type { CallOptions } from '../client/options.js';
import type { BinaryBody } from '../streams/binary-body.js';
import type { EventStream } from '../streams/event-stream.js';
import type {
  AppVersion,
  CreateDeploymentInput,
  DeleteDeploymentInput,
  Deployment,
  FollowDeploymentInput,
  FollowDeploymentResult,
  GetDeploymentInput,
  ListAppsInput,
  ListDeploymentsInput,
} from './apps.js';
import {
  createDeployment,
  deleteDeployment,
  followDeployment,
  getDeployment,
  listApps,
  listDeployments,
} from './apps.js';
import type {
  AuthConnection,
  AuthConnectionTimelineInput,
  AuthContext,
  AuthTimelineEvent,
  CreateAuthConnectionInput,
  DeleteAuthConnectionInput,
  FollowAuthConnectionInput,
  FollowAuthConnectionResult,
  GetAuthConnectionInput,
  GetAuthContextInput,
  ListAuthConnectionsInput,
  LoginAuthConnectionInput,
  LoginResponse,
  SubmitAuthConnectionInput,
  SubmitResponse,
  UpdateAuthConnectionInput,
} from './auth.js';
import {
  authConnectionTimeline,
  createAuthConnection,
  deleteAuthConnection,
  followAuthConnection,
  getAuthConnection,
  getAuthContext,
  listAuthConnections,
  loginAuthConnection,
  submitAuthConnection,
  updateAuthConnection,
} from './auth.js';
import type {
  AcquireBrowserInput,
  AcquireBrowserResult,
  BrowserPool,
  CreateBrowserPoolInput,
  DeleteBrowserPoolInput,
  FlushBrowserPoolInput,
  GetBrowserPoolInput,
  ListBrowserPoolsInput,
  ReleaseBrowserInput,
  UpdateBrowserPoolInput,
} from './browser-pools.js';
import {
  acquireBrowser,
  createBrowserPool,
  deleteBrowserPool,
  flushBrowserPool,
  getBrowserPool,
  listBrowserPools,
  releaseBrowser,
  updateBrowserPool,
} from './browser-pools.js';
import type {
  BrowserSession,
  CreateBrowserInput,
  DeleteBrowserInput,
  GetBrowserInput,
  ListBrowsersInput,
  UpdateBrowserInput,
} from './browsers.js';
import {
  createBrowser,
  deleteBrowser,
  getBrowser,
  listBrowsers,
  updateBrowser,
} from './browsers.js';
import type {
  BatchInput,
  ClickMouseInput,
  ClipboardText,
  CursorResult,
  DragMouseInput,
  GetMousePositionInput,
  MousePosition,
  MoveMouseInput,
  PressKeyInput,
  ReadClipboardInput,
  ScreenshotInput,
  ScrollInput,
  SetCursorVisibilityInput,
  TypeTextInput,
  WriteClipboardInput,
} from './computer.js';
import {
  batch,
  clickMouse,
  dragMouse,
  getMousePosition,
  moveMouse,
  pressKey,
  readClipboard,
  screenshot,
  scroll,
  setCursorVisibility,
  typeText,
  writeClipboard,
} from './computer.js';
import type {
  CreateCredentialInput,
  CreateCredentialProviderInput,
  Credential,
  CredentialProvider,
  CredentialProviderItems,
  CredentialProviderTestResult,
  DeleteCredentialInput,
  DeleteCredentialProviderInput,
  GetCredentialInput,
  GetCredentialProviderInput,
  GetTotpCodeInput,
  ListCredentialProviderItemsInput,
  ListCredentialProvidersInput,
  ListCredentialsInput,
  TestCredentialProviderInput,
  TotpCode,
  UpdateCredentialInput,
  UpdateCredentialProviderInput,
} from './credentials.js';
import {
  createCredential,
  createCredentialProvider,
  deleteCredential,
  deleteCredentialProvider,
  getCredential,
  getCredentialProvider,
  getTotpCode,
  listCredentialProviderItems,
  listCredentialProviders,
  listCredentials,
  testCredentialProvider,
  updateCredential,
  updateCredentialProvider,
} from './credentials.js';
import type { CurlInput, CurlResult } from './curl.js';
import { curl } from './curl.js';
import type {
  DeleteExtensionInput,
  DownloadExtensionInput,
  Extension,
  GetExtensionMetadataInput,
  ListExtensionsInput,
  LoadExtensionsInput,
  LoadedExtensions,
  UploadExtensionInput,
} from './extensions.js';
import {
  deleteExtension,
  downloadExtension,
  getExtensionMetadata,
  listExtensions,
  loadExtensions,
  uploadExtension,
} from './extensions.js';
import type {
  CreateDirectoryInput,
  DeleteDirectoryInput,
  DeleteFileInput,
  DownloadDirZipInput,
  FileEntry,
  FileInfoInput,
  ListFilesInput,
  MoveFileInput,
  ReadFileInput,
  SetFilePermissionsInput,
  UploadFilesInput,
  UploadZipInput,
  WriteFileInput,
} from './files.js';
import {
  createDirectory,
  deleteDirectory,
  deleteFile,
  downloadDirZip,
  fileInfo,
  listFiles,
  moveFile,
  readFile,
  setFilePermissions,
  uploadFiles,
  uploadZip,
  writeFile,
} from './files.js';
import type {
  StartWatchInput,
  StopWatchInput,
  Watch,
  WatchEvent,
  WatchEventsInput,
} from './fs-watch.js';
import { startWatch, stopWatch, watchEvents } from './fs-watch.js';
import type {
  CreateInvocationInput,
  CreateInvocationResult,
  DeleteInvocationBrowsersInput,
  FollowInvocationInput,
  FollowInvocationResult,
  GetInvocationInput,
  Invocation,
  InvocationBrowsers,
  ListInvocationBrowsersInput,
  ListInvocationsInput,
  UpdateInvocationInput,
} from './invocations.js';
import {
  createInvocation,
  deleteInvocationBrowsers,
  followInvocation,
  getInvocation,
  listInvocationBrowsers,
  listInvocations,
  updateInvocation,
} from './invocations.js';
import type { CreateLiveViewInput, LiveView } from './live-view.js';
import { createLiveView } from './live-view.js';
import type { LogEvent, StreamLogsInput } from './logs.js';
import { streamLogs } from './logs.js';
import type {
  ApiKey,
  AuditLogEntry,
  CreateApiKeyInput,
  CreatedApiKey,
  CreateProjectInput,
  DeleteApiKeyInput,
  DeleteProjectInput,
  DrainedNode,
  DrainNodeInput,
  GetApiKeyInput,
  GetOrgLimitsInput,
  GetProjectInput,
  GetProjectLimitsInput,
  ListApiKeysInput,
  ListAuditLogsInput,
  ListNodesInput,
  ListProjectsInput,
  Node,
  OrgLimits,
  Project,
  ProjectLimits,
  RotateApiKeyInput,
  UpdateApiKeyInput,
  UpdateOrgLimitsInput,
  UpdateProjectInput,
  UpdateProjectLimitsInput,
} from './org.js';
import {
  createApiKey,
  createProject,
  deleteApiKey,
  deleteProject,
  drainNode,
  getApiKey,
  getOrgLimits,
  getProject,
  getProjectLimits,
  listApiKeys,
  listAuditLogs,
  listNodes,
  listProjects,
  rotateApiKey,
  updateApiKey,
  updateOrgLimits,
  updateProject,
  updateProjectLimits,
} from './org.js';
import type { ExecutePlaywrightInput, PlaywrightExecuteResult } from './playwright.js';
import { executePlaywright } from './playwright.js';
import type {
  ExecProcessInput,
  ExecResult,
  GetProcessStatusInput,
  KillProcessInput,
  KillResult,
  ProcessOutputEvent,
  ProcessStatus,
  ProcessStdinResult,
  ResizeProcessInput,
  SpawnedProcess,
  SpawnProcessInput,
  StreamProcessOutputInput,
  WriteProcessStdinInput,
} from './processes.js';
import {
  execProcess,
  getProcessStatus,
  killProcess,
  resizeProcess,
  spawnProcess,
  streamProcessOutput,
  writeProcessStdin,
} from './processes.js';
import type {
  CreateProfileInput,
  DeleteProfileInput,
  DownloadProfileInput,
  GetProfileInput,
  ListProfilesInput,
  Profile,
  UpdateProfileInput,
} from './profiles.js';
import {
  createProfile,
  deleteProfile,
  downloadProfile,
  getProfile,
  listProfiles,
  updateProfile,
} from './profiles.js';
import type {
  CheckProxyInput,
  CreateProxyInput,
  DeleteProxyInput,
  GetProxyInput,
  ListProxiesInput,
  ProxyConfig,
  UpdateProxyInput,
} from './proxies.js';
import {
  checkProxy,
  createProxy,
  deleteProxy,
  getProxy,
  listProxies,
  updateProxy,
} from './proxies.js';
import type {
  DownloadReplayInput,
  DownloadReplayResult,
  ListReplaysInput,
  Replay,
  StartReplayInput,
  StopReplayInput,
} from './replays.js';
import { downloadReplay, listReplays, startReplay, stopReplay } from './replays.js';
import type {
  ListTelemetryEventsInput,
  StreamTelemetryInput,
  TelemetryEnvelope,
} from './telemetry.js';
import { listTelemetryEvents, streamTelemetry } from './telemetry.js';

export type { ErrorBody, ErrorDetail } from '../calls/error-body.js';
export * from './apps.js';
export * from './auth.js';
export * from './browser-pools.js';
export * from './browsers.js';
export * from './computer.js';
export * from './credentials.js';
export * from './curl.js';
export * from './extensions.js';
export * from './files.js';
export * from './fs-watch.js';
export * from './invocations.js';
export * from './live-view.js';
export * from './logs.js';
export * from './org.js';
export * from './playwright.js';
export * from './processes.js';
export * from './profiles.js';
export * from './proxies.js';
export * from './replays.js';
export * from './telemetry.js';

/**
 * Every operation function, in catalog order: what `createClient` makes its methods of, and
 * what a wrapper of your own may walk. A list, not a namespace, so that a bundle of one
 * function leaves the others out.
 */
export const operationFunctions = [
  createApiKey,
  deleteApiKey,
  getApiKey,
  listApiKeys,
  rotateApiKey,
  updateApiKey,
  listApps,
  listAuditLogs,
  createAuthConnection,
  deleteAuthConnection,
  followAuthConnection,
  getAuthConnection,
  listAuthConnections,
  loginAuthConnection,
  submitAuthConnection,
  authConnectionTimeline,
  updateAuthConnection,
  getAuthContext,
  acquireBrowser,
  createBrowserPool,
  deleteBrowserPool,
  flushBrowserPool,
  getBrowserPool,
  listBrowserPools,
  releaseBrowser,
  updateBrowserPool,
  createBrowser,
  curl,
  deleteBrowser,
  getBrowser,
  listBrowsers,
  loadExtensions,
  updateBrowser,
  batch,
  clickMouse,
  dragMouse,
  getMousePosition,
  moveMouse,
  pressKey,
  readClipboard,
  screenshot,
  scroll,
  setCursorVisibility,
  typeText,
  writeClipboard,
  createDirectory,
  deleteDirectory,
  deleteFile,
  downloadDirZip,
  fileInfo,
  listFiles,
  moveFile,
  readFile,
  setFilePermissions,
  uploadFiles,
  uploadZip,
  writeFile,
  watchEvents,
  startWatch,
  stopWatch,
  createLiveView,
  streamLogs,
  executePlaywright,
  execProcess,
  killProcess,
  streamProcessOutput,
  resizeProcess,
  spawnProcess,
  getProcessStatus,
  writeProcessStdin,
  downloadReplay,
  listReplays,
  startReplay,
  stopReplay,
  listTelemetryEvents,
  streamTelemetry,
  createCredentialProvider,
  deleteCredentialProvider,
  getCredentialProvider,
  listCredentialProviderItems,
  listCredentialProviders,
  testCredentialProvider,
  updateCredentialProvider,
  createCredential,
  deleteCredential,
  getCredential,
  listCredentials,
  getTotpCode,
  updateCredential,
  createDeployment,
  deleteDeployment,
  followDeployment,
  getDeployment,
  listDeployments,
  deleteExtension,
  downloadExtension,
  listExtensions,
  getExtensionMetadata,
  uploadExtension,
  createInvocation,
  deleteInvocationBrowsers,
  followInvocation,
  getInvocation,
  listInvocations,
  listInvocationBrowsers,
  updateInvocation,
  drainNode,
  listNodes,
  getOrgLimits,
  updateOrgLimits,
  createProfile,
  deleteProfile,
  downloadProfile,
  getProfile,
  listProfiles,
  updateProfile,
  createProject,
  deleteProject,
  getProject,
  listProjects,
  updateProject,
  getProjectLimits,
  updateProjectLimits,
  checkProxy,
  createProxy,
  deleteProxy,
  getProxy,
  listProxies,
  updateProxy,
] as const;

/** Every operation of the API as a method, grouped as the API is. */
export interface ClientMethods {
  /** The `apiKeys` operations. */
  readonly apiKeys: ApiKeysMethods;
  /** The `apps` operations. */
  readonly apps: AppsMethods;
  /** The `auditLogs` operations. */
  readonly auditLogs: AuditLogsMethods;
  /** The `auth` operations. */
  readonly auth: AuthMethods;
  /** The `browserPools` operations. */
  readonly browserPools: BrowserPoolsMethods;
  /** The `browsers` operations. */
  readonly browsers: BrowsersMethods;
  /** The `credentialProviders` operations. */
  readonly credentialProviders: CredentialProvidersMethods;
  /** The `credentials` operations. */
  readonly credentials: CredentialsMethods;
  /** The `deployments` operations. */
  readonly deployments: DeploymentsMethods;
  /** The `extensions` operations. */
  readonly extensions: ExtensionsMethods;
  /** The `invocations` operations. */
  readonly invocations: InvocationsMethods;
  /** The `nodes` operations. */
  readonly nodes: NodesMethods;
  /** The `org` operations. */
  readonly org: OrgMethods;
  /** The `profiles` operations. */
  readonly profiles: ProfilesMethods;
  /** The `projects` operations. */
  readonly projects: ProjectsMethods;
  /** The `proxies` operations. */
  readonly proxies: ProxiesMethods;
}

/** The `apiKeys` operations. */
export interface ApiKeysMethods {
  /**
   * Create an API key, optionally for one project and read-only (the key is shown once).
   *
   * `POST /org/api_keys`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 409, 413, 415, 422, 429, 500, 503.
   */
  create(input: CreateApiKeyInput, options?: CallOptions): CallPromise<CreatedApiKey>;
  /**
   * Delete an API key: refused (401) from the next call (not by itself).
   *
   * `DELETE /org/api_keys/{id}`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 409, 429, 500, 503.
   */
  delete(input: DeleteApiKeyInput, options?: CallOptions): CallPromise<undefined>;
  /**
   * Get an API key, masked.
   *
   * `GET /org/api_keys/{id}`: any token, read-only ones too.
   * Errors: 400, 401, 403, 404, 429, 500, 503.
   */
  get(input: GetApiKeyInput, options?: CallOptions): CallPromise<ApiKey>;
  /**
   * List the API keys, masked, newest first.
   *
   * `GET /org/api_keys`: any token, read-only ones too.
   * Errors: 400, 401, 403, 429, 500, 503.
   */
  list(input?: ListApiKeysInput, options?: CallOptions): PagePromise<ApiKey>;
  /**
   * Rotate an API key: a new key (shown once) with its name and project; the old one stops.
   *
   * `POST /org/api_keys/{id}/rotate`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 413, 415, 422, 429, 500, 503.
   */
  rotate(input: RotateApiKeyInput, options?: CallOptions): CallPromise<CreatedApiKey>;
  /**
   * Change an API key's label.
   *
   * `PATCH /org/api_keys/{id}`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 413, 415, 429, 500, 503.
   */
  update(input: UpdateApiKeyInput, options?: CallOptions): CallPromise<ApiKey>;
}

/** The `apps` operations. */
export interface AppsMethods {
  /**
   * List the app versions that can be invoked, with their actions.
   *
   * `GET /apps`: any token, read-only ones too.
   * Errors: 400, 401, 403, 429, 500, 503.
   */
  list(input?: ListAppsInput, options?: CallOptions): PagePromise<AppVersion>;
}

/** The `auditLogs` operations. */
export interface AuditLogsMethods {
  /**
   * List the audit log: every write, newest first, a page at a time (a project key sees its project).
   *
   * `GET /audit-logs`: any token, read-only ones too.
   * Errors: 400, 401, 403, 429, 500, 503.
   */
  list(input: ListAuditLogsInput, options?: CallOptions): PagePromise<AuditLogEntry>;
}

/** The `auth` operations. */
export interface AuthMethods {
  /** The `auth.connections` operations. */
  readonly connections: AuthConnectionsMethods;
  /** The `auth.context` operations. */
  readonly context: AuthContextMethods;
}

/** The `auth.connections` operations. */
export interface AuthConnectionsMethods {
  /**
   * Create an auth connection: a profile (made when missing) to sign in to a site and keep signed in.
   *
   * `POST /auth/connections`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 409, 413, 415, 422, 429, 500, 503.
   */
  create(input: CreateAuthConnectionInput, options?: CallOptions): CallPromise<AuthConnection>;
  /**
   * Delete an auth connection; a flow in progress is canceled (the profile stays).
   *
   * `DELETE /auth/connections/{id}`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 429, 500, 503.
   */
  delete(input: DeleteAuthConnectionInput, options?: CallOptions): CallPromise<undefined>;
  /**
   * Follow a connection's sign-in flow: its states as they change, until it ends.
   *
   * `GET /auth/connections/{id}/events`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 429, 500, 503.
   */
  events(
    input: FollowAuthConnectionInput,
    options?: CallOptions,
  ): CallPromise<FollowAuthConnectionResult>;
  /**
   * Get an auth connection, with the state of its current flow.
   *
   * `GET /auth/connections/{id}`: any token, read-only ones too.
   * Errors: 400, 401, 403, 404, 429, 500, 503.
   */
  get(input: GetAuthConnectionInput, options?: CallOptions): CallPromise<AuthConnection>;
  /**
   * List the auth connections, with their flows.
   *
   * `GET /auth/connections`: any token, read-only ones too.
   * Errors: 400, 401, 403, 429, 500, 503.
   */
  list(input?: ListAuthConnectionsInput, options?: CallOptions): PagePromise<AuthConnection>;
  /**
   * Start a sign-in flow in a browser of the profile; follow its events, submit what it asks for.
   *
   * `POST /auth/connections/{id}/login`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 409, 413, 415, 422, 429, 500, 502, 503.
   */
  login(input: LoginAuthConnectionInput, options?: CallOptions): CallPromise<LoginResponse>;
  /**
   * Give a sign-in flow the values it asked for (AWAITING_INPUT).
   *
   * `POST /auth/connections/{id}/submit`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 409, 413, 415, 422, 429, 500, 503.
   */
  submit(input: SubmitAuthConnectionInput, options?: CallOptions): CallPromise<SubmitResponse>;
  /**
   * List a connection's logins, re-authentications and health checks, newest first.
   *
   * `GET /auth/connections/{id}/timeline`: any token, read-only ones too.
   * Errors: 400, 401, 403, 404, 429, 500, 503.
   */
  timeline(
    input: AuthConnectionTimelineInput,
    options?: CallOptions,
  ): PagePromise<AuthTimelineEvent>;
  /**
   * Change an auth connection's settings (credential, login URL, health checks, …).
   *
   * `PATCH /auth/connections/{id}`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 413, 415, 429, 500, 503.
   */
  update(input: UpdateAuthConnectionInput, options?: CallOptions): CallPromise<AuthConnection>;
}

/** The `auth.context` operations. */
export interface AuthContextMethods {
  /**
   * Get the caller's context: its credential, the project it is limited to, the project this call acts in, and whether it may only read.
   *
   * `GET /auth/context`: any token, read-only ones too.
   * Errors: 401, 403, 429, 500, 503.
   */
  get(input?: GetAuthContextInput, options?: CallOptions): CallPromise<AuthContext>;
}

/** The `browserPools` operations. */
export interface BrowserPoolsMethods {
  /**
   * Acquire a browser from a pool, waiting up to acquire_timeout_seconds.
   *
   * `POST /browser_pools/{id_or_name}/acquire`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 413, 415, 422, 429, 500, 503.
   */
  acquire(input: AcquireBrowserInput, options?: CallOptions): CallPromise<AcquireBrowserResult>;
  /**
   * Create a browser pool.
   *
   * `POST /browser_pools`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 409, 413, 415, 422, 429, 500, 503.
   */
  create(input: CreateBrowserPoolInput, options?: CallOptions): CallPromise<BrowserPool>;
  /**
   * Delete a browser pool.
   *
   * `DELETE /browser_pools/{id_or_name}`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 409, 429, 500, 503.
   */
  delete(input: DeleteBrowserPoolInput, options?: CallOptions): CallPromise<undefined>;
  /**
   * Discard the idle browsers of a pool so fresh ones replace them.
   *
   * `POST /browser_pools/{id_or_name}/flush`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 422, 429, 500, 503.
   */
  flush(input: FlushBrowserPoolInput, options?: CallOptions): CallPromise<undefined>;
  /**
   * Get a browser pool by id or name.
   *
   * `GET /browser_pools/{id_or_name}` (§4.3 of the interface): any token, read-only ones too.
   * Errors: 400, 401, 403, 404, 429, 500, 503.
   */
  get(input: GetBrowserPoolInput, options?: CallOptions): CallPromise<BrowserPool>;
  /**
   * List the browser pools.
   *
   * `GET /browser_pools`: any token, read-only ones too.
   * Errors: 400, 401, 403, 429, 500, 503.
   */
  list(input?: ListBrowserPoolsInput, options?: CallOptions): PagePromise<BrowserPool>;
  /**
   * Release an acquired browser back to its pool.
   *
   * `POST /browser_pools/{id_or_name}/release`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 409, 413, 415, 422, 429, 500, 503.
   */
  release(input: ReleaseBrowserInput, options?: CallOptions): CallPromise<undefined>;
  /**
   * Update a browser pool.
   *
   * `PATCH /browser_pools/{id_or_name}`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 409, 413, 415, 429, 500, 503.
   */
  update(input: UpdateBrowserPoolInput, options?: CallOptions): CallPromise<BrowserPool>;
}

/** The `browsers` operations. */
export interface BrowsersMethods {
  /** The `browsers.computer` operations. */
  readonly computer: BrowsersComputerMethods;
  /** The `browsers.fs` operations. */
  readonly fs: BrowsersFsMethods;
  /** The `browsers.liveView` operations. */
  readonly liveView: BrowsersLiveViewMethods;
  /** The `browsers.logs` operations. */
  readonly logs: BrowsersLogsMethods;
  /** The `browsers.playwright` operations. */
  readonly playwright: BrowsersPlaywrightMethods;
  /** The `browsers.process` operations. */
  readonly process: BrowsersProcessMethods;
  /** The `browsers.replays` operations. */
  readonly replays: BrowsersReplaysMethods;
  /** The `browsers.telemetry` operations. */
  readonly telemetry: BrowsersTelemetryMethods;
  /**
   * Create a browser session.
   *
   * `POST /browsers`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 409, 413, 415, 422, 429, 500, 503.
   */
  create(input?: CreateBrowserInput, options?: CallOptions): CallPromise<BrowserSession>;
  /**
   * Make an HTTP request through the browser.
   *
   * `POST /browsers/{id}/curl`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 413, 415, 422, 429, 500, 502, 503, 504.
   */
  curl(input: CurlInput, options?: CallOptions): CallPromise<CurlResult>;
  /**
   * Delete a browser session.
   *
   * `DELETE /browsers/{id}`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 429, 500, 503.
   */
  delete(input: DeleteBrowserInput, options?: CallOptions): CallPromise<undefined>;
  /**
   * Get a browser session.
   *
   * `GET /browsers/{id}`: any token, read-only ones too.
   * Errors: 400, 401, 403, 404, 429, 500, 503.
   */
  get(input: GetBrowserInput, options?: CallOptions): CallPromise<BrowserSession>;
  /**
   * List the browser sessions (the active ones unless status says otherwise).
   *
   * `GET /browsers`: any token, read-only ones too.
   * Errors: 400, 401, 403, 429, 500, 503.
   */
  list(input?: ListBrowsersInput, options?: CallOptions): PagePromise<BrowserSession>;
  /**
   * Load unpacked extensions (zips) into a running browser.
   *
   * `POST /browsers/{id}/extensions`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 409, 413, 415, 422, 429, 500, 503.
   */
  loadExtensions(input: LoadExtensionsInput, options?: CallOptions): CallPromise<LoadedExtensions>;
  /**
   * Update a running browser session (name, tags, viewport, proxy, time-out).
   *
   * `PATCH /browsers/{id}`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 409, 413, 415, 429, 500, 503.
   */
  update(input: UpdateBrowserInput, options?: CallOptions): CallPromise<BrowserSession>;
}

/** The `browsers.computer` operations. */
export interface BrowsersComputerMethods {
  /**
   * Run mouse, keyboard and pause actions in order, stopping at the first that fails.
   *
   * `POST /browsers/{id}/computer/batch`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 413, 415, 422, 429, 500, 503.
   */
  batch(input: BatchInput, options?: CallOptions): CallPromise<undefined>;
  /**
   * Click, press or release a mouse button at a point of the screen.
   *
   * `POST /browsers/{id}/computer/click_mouse`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 413, 415, 422, 429, 500, 503.
   */
  clickMouse(input: ClickMouseInput, options?: CallOptions): CallPromise<undefined>;
  /**
   * Drag the mouse along a path with a button held.
   *
   * `POST /browsers/{id}/computer/drag_mouse`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 413, 415, 422, 429, 500, 503.
   */
  dragMouse(input: DragMouseInput, options?: CallOptions): CallPromise<undefined>;
  /**
   * Get the mouse position the last action left.
   *
   * `POST /browsers/{id}/computer/get_mouse_position`: any token, read-only ones too.
   * Errors: 400, 401, 403, 404, 429, 500, 503.
   */
  getMousePosition(input: GetMousePositionInput, options?: CallOptions): CallPromise<MousePosition>;
  /**
   * Move the mouse to a point of the screen, straight or along a human-like path.
   *
   * `POST /browsers/{id}/computer/move_mouse`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 413, 415, 422, 429, 500, 503.
   */
  moveMouse(input: MoveMouseInput, options?: CallOptions): CallPromise<undefined>;
  /**
   * Press keys or combos such as Ctrl+t, holding each for a while if asked.
   *
   * `POST /browsers/{id}/computer/press_key`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 413, 415, 422, 429, 500, 503.
   */
  pressKey(input: PressKeyInput, options?: CallOptions): CallPromise<undefined>;
  /**
   * Read the text on the browser's clipboard.
   *
   * `POST /browsers/{id}/computer/clipboard/read`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 409, 429, 500, 503.
   */
  readClipboard(input: ReadClipboardInput, options?: CallOptions): CallPromise<ClipboardText>;
  /**
   * Take a PNG screenshot of the browser.
   *
   * `POST /browsers/{id}/computer/screenshot`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 413, 415, 429, 500, 503.
   */
  screenshot(input: ScreenshotInput, options?: CallOptions): CallPromise<BinaryBody>;
  /**
   * Turn the mouse wheel at a point of the screen.
   *
   * `POST /browsers/{id}/computer/scroll`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 413, 415, 422, 429, 500, 503.
   */
  scroll(input: ScrollInput, options?: CallOptions): CallPromise<undefined>;
  /**
   * Hide or show the mouse cursor.
   *
   * `POST /browsers/{id}/computer/cursor`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 413, 415, 422, 429, 500, 503.
   */
  setCursorVisibility(
    input: SetCursorVisibilityInput,
    options?: CallOptions,
  ): CallPromise<CursorResult>;
  /**
   * Type text on the browser instance.
   *
   * `POST /browsers/{id}/computer/type` (§4.2 of the interface): a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 413, 415, 422, 429, 500, 503.
   */
  type(input: TypeTextInput, options?: CallOptions): CallPromise<undefined>;
  /**
   * Put text on the browser's clipboard (what Ctrl+V then pastes).
   *
   * `POST /browsers/{id}/computer/clipboard/write`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 409, 413, 415, 422, 429, 500, 503.
   */
  writeClipboard(input: WriteClipboardInput, options?: CallOptions): CallPromise<undefined>;
}

/** The `browsers.fs` operations. */
export interface BrowsersFsMethods {
  /** The `browsers.fs.watch` operations. */
  readonly watch: BrowsersFsWatchMethods;
  /**
   * Create a directory (and its missing parents) on the browser instance.
   *
   * `PUT /browsers/{id}/fs/create_directory`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 409, 413, 415, 429, 500, 503, 507.
   */
  createDirectory(input: CreateDirectoryInput, options?: CallOptions): CallPromise<undefined>;
  /**
   * Delete a directory and everything in it on the browser instance.
   *
   * `PUT /browsers/{id}/fs/delete_directory`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 409, 413, 415, 429, 500, 503, 507.
   */
  deleteDirectory(input: DeleteDirectoryInput, options?: CallOptions): CallPromise<undefined>;
  /**
   * Delete a file on the browser instance.
   *
   * `PUT /browsers/{id}/fs/delete_file`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 409, 413, 415, 429, 500, 503, 507.
   */
  deleteFile(input: DeleteFileInput, options?: CallOptions): CallPromise<undefined>;
  /**
   * Download a directory of the browser instance as a zip.
   *
   * `GET /browsers/{id}/fs/download_dir_zip`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 413, 429, 500, 503, 507.
   */
  downloadDirZip(input: DownloadDirZipInput, options?: CallOptions): CallPromise<BinaryBody>;
  /**
   * Describe a file or directory on the browser instance.
   *
   * `GET /browsers/{id}/fs/file_info`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 429, 500, 503, 507.
   */
  fileInfo(input: FileInfoInput, options?: CallOptions): CallPromise<FileEntry>;
  /**
   * List a directory on the browser instance.
   *
   * `GET /browsers/{id}/fs/list_files`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 413, 429, 500, 503, 507.
   */
  listFiles(input: ListFilesInput, options?: CallOptions): CallPromise<FileEntry[]>;
  /**
   * Move or rename a file or directory on the browser instance.
   *
   * `PUT /browsers/{id}/fs/move`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 409, 413, 415, 429, 500, 503, 507.
   */
  move(input: MoveFileInput, options?: CallOptions): CallPromise<undefined>;
  /**
   * Read a file on the browser instance.
   *
   * `GET /browsers/{id}/fs/read_file`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 429, 500, 503, 507.
   */
  readFile(input: ReadFileInput, options?: CallOptions): CallPromise<BinaryBody>;
  /**
   * Set a file's permission bits on the browser instance.
   *
   * `PUT /browsers/{id}/fs/set_file_permissions`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 409, 413, 415, 429, 500, 503, 507.
   */
  setFilePermissions(input: SetFilePermissionsInput, options?: CallOptions): CallPromise<undefined>;
  /**
   * Upload files to the browser instance (multipart, each with its dest_path).
   *
   * `POST /browsers/{id}/fs/upload`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 409, 413, 415, 422, 429, 500, 503, 507.
   */
  upload(input: UploadFilesInput, options?: CallOptions): CallPromise<undefined>;
  /**
   * Upload a zip and unpack it into a directory on the browser instance.
   *
   * `POST /browsers/{id}/fs/upload_zip`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 409, 413, 415, 422, 429, 500, 503, 507.
   */
  uploadZip(input: UploadZipInput, options?: CallOptions): CallPromise<undefined>;
  /**
   * Write a file on the browser instance (the body is its bytes).
   *
   * `PUT /browsers/{id}/fs/write_file`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 409, 413, 429, 500, 503, 507.
   */
  writeFile(input: WriteFileInput, options?: CallOptions): CallPromise<undefined>;
}

/** The `browsers.fs.watch` operations. */
export interface BrowsersFsWatchMethods {
  /**
   * Stream the events of a directory watch (SSE).
   *
   * `GET /browsers/{id}/fs/watch/{watch_id}/events`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 429, 500, 503.
   */
  events(input: WatchEventsInput, options?: CallOptions): CallPromise<EventStream<WatchEvent>>;
  /**
   * Start watching a directory on the browser instance.
   *
   * `POST /browsers/{id}/fs/watch`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 413, 415, 422, 429, 500, 503.
   */
  start(input: StartWatchInput, options?: CallOptions): CallPromise<Watch>;
  /**
   * Stop watching a directory.
   *
   * `DELETE /browsers/{id}/fs/watch/{watch_id}` (§4.7 of the interface): a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 429, 500, 503.
   */
  stop(input: StopWatchInput, options?: CallOptions): CallPromise<undefined>;
}

/** The `browsers.liveView` operations. */
export interface BrowsersLiveViewMethods {
  /**
   * Create a live view link to watch (read) or drive (control) the browser session.
   *
   * `POST /browsers/{id}/live_view`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 413, 415, 422, 429, 500, 503.
   */
  create(input: CreateLiveViewInput, options?: CallOptions): CallPromise<LiveView>;
}

/** The `browsers.logs` operations. */
export interface BrowsersLogsMethods {
  /**
   * Stream the lines of a log (SSE).
   *
   * `GET /browsers/{id}/logs/stream`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 429, 500, 503.
   */
  stream(input: StreamLogsInput, options?: CallOptions): CallPromise<EventStream<LogEvent>>;
}

/** The `browsers.playwright` operations. */
export interface BrowsersPlaywrightMethods {
  /**
   * Run Playwright code against the browser.
   *
   * `POST /browsers/{id}/playwright/execute`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 409, 413, 415, 422, 429, 500, 503.
   */
  execute(
    input: ExecutePlaywrightInput,
    options?: CallOptions,
  ): CallPromise<PlaywrightExecuteResult>;
}

/** The `browsers.process` operations. */
export interface BrowsersProcessMethods {
  /**
   * Run a command on the browser instance and wait for it.
   *
   * `POST /browsers/{id}/process/exec`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 413, 415, 422, 429, 500, 503.
   */
  exec(input: ExecProcessInput, options?: CallOptions): CallPromise<ExecResult>;
  /**
   * Send a signal to a process.
   *
   * `POST /browsers/{id}/process/{process_id}/kill`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 413, 415, 422, 429, 500, 503.
   */
  kill(input: KillProcessInput, options?: CallOptions): CallPromise<KillResult>;
  /**
   * Stream the output of a process (SSE).
   *
   * `GET /browsers/{id}/process/{process_id}/stdout/stream`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 429, 500, 503.
   */
  output(
    input: StreamProcessOutputInput,
    options?: CallOptions,
  ): CallPromise<EventStream<ProcessOutputEvent>>;
  /**
   * Resize the terminal of a process.
   *
   * `POST /browsers/{id}/process/{process_id}/resize`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 413, 415, 422, 429, 500, 503.
   */
  resize(input: ResizeProcessInput, options?: CallOptions): CallPromise<KillResult>;
  /**
   * Start a process on the browser instance.
   *
   * `POST /browsers/{id}/process/spawn`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 413, 415, 422, 429, 500, 503.
   */
  spawn(input: SpawnProcessInput, options?: CallOptions): CallPromise<SpawnedProcess>;
  /**
   * Get the status of a process.
   *
   * `GET /browsers/{id}/process/{process_id}/status` (§4.6 of the interface): any token, read-only ones too.
   * Errors: 400, 401, 403, 404, 429, 500, 503.
   */
  status(input: GetProcessStatusInput, options?: CallOptions): CallPromise<ProcessStatus>;
  /**
   * Write to the input of a process.
   *
   * `POST /browsers/{id}/process/{process_id}/stdin`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 409, 413, 415, 422, 429, 500, 503.
   */
  stdin(input: WriteProcessStdinInput, options?: CallOptions): CallPromise<ProcessStdinResult>;
}

/** The `browsers.replays` operations. */
export interface BrowsersReplaysMethods {
  /**
   * Download a replay video (MP4).
   *
   * `GET /browsers/{id}/replays/{replay_id}`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 429, 500, 503.
   */
  download(input: DownloadReplayInput, options?: CallOptions): CallPromise<DownloadReplayResult>;
  /**
   * List the replays of a browser session.
   *
   * `GET /browsers/{id}/replays`: any token, read-only ones too.
   * Errors: 400, 401, 403, 404, 429, 500, 503.
   */
  list(input: ListReplaysInput, options?: CallOptions): PagePromise<Replay>;
  /**
   * Start recording a replay of the browser session.
   *
   * `POST /browsers/{id}/replays`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 409, 413, 415, 422, 429, 500, 503.
   */
  start(input: StartReplayInput, options?: CallOptions): CallPromise<Replay>;
  /**
   * Stop a replay recording and persist the video.
   *
   * `POST /browsers/{id}/replays/{replay_id}/stop` (§4.1 of the interface): a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 422, 429, 500, 503.
   */
  stop(input: StopReplayInput, options?: CallOptions): CallPromise<Replay>;
}

/** The `browsers.telemetry` operations. */
export interface BrowsersTelemetryMethods {
  /**
   * List the telemetry events of a browser session.
   *
   * `GET /browsers/{id}/telemetry/events`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 429, 500, 503.
   */
  events(input: ListTelemetryEventsInput, options?: CallOptions): PagePromise<TelemetryEnvelope>;
  /**
   * Stream the telemetry events of a browser session (SSE).
   *
   * `GET /browsers/{id}/telemetry/stream`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 429, 500, 503.
   */
  stream(
    input: StreamTelemetryInput,
    options?: CallOptions,
  ): CallPromise<EventStream<TelemetryEnvelope>>;
}

/** The `credentialProviders` operations. */
export interface CredentialProvidersMethods {
  /**
   * Add a credential provider (a 1Password Connect server) that sign-ins read logins from; its token is write-only.
   *
   * `POST /org/credential_providers`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 409, 413, 415, 422, 429, 500, 503.
   */
  create(
    input: CreateCredentialProviderInput,
    options?: CallOptions,
  ): CallPromise<CredentialProvider>;
  /**
   * Delete a credential provider and its sealed token.
   *
   * `DELETE /org/credential_providers/{id_or_name}`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 429, 500, 503.
   */
  delete(input: DeleteCredentialProviderInput, options?: CallOptions): CallPromise<undefined>;
  /**
   * Get a credential provider (never its token).
   *
   * `GET /org/credential_providers/{id_or_name}`: any token, read-only ones too.
   * Errors: 400, 401, 403, 404, 429, 500, 503.
   */
  get(input: GetCredentialProviderInput, options?: CallOptions): CallPromise<CredentialProvider>;
  /**
   * List a credential provider's login items: paths, titles, sites (never their values).
   *
   * `GET /org/credential_providers/{id_or_name}/items`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 429, 500, 502, 503.
   */
  items(
    input: ListCredentialProviderItemsInput,
    options?: CallOptions,
  ): CallPromise<CredentialProviderItems>;
  /**
   * List the organization's credential providers (never their tokens).
   *
   * `GET /org/credential_providers`: any token, read-only ones too.
   * Errors: 400, 401, 403, 429, 500, 503.
   */
  list(
    input?: ListCredentialProvidersInput,
    options?: CallOptions,
  ): PagePromise<CredentialProvider>;
  /**
   * Test a credential provider: whether it answers and takes the token, and its vaults.
   *
   * `POST /org/credential_providers/{id_or_name}/test`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 422, 429, 500, 503.
   */
  test(
    input: TestCredentialProviderInput,
    options?: CallOptions,
  ): CallPromise<CredentialProviderTestResult>;
  /**
   * Change a credential provider: name, token (rotation), address, cache time, enabled, priority, the projects it is opened to.
   *
   * `PATCH /org/credential_providers/{id_or_name}`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 409, 413, 415, 429, 500, 503.
   */
  update(
    input: UpdateCredentialProviderInput,
    options?: CallOptions,
  ): CallPromise<CredentialProvider>;
}

/** The `credentials` operations. */
export interface CredentialsMethods {
  /**
   * Store a credential (a login for one site); its values and TOTP secret are write-only.
   *
   * `POST /credentials`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 409, 413, 415, 422, 429, 500, 503.
   */
  create(input: CreateCredentialInput, options?: CallOptions): CallPromise<Credential>;
  /**
   * Delete a credential and its sealed values.
   *
   * `DELETE /credentials/{id_or_name}`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 429, 500, 503.
   */
  delete(input: DeleteCredentialInput, options?: CallOptions): CallPromise<undefined>;
  /**
   * Get a credential (the names of its values, never the values).
   *
   * `GET /credentials/{id_or_name}`: any token, read-only ones too.
   * Errors: 400, 401, 403, 404, 429, 500, 503.
   */
  get(input: GetCredentialInput, options?: CallOptions): CallPromise<Credential>;
  /**
   * List the credentials (never their values).
   *
   * `GET /credentials`: any token, read-only ones too.
   * Errors: 400, 401, 403, 429, 500, 503.
   */
  list(input?: ListCredentialsInput, options?: CallOptions): PagePromise<Credential>;
  /**
   * Get the current TOTP code of a credential's secret (RFC 6238) and when it expires.
   *
   * `GET /credentials/{id_or_name}/totp-code`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 409, 429, 500, 503.
   */
  totpCode(input: GetTotpCodeInput, options?: CallOptions): CallPromise<TotpCode>;
  /**
   * Change a credential: values added, overwritten or removed; name, SSO provider, TOTP secret.
   *
   * `PATCH /credentials/{id_or_name}`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 409, 413, 415, 429, 500, 503.
   */
  update(input: UpdateCredentialInput, options?: CallOptions): CallPromise<Credential>;
}

/** The `deployments` operations. */
export interface DeploymentsMethods {
  /**
   * Deploy an app's code: a zip of its folder, its entrypoint and version.
   *
   * `POST /deployments`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 409, 413, 415, 422, 429, 500, 503.
   */
  create(input: CreateDeploymentInput, options?: CallOptions): CallPromise<Deployment>;
  /**
   * Stop a deployment: its apps can no longer be invoked.
   *
   * `DELETE /deployments/{id}`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 429, 500, 503.
   */
  delete(input: DeleteDeploymentInput, options?: CallOptions): CallPromise<undefined>;
  /**
   * Follow a deployment: its install's log, its apps and its states, until it ends.
   *
   * `GET /deployments/{id}/events`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 429, 500, 503.
   */
  events(input: FollowDeploymentInput, options?: CallOptions): CallPromise<FollowDeploymentResult>;
  /**
   * Get a deployment.
   *
   * `GET /deployments/{id}`: any token, read-only ones too.
   * Errors: 400, 401, 403, 404, 429, 500, 503.
   */
  get(input: GetDeploymentInput, options?: CallOptions): CallPromise<Deployment>;
  /**
   * List the deployments.
   *
   * `GET /deployments`: any token, read-only ones too.
   * Errors: 400, 401, 403, 429, 500, 503.
   */
  list(input?: ListDeploymentsInput, options?: CallOptions): PagePromise<Deployment>;
}

/** The `extensions` operations. */
export interface ExtensionsMethods {
  /**
   * Delete an extension.
   *
   * `DELETE /extensions/{id_or_name}`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 429, 500, 503.
   */
  delete(input: DeleteExtensionInput, options?: CallOptions): CallPromise<undefined>;
  /**
   * Download an extension archive (zip).
   *
   * `GET /extensions/{id_or_name}`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 429, 500, 503.
   */
  download(input: DownloadExtensionInput, options?: CallOptions): CallPromise<BinaryBody>;
  /**
   * List the uploaded extensions.
   *
   * `GET /extensions`: any token, read-only ones too.
   * Errors: 400, 401, 403, 429, 500, 503.
   */
  list(input?: ListExtensionsInput, options?: CallOptions): PagePromise<Extension>;
  /**
   * Get an extension's record (size, SHA-256, name) without downloading it.
   *
   * `GET /extensions/{id_or_name}/metadata`: any token, read-only ones too.
   * Errors: 400, 401, 403, 404, 429, 500, 503.
   */
  metadata(input: GetExtensionMetadataInput, options?: CallOptions): CallPromise<Extension>;
  /**
   * Upload a browser extension (zip with manifest.json at its root).
   *
   * `POST /extensions` (§4.4 of the interface): a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 409, 413, 415, 422, 429, 500, 503.
   */
  upload(input: UploadExtensionInput, options?: CallOptions): CallPromise<Extension>;
}

/** The `invocations` operations. */
export interface InvocationsMethods {
  /**
   * Invoke an app's action: wait for its result, or queue it (async).
   *
   * `POST /invocations`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 413, 415, 422, 429, 500, 503.
   */
  create(input: CreateInvocationInput, options?: CallOptions): CallPromise<CreateInvocationResult>;
  /**
   * Delete every running browser of an invocation.
   *
   * `DELETE /invocations/{id}/browsers`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 429, 500, 503.
   */
  deleteBrowsers(
    input: DeleteInvocationBrowsersInput,
    options?: CallOptions,
  ): CallPromise<undefined>;
  /**
   * Follow an invocation: its code's console and its states, until it ends.
   *
   * `GET /invocations/{id}/events`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 429, 500, 503.
   */
  events(input: FollowInvocationInput, options?: CallOptions): CallPromise<FollowInvocationResult>;
  /**
   * Get an invocation.
   *
   * `GET /invocations/{id}`: any token, read-only ones too.
   * Errors: 400, 401, 403, 404, 429, 500, 503.
   */
  get(input: GetInvocationInput, options?: CallOptions): CallPromise<Invocation>;
  /**
   * List the invocations.
   *
   * `GET /invocations`: any token, read-only ones too.
   * Errors: 400, 401, 403, 429, 500, 503.
   */
  list(input?: ListInvocationsInput, options?: CallOptions): PagePromise<Invocation>;
  /**
   * List the active browsers of an invocation.
   *
   * `GET /invocations/{id}/browsers` (§4.5 of the interface): any token, read-only ones too.
   * Errors: 400, 401, 403, 404, 429, 500, 503.
   */
  listBrowsers(
    input: ListInvocationBrowsersInput,
    options?: CallOptions,
  ): CallPromise<InvocationBrowsers>;
  /**
   * End an invocation (succeeded, or failed to cancel it): its code stops, its browsers are deleted.
   *
   * `PATCH /invocations/{id}`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 409, 413, 415, 429, 500, 503.
   */
  update(input: UpdateInvocationInput, options?: CallOptions): CallPromise<Invocation>;
}

/** The `nodes` operations. */
export interface NodesMethods {
  /**
   * Drain a node for a deploy: no new browser starts on it until it stops; wait up to wait_seconds for its sessions in use to end (an organization-wide key only).
   *
   * `POST /org/nodes/{id}/drain`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 409, 413, 415, 422, 429, 500, 503.
   */
  drain(input: DrainNodeInput, options?: CallOptions): CallPromise<DrainedNode>;
  /**
   * List the service's nodes: one for a server alone, every node of a cluster.
   *
   * `GET /org/nodes`: any token, read-only ones too.
   * Errors: 400, 401, 403, 429, 500, 503.
   */
  list(input?: ListNodesInput, options?: CallOptions): PagePromise<Node>;
}

/** The `org` operations. */
export interface OrgMethods {
  /** The `org.limits` operations. */
  readonly limits: OrgLimitsMethods;
}

/** The `org.limits` operations. */
export interface OrgLimitsMethods {
  /**
   * Get the organization's limits: the server's cap and projects' defaults.
   *
   * `GET /org/limits`: any token, read-only ones too.
   * Errors: 401, 403, 429, 500, 503.
   */
  get(input?: GetOrgLimitsInput, options?: CallOptions): CallPromise<OrgLimits>;
  /**
   * Change the defaults of projects' limits (an organization-wide key only).
   *
   * `PATCH /org/limits`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 413, 415, 429, 500, 503.
   */
  update(input?: UpdateOrgLimitsInput, options?: CallOptions): CallPromise<OrgLimits>;
}

/** The `profiles` operations. */
export interface ProfilesMethods {
  /**
   * Create a browser profile (empty until a session saves into it).
   *
   * `POST /profiles`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 409, 413, 415, 422, 429, 500, 503.
   */
  create(input?: CreateProfileInput, options?: CallOptions): CallPromise<Profile>;
  /**
   * Delete a browser profile (409 while a browser saves into it or a pool uses it).
   *
   * `DELETE /profiles/{id_or_name}`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 409, 429, 500, 503.
   */
  delete(input: DeleteProfileInput, options?: CallOptions): CallPromise<undefined>;
  /**
   * Download a browser profile's data (tar, or tar.zst with format=tar.zst).
   *
   * `GET /profiles/{id_or_name}/download`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 429, 500, 503.
   */
  download(input: DownloadProfileInput, options?: CallOptions): CallPromise<BinaryBody>;
  /**
   * Get a browser profile.
   *
   * `GET /profiles/{id_or_name}`: any token, read-only ones too.
   * Errors: 400, 401, 403, 404, 429, 500, 503.
   */
  get(input: GetProfileInput, options?: CallOptions): CallPromise<Profile>;
  /**
   * List the browser profiles.
   *
   * `GET /profiles`: any token, read-only ones too.
   * Errors: 400, 401, 403, 429, 500, 503.
   */
  list(input?: ListProfilesInput, options?: CallOptions): PagePromise<Profile>;
  /**
   * Rename a browser profile.
   *
   * `PATCH /profiles/{id_or_name}`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 409, 413, 415, 429, 500, 503.
   */
  update(input: UpdateProfileInput, options?: CallOptions): CallPromise<Profile>;
}

/** The `projects` operations. */
export interface ProjectsMethods {
  /** The `projects.limits` operations. */
  readonly limits: ProjectsLimitsMethods;
  /**
   * Create a project (an organization-wide key only).
   *
   * `POST /org/projects`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 409, 413, 415, 422, 429, 500, 503.
   */
  create(input: CreateProjectInput, options?: CallOptions): CallPromise<Project>;
  /**
   * Delete an empty project (409 while it holds resources; the default stays).
   *
   * `DELETE /org/projects/{id_or_name}`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 409, 429, 500, 503.
   */
  delete(input: DeleteProjectInput, options?: CallOptions): CallPromise<undefined>;
  /**
   * Get a project by id or name.
   *
   * `GET /org/projects/{id_or_name}`: any token, read-only ones too.
   * Errors: 400, 401, 403, 404, 429, 500, 503.
   */
  get(input: GetProjectInput, options?: CallOptions): CallPromise<Project>;
  /**
   * List the projects (a project's key sees its own).
   *
   * `GET /org/projects`: any token, read-only ones too.
   * Errors: 400, 401, 403, 429, 500, 503.
   */
  list(input?: ListProjectsInput, options?: CallOptions): PagePromise<Project>;
  /**
   * Rename a project, or archive or restore it (a project's key may rename its own).
   *
   * `PATCH /org/projects/{id_or_name}`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 409, 413, 415, 429, 500, 503.
   */
  update(input: UpdateProjectInput, options?: CallOptions): CallPromise<Project>;
}

/** The `projects.limits` operations. */
export interface ProjectsLimitsMethods {
  /**
   * Get a project's limits (null: the organization's default applies).
   *
   * `GET /org/projects/{id_or_name}/limits`: any token, read-only ones too.
   * Errors: 400, 401, 403, 404, 429, 500, 503.
   */
  get(input: GetProjectLimitsInput, options?: CallOptions): CallPromise<ProjectLimits>;
  /**
   * Change a project's limits (0 or null removes one; an organization-wide key only).
   *
   * `PATCH /org/projects/{id_or_name}/limits`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 413, 415, 429, 500, 503.
   */
  update(input: UpdateProjectLimitsInput, options?: CallOptions): CallPromise<ProjectLimits>;
}

/** The `proxies` operations. */
export interface ProxiesMethods {
  /**
   * Check a proxy: reach a site through it, and record its status and exit address.
   *
   * `POST /proxies/{id}/check`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 422, 429, 500, 503.
   */
  check(input: CheckProxyInput, options?: CallOptions): CallPromise<ProxyConfig>;
  /**
   * Create a proxy configuration (type custom: a proxy the operator provides).
   *
   * `POST /proxies`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 409, 413, 415, 422, 429, 500, 503.
   */
  create(input: CreateProxyInput, options?: CallOptions): CallPromise<ProxyConfig>;
  /**
   * Delete a proxy (409 while a browser uses it, unless force=true; or a pool names it).
   *
   * `DELETE /proxies/{id}`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 409, 429, 500, 503.
   */
  delete(input: DeleteProxyInput, options?: CallOptions): CallPromise<undefined>;
  /**
   * Get a proxy.
   *
   * `GET /proxies/{id}`: any token, read-only ones too.
   * Errors: 400, 401, 403, 404, 429, 500, 503.
   */
  get(input: GetProxyInput, options?: CallOptions): CallPromise<ProxyConfig>;
  /**
   * List the proxies.
   *
   * `GET /proxies`: any token, read-only ones too.
   * Errors: 400, 401, 403, 429, 500, 503.
   */
  list(input?: ListProxiesInput, options?: CallOptions): PagePromise<ProxyConfig>;
  /**
   * Change a proxy (browsers started before keep the settings they started with).
   *
   * `PATCH /proxies/{id}`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 409, 413, 415, 429, 500, 503.
   */
  update(input: UpdateProxyInput, options?: CallOptions): CallPromise<ProxyConfig>;
}
