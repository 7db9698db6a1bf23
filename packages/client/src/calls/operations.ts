/**
 * Every operation as a function of a core (`createCore`), for apps that bundle only what they
 * call: `await getBrowserPool(core, { id_or_name })`. Each carries its route (no schema), and
 * upload and stream code only when it needs it; a core with `checks: catalogChecks`, or
 * `checked(fn, operation)` for one function, adds local checks against the schemas.
 *
 * Generated from the catalog of @x/types by `pnpm --filter @x/client generate`; a test fails
 * when it falls behind. Do not edit.
 */
import {
  acquireServerTimeMs,
  batchServerTimeMs,
  curlServerTimeMs,
  dragDurationMs,
  drainServerTimeMs,
  execServerTimeMs,
  moveDurationMs,
  playwrightServerTimeMs,
  pressDurationMs,
  typeDurationMs,
} from '@x/types';
import type { CallPromise } from '../client/call-promise.js';
import type { Core } from '../client/core.js';
import type { CallOptions } from '../client/options.js';
import type { BinaryBody } from '../streams/binary-body.js';
import type { EventStream } from '../streams/event-stream.js';
import { readStreamBody } from '../streams/read-body.js';
import { encodeUploadBody } from '../uploads/encode-body.js';
import { defineCall } from './define-call.js';
import type { PagePromise } from './list-page.js';
import { defineListCall } from './list-page.js';
import type {
  AcquireBrowserInput,
  AcquireBrowserResult,
  ApiKey,
  AppVersion,
  AuditLogEntry,
  AuthConnection,
  AuthConnectionTimelineInput,
  AuthContext,
  AuthTimelineEvent,
  BatchInput,
  BrowserPool,
  BrowserSession,
  CheckProxyInput,
  ClickMouseInput,
  ClipboardText,
  CreateApiKeyInput,
  CreateAuthConnectionInput,
  CreateBrowserInput,
  CreateBrowserPoolInput,
  CreateCredentialInput,
  CreateCredentialProviderInput,
  CreateDeploymentInput,
  CreateDirectoryInput,
  CreatedApiKey,
  CreateInvocationInput,
  CreateInvocationResult,
  CreateLiveViewInput,
  CreateProfileInput,
  CreateProjectInput,
  CreateProxyInput,
  Credential,
  CredentialProvider,
  CredentialProviderItems,
  CredentialProviderTestResult,
  CurlInput,
  CurlResult,
  CursorResult,
  DeleteApiKeyInput,
  DeleteAuthConnectionInput,
  DeleteBrowserInput,
  DeleteBrowserPoolInput,
  DeleteCredentialInput,
  DeleteCredentialProviderInput,
  DeleteDeploymentInput,
  DeleteDirectoryInput,
  DeleteExtensionInput,
  DeleteFileInput,
  DeleteInvocationBrowsersInput,
  DeleteProfileInput,
  DeleteProjectInput,
  DeleteProxyInput,
  Deployment,
  DownloadDirZipInput,
  DownloadExtensionInput,
  DownloadProfileInput,
  DownloadReplayInput,
  DownloadReplayResult,
  DragMouseInput,
  DrainedNode,
  DrainNodeInput,
  ExecProcessInput,
  ExecResult,
  ExecutePlaywrightInput,
  Extension,
  FileEntry,
  FileInfoInput,
  FlushBrowserPoolInput,
  FollowAuthConnectionInput,
  FollowAuthConnectionResult,
  FollowDeploymentInput,
  FollowDeploymentResult,
  FollowInvocationInput,
  FollowInvocationResult,
  GetApiKeyInput,
  GetAuthConnectionInput,
  GetAuthContextInput,
  GetBrowserInput,
  GetBrowserPoolInput,
  GetCredentialInput,
  GetCredentialProviderInput,
  GetDeploymentInput,
  GetExtensionMetadataInput,
  GetInvocationInput,
  GetMousePositionInput,
  GetOrgLimitsInput,
  GetProcessStatusInput,
  GetProfileInput,
  GetProjectInput,
  GetProjectLimitsInput,
  GetProxyInput,
  GetTotpCodeInput,
  Invocation,
  InvocationBrowsers,
  KillProcessInput,
  KillResult,
  ListApiKeysInput,
  ListAppsInput,
  ListAuditLogsInput,
  ListAuthConnectionsInput,
  ListBrowserPoolsInput,
  ListBrowsersInput,
  ListCredentialProviderItemsInput,
  ListCredentialProvidersInput,
  ListCredentialsInput,
  ListDeploymentsInput,
  ListExtensionsInput,
  ListFilesInput,
  ListInvocationBrowsersInput,
  ListInvocationsInput,
  ListNodesInput,
  ListProfilesInput,
  ListProjectsInput,
  ListProxiesInput,
  ListReplaysInput,
  ListTelemetryEventsInput,
  LiveView,
  LoadExtensionsInput,
  LoadedExtensions,
  LogEvent,
  LoginAuthConnectionInput,
  LoginResponse,
  MousePosition,
  MoveFileInput,
  MoveMouseInput,
  Node,
  OrgLimits,
  PlaywrightExecuteResult,
  PressKeyInput,
  ProcessOutputEvent,
  ProcessStatus,
  ProcessStdinResult,
  Profile,
  Project,
  ProjectLimits,
  ProxyConfig,
  ReadClipboardInput,
  ReadFileInput,
  ReleaseBrowserInput,
  Replay,
  ResizeProcessInput,
  RotateApiKeyInput,
  ScreenshotInput,
  ScrollInput,
  SetCursorVisibilityInput,
  SetFilePermissionsInput,
  SpawnedProcess,
  SpawnProcessInput,
  StartReplayInput,
  StartWatchInput,
  StopReplayInput,
  StopWatchInput,
  StreamLogsInput,
  StreamProcessOutputInput,
  StreamTelemetryInput,
  SubmitAuthConnectionInput,
  SubmitResponse,
  TelemetryEnvelope,
  TestCredentialProviderInput,
  TotpCode,
  TypeTextInput,
  UpdateApiKeyInput,
  UpdateAuthConnectionInput,
  UpdateBrowserInput,
  UpdateBrowserPoolInput,
  UpdateCredentialInput,
  UpdateCredentialProviderInput,
  UpdateInvocationInput,
  UpdateOrgLimitsInput,
  UpdateProfileInput,
  UpdateProjectInput,
  UpdateProjectLimitsInput,
  UpdateProxyInput,
  UploadExtensionInput,
  UploadFilesInput,
  UploadZipInput,
  Watch,
  WatchEvent,
  WatchEventsInput,
  WriteClipboardInput,
  WriteFileInput,
  WriteProcessStdinInput,
} from './operation-types.js';

// browsers.replays

/**
 * Stop a replay recording and persist the video.
 *
 * `POST /browsers/{id}/replays/{replay_id}/stop` (§4.1 of the interface): a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 422, 429, 500, 503.
 * `browsers.replays.stop`
 */
export const stopReplay: (
  core: Core,
  input: StopReplayInput,
  options?: CallOptions,
) => CallPromise<Replay> = /* @__PURE__ */ defineCall<StopReplayInput, Replay>({
  name: 'browsers.replays.stop',
  method: 'POST',
  path: '/browsers/{id}/replays/{replay_id}/stop',
  responses: { 200: 'json' },
  write: true,
});

/**
 * Start recording a replay of the browser session.
 *
 * `POST /browsers/{id}/replays`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 409, 413, 415, 422, 429, 500, 503.
 * `browsers.replays.start`
 */
export const startReplay: (
  core: Core,
  input: StartReplayInput,
  options?: CallOptions,
) => CallPromise<Replay> = /* @__PURE__ */ defineCall<StartReplayInput, Replay>({
  name: 'browsers.replays.start',
  method: 'POST',
  path: '/browsers/{id}/replays',
  body: 'json',
  bodyOptional: true,
  responses: { 201: 'json' },
  write: true,
});

/**
 * List the replays of a browser session.
 *
 * `GET /browsers/{id}/replays`: any token, read-only ones too.
 * Errors: 400, 401, 403, 404, 429, 500, 503.
 * `browsers.replays.list`
 */
export const listReplays: (
  core: Core,
  input: ListReplaysInput,
  options?: CallOptions,
) => PagePromise<Replay> = /* @__PURE__ */ defineListCall<ListReplaysInput, Replay>({
  name: 'browsers.replays.list',
  method: 'GET',
  path: '/browsers/{id}/replays',
  query: ['offset', 'limit'],
  responses: { 200: 'json' },
  paginated: true,
});

/**
 * Download a replay video (MP4).
 *
 * `GET /browsers/{id}/replays/{replay_id}`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 429, 500, 503.
 * `browsers.replays.download`
 */
export const downloadReplay: (
  core: Core,
  input: DownloadReplayInput,
  options?: CallOptions,
) => CallPromise<DownloadReplayResult> = /* @__PURE__ */ defineCall<
  DownloadReplayInput,
  DownloadReplayResult
>(
  {
    name: 'browsers.replays.download',
    method: 'GET',
    path: '/browsers/{id}/replays/{replay_id}',
    responses: { 200: 'binary', 202: 'json' },
  },
  { readBody: readStreamBody },
);

// browsers.computer

/**
 * Type text on the browser instance.
 *
 * `POST /browsers/{id}/computer/type` (§4.2 of the interface): a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 413, 415, 422, 429, 500, 503.
 * `browsers.computer.type`
 */
export const typeText: (
  core: Core,
  input: TypeTextInput,
  options?: CallOptions,
) => CallPromise<undefined> = /* @__PURE__ */ defineCall<TypeTextInput, undefined>({
  name: 'browsers.computer.type',
  method: 'POST',
  path: '/browsers/{id}/computer/type',
  body: 'json',
  responses: { 204: 'none' },
  write: true,
  serverTimeMs: typeDurationMs,
});

/**
 * Take a PNG screenshot of the browser.
 *
 * `POST /browsers/{id}/computer/screenshot`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 413, 415, 429, 500, 503.
 * `browsers.computer.screenshot`
 */
export const screenshot: (
  core: Core,
  input: ScreenshotInput,
  options?: CallOptions,
) => CallPromise<BinaryBody> = /* @__PURE__ */ defineCall<ScreenshotInput, BinaryBody>(
  {
    name: 'browsers.computer.screenshot',
    method: 'POST',
    path: '/browsers/{id}/computer/screenshot',
    body: 'json',
    bodyOptional: true,
    responses: { 200: 'binary' },
  },
  { readBody: readStreamBody },
);

/**
 * Click, press or release a mouse button at a point of the screen.
 *
 * `POST /browsers/{id}/computer/click_mouse`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 413, 415, 422, 429, 500, 503.
 * `browsers.computer.clickMouse`
 */
export const clickMouse: (
  core: Core,
  input: ClickMouseInput,
  options?: CallOptions,
) => CallPromise<undefined> = /* @__PURE__ */ defineCall<ClickMouseInput, undefined>({
  name: 'browsers.computer.clickMouse',
  method: 'POST',
  path: '/browsers/{id}/computer/click_mouse',
  body: 'json',
  responses: { 204: 'none' },
  write: true,
});

/**
 * Move the mouse to a point of the screen, straight or along a human-like path.
 *
 * `POST /browsers/{id}/computer/move_mouse`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 413, 415, 422, 429, 500, 503.
 * `browsers.computer.moveMouse`
 */
export const moveMouse: (
  core: Core,
  input: MoveMouseInput,
  options?: CallOptions,
) => CallPromise<undefined> = /* @__PURE__ */ defineCall<MoveMouseInput, undefined>({
  name: 'browsers.computer.moveMouse',
  method: 'POST',
  path: '/browsers/{id}/computer/move_mouse',
  body: 'json',
  responses: { 204: 'none' },
  write: true,
  serverTimeMs: moveDurationMs,
});

/**
 * Drag the mouse along a path with a button held.
 *
 * `POST /browsers/{id}/computer/drag_mouse`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 413, 415, 422, 429, 500, 503.
 * `browsers.computer.dragMouse`
 */
export const dragMouse: (
  core: Core,
  input: DragMouseInput,
  options?: CallOptions,
) => CallPromise<undefined> = /* @__PURE__ */ defineCall<DragMouseInput, undefined>({
  name: 'browsers.computer.dragMouse',
  method: 'POST',
  path: '/browsers/{id}/computer/drag_mouse',
  body: 'json',
  responses: { 204: 'none' },
  write: true,
  serverTimeMs: dragDurationMs,
});

/**
 * Turn the mouse wheel at a point of the screen.
 *
 * `POST /browsers/{id}/computer/scroll`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 413, 415, 422, 429, 500, 503.
 * `browsers.computer.scroll`
 */
export const scroll: (
  core: Core,
  input: ScrollInput,
  options?: CallOptions,
) => CallPromise<undefined> = /* @__PURE__ */ defineCall<ScrollInput, undefined>({
  name: 'browsers.computer.scroll',
  method: 'POST',
  path: '/browsers/{id}/computer/scroll',
  body: 'json',
  responses: { 204: 'none' },
  write: true,
});

/**
 * Press keys or combos such as Ctrl+t, holding each for a while if asked.
 *
 * `POST /browsers/{id}/computer/press_key`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 413, 415, 422, 429, 500, 503.
 * `browsers.computer.pressKey`
 */
export const pressKey: (
  core: Core,
  input: PressKeyInput,
  options?: CallOptions,
) => CallPromise<undefined> = /* @__PURE__ */ defineCall<PressKeyInput, undefined>({
  name: 'browsers.computer.pressKey',
  method: 'POST',
  path: '/browsers/{id}/computer/press_key',
  body: 'json',
  responses: { 204: 'none' },
  write: true,
  serverTimeMs: pressDurationMs,
});

/**
 * Get the mouse position the last action left.
 *
 * `POST /browsers/{id}/computer/get_mouse_position`: any token, read-only ones too.
 * Errors: 400, 401, 403, 404, 429, 500, 503.
 * `browsers.computer.getMousePosition`
 */
export const getMousePosition: (
  core: Core,
  input: GetMousePositionInput,
  options?: CallOptions,
) => CallPromise<MousePosition> = /* @__PURE__ */ defineCall<GetMousePositionInput, MousePosition>({
  name: 'browsers.computer.getMousePosition',
  method: 'POST',
  path: '/browsers/{id}/computer/get_mouse_position',
  responses: { 200: 'json' },
});

/**
 * Hide or show the mouse cursor.
 *
 * `POST /browsers/{id}/computer/cursor`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 413, 415, 422, 429, 500, 503.
 * `browsers.computer.setCursorVisibility`
 */
export const setCursorVisibility: (
  core: Core,
  input: SetCursorVisibilityInput,
  options?: CallOptions,
) => CallPromise<CursorResult> = /* @__PURE__ */ defineCall<SetCursorVisibilityInput, CursorResult>(
  {
    name: 'browsers.computer.setCursorVisibility',
    method: 'POST',
    path: '/browsers/{id}/computer/cursor',
    body: 'json',
    responses: { 200: 'json' },
    write: true,
  },
);

/**
 * Read the text on the browser's clipboard.
 *
 * `POST /browsers/{id}/computer/clipboard/read`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 409, 429, 500, 503.
 * `browsers.computer.readClipboard`
 */
export const readClipboard: (
  core: Core,
  input: ReadClipboardInput,
  options?: CallOptions,
) => CallPromise<ClipboardText> = /* @__PURE__ */ defineCall<ReadClipboardInput, ClipboardText>({
  name: 'browsers.computer.readClipboard',
  method: 'POST',
  path: '/browsers/{id}/computer/clipboard/read',
  responses: { 200: 'json' },
});

/**
 * Put text on the browser's clipboard (what Ctrl+V then pastes).
 *
 * `POST /browsers/{id}/computer/clipboard/write`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 409, 413, 415, 422, 429, 500, 503.
 * `browsers.computer.writeClipboard`
 */
export const writeClipboard: (
  core: Core,
  input: WriteClipboardInput,
  options?: CallOptions,
) => CallPromise<undefined> = /* @__PURE__ */ defineCall<WriteClipboardInput, undefined>({
  name: 'browsers.computer.writeClipboard',
  method: 'POST',
  path: '/browsers/{id}/computer/clipboard/write',
  body: 'json',
  responses: { 204: 'none' },
  write: true,
});

/**
 * Run mouse, keyboard and pause actions in order, stopping at the first that fails.
 *
 * `POST /browsers/{id}/computer/batch`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 413, 415, 422, 429, 500, 503.
 * `browsers.computer.batch`
 */
export const batch: (
  core: Core,
  input: BatchInput,
  options?: CallOptions,
) => CallPromise<undefined> = /* @__PURE__ */ defineCall<BatchInput, undefined>({
  name: 'browsers.computer.batch',
  method: 'POST',
  path: '/browsers/{id}/computer/batch',
  body: 'json',
  responses: { 204: 'none' },
  write: true,
  serverTimeMs: batchServerTimeMs,
});

// browserPools

/**
 * Get a browser pool by id or name.
 *
 * `GET /browser_pools/{id_or_name}` (§4.3 of the interface): any token, read-only ones too.
 * Errors: 400, 401, 403, 404, 429, 500, 503.
 * `browserPools.get`
 */
export const getBrowserPool: (
  core: Core,
  input: GetBrowserPoolInput,
  options?: CallOptions,
) => CallPromise<BrowserPool> = /* @__PURE__ */ defineCall<GetBrowserPoolInput, BrowserPool>({
  name: 'browserPools.get',
  method: 'GET',
  path: '/browser_pools/{id_or_name}',
  responses: { 200: 'json' },
});

/**
 * Create a browser pool.
 *
 * `POST /browser_pools`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 409, 413, 415, 422, 429, 500, 503.
 * `browserPools.create`
 */
export const createBrowserPool: (
  core: Core,
  input: CreateBrowserPoolInput,
  options?: CallOptions,
) => CallPromise<BrowserPool> = /* @__PURE__ */ defineCall<CreateBrowserPoolInput, BrowserPool>({
  name: 'browserPools.create',
  method: 'POST',
  path: '/browser_pools',
  body: 'json',
  responses: { 201: 'json' },
  write: true,
});

/**
 * List the browser pools.
 *
 * `GET /browser_pools`: any token, read-only ones too.
 * Errors: 400, 401, 403, 429, 500, 503.
 * `browserPools.list`
 */
export const listBrowserPools: (
  core: Core,
  input?: ListBrowserPoolsInput,
  options?: CallOptions,
) => PagePromise<BrowserPool> = /* @__PURE__ */ defineListCall<ListBrowserPoolsInput, BrowserPool>({
  name: 'browserPools.list',
  method: 'GET',
  path: '/browser_pools',
  query: ['offset', 'limit', 'name', 'query'],
  responses: { 200: 'json' },
  paginated: true,
});

/**
 * Update a browser pool.
 *
 * `PATCH /browser_pools/{id_or_name}`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 409, 413, 415, 429, 500, 503.
 * `browserPools.update`
 */
export const updateBrowserPool: (
  core: Core,
  input: UpdateBrowserPoolInput,
  options?: CallOptions,
) => CallPromise<BrowserPool> = /* @__PURE__ */ defineCall<UpdateBrowserPoolInput, BrowserPool>({
  name: 'browserPools.update',
  method: 'PATCH',
  path: '/browser_pools/{id_or_name}',
  body: 'json',
  responses: { 200: 'json' },
  write: true,
});

/**
 * Delete a browser pool.
 *
 * `DELETE /browser_pools/{id_or_name}`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 409, 429, 500, 503.
 * `browserPools.delete`
 */
export const deleteBrowserPool: (
  core: Core,
  input: DeleteBrowserPoolInput,
  options?: CallOptions,
) => CallPromise<undefined> = /* @__PURE__ */ defineCall<DeleteBrowserPoolInput, undefined>({
  name: 'browserPools.delete',
  method: 'DELETE',
  path: '/browser_pools/{id_or_name}',
  query: ['force'],
  responses: { 204: 'none' },
  write: true,
});

/**
 * Acquire a browser from a pool, waiting up to acquire_timeout_seconds.
 *
 * `POST /browser_pools/{id_or_name}/acquire`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 413, 415, 422, 429, 500, 503.
 * `browserPools.acquire`
 */
export const acquireBrowser: (
  core: Core,
  input: AcquireBrowserInput,
  options?: CallOptions,
) => CallPromise<AcquireBrowserResult> = /* @__PURE__ */ defineCall<
  AcquireBrowserInput,
  AcquireBrowserResult
>({
  name: 'browserPools.acquire',
  method: 'POST',
  path: '/browser_pools/{id_or_name}/acquire',
  body: 'json',
  bodyOptional: true,
  responses: { 200: 'json', 204: 'none' },
  write: true,
  serverTimeMs: acquireServerTimeMs,
});

/**
 * Release an acquired browser back to its pool.
 *
 * `POST /browser_pools/{id_or_name}/release`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 409, 413, 415, 422, 429, 500, 503.
 * `browserPools.release`
 */
export const releaseBrowser: (
  core: Core,
  input: ReleaseBrowserInput,
  options?: CallOptions,
) => CallPromise<undefined> = /* @__PURE__ */ defineCall<ReleaseBrowserInput, undefined>({
  name: 'browserPools.release',
  method: 'POST',
  path: '/browser_pools/{id_or_name}/release',
  body: 'json',
  responses: { 204: 'none' },
  write: true,
});

/**
 * Discard the idle browsers of a pool so fresh ones replace them.
 *
 * `POST /browser_pools/{id_or_name}/flush`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 422, 429, 500, 503.
 * `browserPools.flush`
 */
export const flushBrowserPool: (
  core: Core,
  input: FlushBrowserPoolInput,
  options?: CallOptions,
) => CallPromise<undefined> = /* @__PURE__ */ defineCall<FlushBrowserPoolInput, undefined>({
  name: 'browserPools.flush',
  method: 'POST',
  path: '/browser_pools/{id_or_name}/flush',
  responses: { 204: 'none' },
  write: true,
});

// extensions

/**
 * Upload a browser extension (zip with manifest.json at its root).
 *
 * `POST /extensions` (§4.4 of the interface): a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 409, 413, 415, 422, 429, 500, 503.
 * `extensions.upload`
 */
export const uploadExtension: (
  core: Core,
  input: UploadExtensionInput,
  options?: CallOptions,
) => CallPromise<Extension> = /* @__PURE__ */ defineCall<UploadExtensionInput, Extension>(
  {
    name: 'extensions.upload',
    method: 'POST',
    path: '/extensions',
    body: 'multipart',
    responses: { 201: 'json' },
    write: true,
  },
  { encodeBody: encodeUploadBody },
);

/**
 * List the uploaded extensions.
 *
 * `GET /extensions`: any token, read-only ones too.
 * Errors: 400, 401, 403, 429, 500, 503.
 * `extensions.list`
 */
export const listExtensions: (
  core: Core,
  input?: ListExtensionsInput,
  options?: CallOptions,
) => PagePromise<Extension> = /* @__PURE__ */ defineListCall<ListExtensionsInput, Extension>({
  name: 'extensions.list',
  method: 'GET',
  path: '/extensions',
  query: ['offset', 'limit', 'name', 'query'],
  responses: { 200: 'json' },
  paginated: true,
});

/**
 * Download an extension archive (zip).
 *
 * `GET /extensions/{id_or_name}`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 429, 500, 503.
 * `extensions.download`
 */
export const downloadExtension: (
  core: Core,
  input: DownloadExtensionInput,
  options?: CallOptions,
) => CallPromise<BinaryBody> = /* @__PURE__ */ defineCall<DownloadExtensionInput, BinaryBody>(
  {
    name: 'extensions.download',
    method: 'GET',
    path: '/extensions/{id_or_name}',
    responses: { 200: 'binary' },
  },
  { readBody: readStreamBody },
);

/**
 * Delete an extension.
 *
 * `DELETE /extensions/{id_or_name}`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 429, 500, 503.
 * `extensions.delete`
 */
export const deleteExtension: (
  core: Core,
  input: DeleteExtensionInput,
  options?: CallOptions,
) => CallPromise<undefined> = /* @__PURE__ */ defineCall<DeleteExtensionInput, undefined>({
  name: 'extensions.delete',
  method: 'DELETE',
  path: '/extensions/{id_or_name}',
  responses: { 204: 'none' },
  write: true,
});

/**
 * Get an extension's record (size, SHA-256, name) without downloading it.
 *
 * `GET /extensions/{id_or_name}/metadata`: any token, read-only ones too.
 * Errors: 400, 401, 403, 404, 429, 500, 503.
 * `extensions.metadata`
 */
export const getExtensionMetadata: (
  core: Core,
  input: GetExtensionMetadataInput,
  options?: CallOptions,
) => CallPromise<Extension> = /* @__PURE__ */ defineCall<GetExtensionMetadataInput, Extension>({
  name: 'extensions.metadata',
  method: 'GET',
  path: '/extensions/{id_or_name}/metadata',
  responses: { 200: 'json' },
});

// invocations

/**
 * List the active browsers of an invocation.
 *
 * `GET /invocations/{id}/browsers` (§4.5 of the interface): any token, read-only ones too.
 * Errors: 400, 401, 403, 404, 429, 500, 503.
 * `invocations.listBrowsers`
 */
export const listInvocationBrowsers: (
  core: Core,
  input: ListInvocationBrowsersInput,
  options?: CallOptions,
) => CallPromise<InvocationBrowsers> = /* @__PURE__ */ defineCall<
  ListInvocationBrowsersInput,
  InvocationBrowsers
>({
  name: 'invocations.listBrowsers',
  method: 'GET',
  path: '/invocations/{id}/browsers',
  responses: { 200: 'json' },
});

/**
 * Invoke an app's action: wait for its result, or queue it (async).
 *
 * `POST /invocations`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 413, 415, 422, 429, 500, 503.
 * `invocations.create`
 */
export const createInvocation: (
  core: Core,
  input: CreateInvocationInput,
  options?: CallOptions,
) => CallPromise<CreateInvocationResult> = /* @__PURE__ */ defineCall<
  CreateInvocationInput,
  CreateInvocationResult
>({
  name: 'invocations.create',
  method: 'POST',
  path: '/invocations',
  body: 'json',
  responses: { 200: 'json', 202: 'json' },
  write: true,
});

/**
 * List the invocations.
 *
 * `GET /invocations`: any token, read-only ones too.
 * Errors: 400, 401, 403, 429, 500, 503.
 * `invocations.list`
 */
export const listInvocations: (
  core: Core,
  input?: ListInvocationsInput,
  options?: CallOptions,
) => PagePromise<Invocation> = /* @__PURE__ */ defineListCall<ListInvocationsInput, Invocation>({
  name: 'invocations.list',
  method: 'GET',
  path: '/invocations',
  query: ['offset', 'limit', 'status', 'app_name', 'action_name'],
  responses: { 200: 'json' },
  paginated: true,
});

/**
 * Get an invocation.
 *
 * `GET /invocations/{id}`: any token, read-only ones too.
 * Errors: 400, 401, 403, 404, 429, 500, 503.
 * `invocations.get`
 */
export const getInvocation: (
  core: Core,
  input: GetInvocationInput,
  options?: CallOptions,
) => CallPromise<Invocation> = /* @__PURE__ */ defineCall<GetInvocationInput, Invocation>({
  name: 'invocations.get',
  method: 'GET',
  path: '/invocations/{id}',
  responses: { 200: 'json' },
});

/**
 * End an invocation (succeeded, or failed to cancel it): its code stops, its browsers are deleted.
 *
 * `PATCH /invocations/{id}`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 409, 413, 415, 429, 500, 503.
 * `invocations.update`
 */
export const updateInvocation: (
  core: Core,
  input: UpdateInvocationInput,
  options?: CallOptions,
) => CallPromise<Invocation> = /* @__PURE__ */ defineCall<UpdateInvocationInput, Invocation>({
  name: 'invocations.update',
  method: 'PATCH',
  path: '/invocations/{id}',
  body: 'json',
  responses: { 200: 'json' },
  write: true,
});

/**
 * Delete every running browser of an invocation.
 *
 * `DELETE /invocations/{id}/browsers`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 429, 500, 503.
 * `invocations.deleteBrowsers`
 */
export const deleteInvocationBrowsers: (
  core: Core,
  input: DeleteInvocationBrowsersInput,
  options?: CallOptions,
) => CallPromise<undefined> = /* @__PURE__ */ defineCall<DeleteInvocationBrowsersInput, undefined>({
  name: 'invocations.deleteBrowsers',
  method: 'DELETE',
  path: '/invocations/{id}/browsers',
  responses: { 204: 'none' },
  write: true,
});

/**
 * Follow an invocation: its code's console and its states, until it ends.
 *
 * `GET /invocations/{id}/events`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 429, 500, 503.
 * `invocations.events`
 */
export const followInvocation: (
  core: Core,
  input: FollowInvocationInput,
  options?: CallOptions,
) => CallPromise<FollowInvocationResult> = /* @__PURE__ */ defineCall<
  FollowInvocationInput,
  FollowInvocationResult
>(
  {
    name: 'invocations.events',
    method: 'GET',
    path: '/invocations/{id}/events',
    responses: { 200: 'event-stream' },
  },
  { readBody: readStreamBody },
);

// browsers.process

/**
 * Get the status of a process.
 *
 * `GET /browsers/{id}/process/{process_id}/status` (§4.6 of the interface): any token, read-only ones too.
 * Errors: 400, 401, 403, 404, 429, 500, 503.
 * `browsers.process.status`
 */
export const getProcessStatus: (
  core: Core,
  input: GetProcessStatusInput,
  options?: CallOptions,
) => CallPromise<ProcessStatus> = /* @__PURE__ */ defineCall<GetProcessStatusInput, ProcessStatus>({
  name: 'browsers.process.status',
  method: 'GET',
  path: '/browsers/{id}/process/{process_id}/status',
  responses: { 200: 'json' },
});

/**
 * Start a process on the browser instance.
 *
 * `POST /browsers/{id}/process/spawn`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 413, 415, 422, 429, 500, 503.
 * `browsers.process.spawn`
 */
export const spawnProcess: (
  core: Core,
  input: SpawnProcessInput,
  options?: CallOptions,
) => CallPromise<SpawnedProcess> = /* @__PURE__ */ defineCall<SpawnProcessInput, SpawnedProcess>({
  name: 'browsers.process.spawn',
  method: 'POST',
  path: '/browsers/{id}/process/spawn',
  body: 'json',
  responses: { 200: 'json' },
  write: true,
});

/**
 * Run a command on the browser instance and wait for it.
 *
 * `POST /browsers/{id}/process/exec`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 413, 415, 422, 429, 500, 503.
 * `browsers.process.exec`
 */
export const execProcess: (
  core: Core,
  input: ExecProcessInput,
  options?: CallOptions,
) => CallPromise<ExecResult> = /* @__PURE__ */ defineCall<ExecProcessInput, ExecResult>({
  name: 'browsers.process.exec',
  method: 'POST',
  path: '/browsers/{id}/process/exec',
  body: 'json',
  responses: { 200: 'json' },
  write: true,
  serverTimeMs: execServerTimeMs,
});

/**
 * Send a signal to a process.
 *
 * `POST /browsers/{id}/process/{process_id}/kill`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 413, 415, 422, 429, 500, 503.
 * `browsers.process.kill`
 */
export const killProcess: (
  core: Core,
  input: KillProcessInput,
  options?: CallOptions,
) => CallPromise<KillResult> = /* @__PURE__ */ defineCall<KillProcessInput, KillResult>({
  name: 'browsers.process.kill',
  method: 'POST',
  path: '/browsers/{id}/process/{process_id}/kill',
  body: 'json',
  bodyOptional: true,
  responses: { 200: 'json' },
  write: true,
});

/**
 * Stream the output of a process (SSE).
 *
 * `GET /browsers/{id}/process/{process_id}/stdout/stream`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 429, 500, 503.
 * `browsers.process.output`
 */
export const streamProcessOutput: (
  core: Core,
  input: StreamProcessOutputInput,
  options?: CallOptions,
) => CallPromise<EventStream<ProcessOutputEvent>> = /* @__PURE__ */ defineCall<
  StreamProcessOutputInput,
  EventStream<ProcessOutputEvent>
>(
  {
    name: 'browsers.process.output',
    method: 'GET',
    path: '/browsers/{id}/process/{process_id}/stdout/stream',
    responses: { 200: 'event-stream' },
  },
  { readBody: readStreamBody },
);

/**
 * Write to the input of a process.
 *
 * `POST /browsers/{id}/process/{process_id}/stdin`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 409, 413, 415, 422, 429, 500, 503.
 * `browsers.process.stdin`
 */
export const writeProcessStdin: (
  core: Core,
  input: WriteProcessStdinInput,
  options?: CallOptions,
) => CallPromise<ProcessStdinResult> = /* @__PURE__ */ defineCall<
  WriteProcessStdinInput,
  ProcessStdinResult
>({
  name: 'browsers.process.stdin',
  method: 'POST',
  path: '/browsers/{id}/process/{process_id}/stdin',
  body: 'json',
  responses: { 200: 'json' },
  write: true,
});

/**
 * Resize the terminal of a process.
 *
 * `POST /browsers/{id}/process/{process_id}/resize`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 413, 415, 422, 429, 500, 503.
 * `browsers.process.resize`
 */
export const resizeProcess: (
  core: Core,
  input: ResizeProcessInput,
  options?: CallOptions,
) => CallPromise<KillResult> = /* @__PURE__ */ defineCall<ResizeProcessInput, KillResult>({
  name: 'browsers.process.resize',
  method: 'POST',
  path: '/browsers/{id}/process/{process_id}/resize',
  body: 'json',
  responses: { 200: 'json' },
  write: true,
});

// browsers.fs.watch

/**
 * Stop watching a directory.
 *
 * `DELETE /browsers/{id}/fs/watch/{watch_id}` (§4.7 of the interface): a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 429, 500, 503.
 * `browsers.fs.watch.stop`
 */
export const stopWatch: (
  core: Core,
  input: StopWatchInput,
  options?: CallOptions,
) => CallPromise<undefined> = /* @__PURE__ */ defineCall<StopWatchInput, undefined>({
  name: 'browsers.fs.watch.stop',
  method: 'DELETE',
  path: '/browsers/{id}/fs/watch/{watch_id}',
  responses: { 204: 'none' },
  write: true,
});

/**
 * Start watching a directory on the browser instance.
 *
 * `POST /browsers/{id}/fs/watch`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 413, 415, 422, 429, 500, 503.
 * `browsers.fs.watch.start`
 */
export const startWatch: (
  core: Core,
  input: StartWatchInput,
  options?: CallOptions,
) => CallPromise<Watch> = /* @__PURE__ */ defineCall<StartWatchInput, Watch>({
  name: 'browsers.fs.watch.start',
  method: 'POST',
  path: '/browsers/{id}/fs/watch',
  body: 'json',
  responses: { 201: 'json' },
  write: true,
});

/**
 * Stream the events of a directory watch (SSE).
 *
 * `GET /browsers/{id}/fs/watch/{watch_id}/events`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 429, 500, 503.
 * `browsers.fs.watch.events`
 */
export const watchEvents: (
  core: Core,
  input: WatchEventsInput,
  options?: CallOptions,
) => CallPromise<EventStream<WatchEvent>> = /* @__PURE__ */ defineCall<
  WatchEventsInput,
  EventStream<WatchEvent>
>(
  {
    name: 'browsers.fs.watch.events',
    method: 'GET',
    path: '/browsers/{id}/fs/watch/{watch_id}/events',
    responses: { 200: 'event-stream' },
  },
  { readBody: readStreamBody },
);

// browsers

/**
 * Create a browser session.
 *
 * `POST /browsers`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 409, 413, 415, 422, 429, 500, 503.
 * `browsers.create`
 */
export const createBrowser: (
  core: Core,
  input?: CreateBrowserInput,
  options?: CallOptions,
) => CallPromise<BrowserSession> = /* @__PURE__ */ defineCall<CreateBrowserInput, BrowserSession>({
  name: 'browsers.create',
  method: 'POST',
  path: '/browsers',
  body: 'json',
  bodyOptional: true,
  responses: { 201: 'json' },
  write: true,
});

/**
 * List the browser sessions (the active ones unless status says otherwise).
 *
 * `GET /browsers`: any token, read-only ones too.
 * Errors: 400, 401, 403, 429, 500, 503.
 * `browsers.list`
 */
export const listBrowsers: (
  core: Core,
  input?: ListBrowsersInput,
  options?: CallOptions,
) => PagePromise<BrowserSession> = /* @__PURE__ */ defineListCall<
  ListBrowsersInput,
  BrowserSession
>({
  name: 'browsers.list',
  method: 'GET',
  path: '/browsers',
  query: ['offset', 'limit', 'status'],
  responses: { 200: 'json' },
  paginated: true,
});

/**
 * Get a browser session.
 *
 * `GET /browsers/{id}`: any token, read-only ones too.
 * Errors: 400, 401, 403, 404, 429, 500, 503.
 * `browsers.get`
 */
export const getBrowser: (
  core: Core,
  input: GetBrowserInput,
  options?: CallOptions,
) => CallPromise<BrowserSession> = /* @__PURE__ */ defineCall<GetBrowserInput, BrowserSession>({
  name: 'browsers.get',
  method: 'GET',
  path: '/browsers/{id}',
  responses: { 200: 'json' },
});

/**
 * Delete a browser session.
 *
 * `DELETE /browsers/{id}`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 429, 500, 503.
 * `browsers.delete`
 */
export const deleteBrowser: (
  core: Core,
  input: DeleteBrowserInput,
  options?: CallOptions,
) => CallPromise<undefined> = /* @__PURE__ */ defineCall<DeleteBrowserInput, undefined>({
  name: 'browsers.delete',
  method: 'DELETE',
  path: '/browsers/{id}',
  responses: { 204: 'none' },
  write: true,
});

/**
 * Make an HTTP request through the browser.
 *
 * `POST /browsers/{id}/curl`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 413, 415, 422, 429, 500, 502, 503, 504.
 * `browsers.curl`
 */
export const curl: (
  core: Core,
  input: CurlInput,
  options?: CallOptions,
) => CallPromise<CurlResult> = /* @__PURE__ */ defineCall<CurlInput, CurlResult>({
  name: 'browsers.curl',
  method: 'POST',
  path: '/browsers/{id}/curl',
  body: 'json',
  responses: { 200: 'json' },
  write: true,
  serverTimeMs: curlServerTimeMs,
});

/**
 * Update a running browser session (name, tags, viewport, proxy, time-out).
 *
 * `PATCH /browsers/{id}`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 409, 413, 415, 429, 500, 503.
 * `browsers.update`
 */
export const updateBrowser: (
  core: Core,
  input: UpdateBrowserInput,
  options?: CallOptions,
) => CallPromise<BrowserSession> = /* @__PURE__ */ defineCall<UpdateBrowserInput, BrowserSession>({
  name: 'browsers.update',
  method: 'PATCH',
  path: '/browsers/{id}',
  body: 'json',
  responses: { 200: 'json' },
  write: true,
});

/**
 * Load unpacked extensions (zips) into a running browser.
 *
 * `POST /browsers/{id}/extensions`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 409, 413, 415, 422, 429, 500, 503.
 * `browsers.loadExtensions`
 */
export const loadExtensions: (
  core: Core,
  input: LoadExtensionsInput,
  options?: CallOptions,
) => CallPromise<LoadedExtensions> = /* @__PURE__ */ defineCall<
  LoadExtensionsInput,
  LoadedExtensions
>(
  {
    name: 'browsers.loadExtensions',
    method: 'POST',
    path: '/browsers/{id}/extensions',
    body: 'multipart',
    responses: { 200: 'json' },
    write: true,
  },
  { encodeBody: encodeUploadBody },
);

// browsers.liveView

/**
 * Create a live view link to watch (read) or drive (control) the browser session.
 *
 * `POST /browsers/{id}/live_view`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 413, 415, 422, 429, 500, 503.
 * `browsers.liveView.create`
 */
export const createLiveView: (
  core: Core,
  input: CreateLiveViewInput,
  options?: CallOptions,
) => CallPromise<LiveView> = /* @__PURE__ */ defineCall<CreateLiveViewInput, LiveView>({
  name: 'browsers.liveView.create',
  method: 'POST',
  path: '/browsers/{id}/live_view',
  body: 'json',
  bodyOptional: true,
  responses: { 201: 'json' },
  write: true,
});

// browsers.fs

/**
 * Read a file on the browser instance.
 *
 * `GET /browsers/{id}/fs/read_file`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 429, 500, 503, 507.
 * `browsers.fs.readFile`
 */
export const readFile: (
  core: Core,
  input: ReadFileInput,
  options?: CallOptions,
) => CallPromise<BinaryBody> = /* @__PURE__ */ defineCall<ReadFileInput, BinaryBody>(
  {
    name: 'browsers.fs.readFile',
    method: 'GET',
    path: '/browsers/{id}/fs/read_file',
    query: ['path'],
    responses: { 200: 'binary' },
  },
  { readBody: readStreamBody },
);

/**
 * Write a file on the browser instance (the body is its bytes).
 *
 * `PUT /browsers/{id}/fs/write_file`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 409, 413, 429, 500, 503, 507.
 * `browsers.fs.writeFile`
 */
export const writeFile: (
  core: Core,
  input: WriteFileInput,
  options?: CallOptions,
) => CallPromise<undefined> = /* @__PURE__ */ defineCall<WriteFileInput, undefined>(
  {
    name: 'browsers.fs.writeFile',
    method: 'PUT',
    path: '/browsers/{id}/fs/write_file',
    query: ['path', 'mode'],
    body: 'binary',
    mediaType: 'application/octet-stream',
    responses: { 201: 'none' },
    write: true,
  },
  { encodeBody: encodeUploadBody },
);

/**
 * List a directory on the browser instance.
 *
 * `GET /browsers/{id}/fs/list_files`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 413, 429, 500, 503, 507.
 * `browsers.fs.listFiles`
 */
export const listFiles: (
  core: Core,
  input: ListFilesInput,
  options?: CallOptions,
) => CallPromise<FileEntry[]> = /* @__PURE__ */ defineCall<ListFilesInput, FileEntry[]>({
  name: 'browsers.fs.listFiles',
  method: 'GET',
  path: '/browsers/{id}/fs/list_files',
  query: ['path'],
  responses: { 200: 'json' },
});

/**
 * Describe a file or directory on the browser instance.
 *
 * `GET /browsers/{id}/fs/file_info`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 429, 500, 503, 507.
 * `browsers.fs.fileInfo`
 */
export const fileInfo: (
  core: Core,
  input: FileInfoInput,
  options?: CallOptions,
) => CallPromise<FileEntry> = /* @__PURE__ */ defineCall<FileInfoInput, FileEntry>({
  name: 'browsers.fs.fileInfo',
  method: 'GET',
  path: '/browsers/{id}/fs/file_info',
  query: ['path'],
  responses: { 200: 'json' },
});

/**
 * Create a directory (and its missing parents) on the browser instance.
 *
 * `PUT /browsers/{id}/fs/create_directory`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 409, 413, 415, 429, 500, 503, 507.
 * `browsers.fs.createDirectory`
 */
export const createDirectory: (
  core: Core,
  input: CreateDirectoryInput,
  options?: CallOptions,
) => CallPromise<undefined> = /* @__PURE__ */ defineCall<CreateDirectoryInput, undefined>({
  name: 'browsers.fs.createDirectory',
  method: 'PUT',
  path: '/browsers/{id}/fs/create_directory',
  body: 'json',
  responses: { 201: 'none' },
  write: true,
});

/**
 * Delete a file on the browser instance.
 *
 * `PUT /browsers/{id}/fs/delete_file`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 409, 413, 415, 429, 500, 503, 507.
 * `browsers.fs.deleteFile`
 */
export const deleteFile: (
  core: Core,
  input: DeleteFileInput,
  options?: CallOptions,
) => CallPromise<undefined> = /* @__PURE__ */ defineCall<DeleteFileInput, undefined>({
  name: 'browsers.fs.deleteFile',
  method: 'PUT',
  path: '/browsers/{id}/fs/delete_file',
  body: 'json',
  responses: { 200: 'none' },
  write: true,
});

/**
 * Delete a directory and everything in it on the browser instance.
 *
 * `PUT /browsers/{id}/fs/delete_directory`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 409, 413, 415, 429, 500, 503, 507.
 * `browsers.fs.deleteDirectory`
 */
export const deleteDirectory: (
  core: Core,
  input: DeleteDirectoryInput,
  options?: CallOptions,
) => CallPromise<undefined> = /* @__PURE__ */ defineCall<DeleteDirectoryInput, undefined>({
  name: 'browsers.fs.deleteDirectory',
  method: 'PUT',
  path: '/browsers/{id}/fs/delete_directory',
  body: 'json',
  responses: { 200: 'none' },
  write: true,
});

/**
 * Move or rename a file or directory on the browser instance.
 *
 * `PUT /browsers/{id}/fs/move`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 409, 413, 415, 429, 500, 503, 507.
 * `browsers.fs.move`
 */
export const moveFile: (
  core: Core,
  input: MoveFileInput,
  options?: CallOptions,
) => CallPromise<undefined> = /* @__PURE__ */ defineCall<MoveFileInput, undefined>({
  name: 'browsers.fs.move',
  method: 'PUT',
  path: '/browsers/{id}/fs/move',
  body: 'json',
  responses: { 200: 'none' },
  write: true,
});

/**
 * Set a file's permission bits on the browser instance.
 *
 * `PUT /browsers/{id}/fs/set_file_permissions`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 409, 413, 415, 429, 500, 503, 507.
 * `browsers.fs.setFilePermissions`
 */
export const setFilePermissions: (
  core: Core,
  input: SetFilePermissionsInput,
  options?: CallOptions,
) => CallPromise<undefined> = /* @__PURE__ */ defineCall<SetFilePermissionsInput, undefined>({
  name: 'browsers.fs.setFilePermissions',
  method: 'PUT',
  path: '/browsers/{id}/fs/set_file_permissions',
  body: 'json',
  responses: { 200: 'none' },
  write: true,
});

/**
 * Upload files to the browser instance (multipart, each with its dest_path).
 *
 * `POST /browsers/{id}/fs/upload`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 409, 413, 415, 422, 429, 500, 503, 507.
 * `browsers.fs.upload`
 */
export const uploadFiles: (
  core: Core,
  input: UploadFilesInput,
  options?: CallOptions,
) => CallPromise<undefined> = /* @__PURE__ */ defineCall<UploadFilesInput, undefined>(
  {
    name: 'browsers.fs.upload',
    method: 'POST',
    path: '/browsers/{id}/fs/upload',
    body: 'multipart',
    responses: { 201: 'none' },
    write: true,
  },
  { encodeBody: encodeUploadBody },
);

/**
 * Upload a zip and unpack it into a directory on the browser instance.
 *
 * `POST /browsers/{id}/fs/upload_zip`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 409, 413, 415, 422, 429, 500, 503, 507.
 * `browsers.fs.uploadZip`
 */
export const uploadZip: (
  core: Core,
  input: UploadZipInput,
  options?: CallOptions,
) => CallPromise<undefined> = /* @__PURE__ */ defineCall<UploadZipInput, undefined>(
  {
    name: 'browsers.fs.uploadZip',
    method: 'POST',
    path: '/browsers/{id}/fs/upload_zip',
    body: 'multipart',
    responses: { 201: 'none' },
    write: true,
  },
  { encodeBody: encodeUploadBody },
);

/**
 * Download a directory of the browser instance as a zip.
 *
 * `GET /browsers/{id}/fs/download_dir_zip`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 413, 429, 500, 503, 507.
 * `browsers.fs.downloadDirZip`
 */
export const downloadDirZip: (
  core: Core,
  input: DownloadDirZipInput,
  options?: CallOptions,
) => CallPromise<BinaryBody> = /* @__PURE__ */ defineCall<DownloadDirZipInput, BinaryBody>(
  {
    name: 'browsers.fs.downloadDirZip',
    method: 'GET',
    path: '/browsers/{id}/fs/download_dir_zip',
    query: ['path'],
    responses: { 200: 'binary' },
  },
  { readBody: readStreamBody },
);

// profiles

/**
 * Create a browser profile (empty until a session saves into it).
 *
 * `POST /profiles`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 409, 413, 415, 422, 429, 500, 503.
 * `profiles.create`
 */
export const createProfile: (
  core: Core,
  input?: CreateProfileInput,
  options?: CallOptions,
) => CallPromise<Profile> = /* @__PURE__ */ defineCall<CreateProfileInput, Profile>({
  name: 'profiles.create',
  method: 'POST',
  path: '/profiles',
  body: 'json',
  bodyOptional: true,
  responses: { 201: 'json' },
  write: true,
});

/**
 * List the browser profiles.
 *
 * `GET /profiles`: any token, read-only ones too.
 * Errors: 400, 401, 403, 429, 500, 503.
 * `profiles.list`
 */
export const listProfiles: (
  core: Core,
  input?: ListProfilesInput,
  options?: CallOptions,
) => PagePromise<Profile> = /* @__PURE__ */ defineListCall<ListProfilesInput, Profile>({
  name: 'profiles.list',
  method: 'GET',
  path: '/profiles',
  query: ['offset', 'limit', 'name', 'query'],
  responses: { 200: 'json' },
  paginated: true,
});

/**
 * Get a browser profile.
 *
 * `GET /profiles/{id_or_name}`: any token, read-only ones too.
 * Errors: 400, 401, 403, 404, 429, 500, 503.
 * `profiles.get`
 */
export const getProfile: (
  core: Core,
  input: GetProfileInput,
  options?: CallOptions,
) => CallPromise<Profile> = /* @__PURE__ */ defineCall<GetProfileInput, Profile>({
  name: 'profiles.get',
  method: 'GET',
  path: '/profiles/{id_or_name}',
  responses: { 200: 'json' },
});

/**
 * Rename a browser profile.
 *
 * `PATCH /profiles/{id_or_name}`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 409, 413, 415, 429, 500, 503.
 * `profiles.update`
 */
export const updateProfile: (
  core: Core,
  input: UpdateProfileInput,
  options?: CallOptions,
) => CallPromise<Profile> = /* @__PURE__ */ defineCall<UpdateProfileInput, Profile>({
  name: 'profiles.update',
  method: 'PATCH',
  path: '/profiles/{id_or_name}',
  body: 'json',
  responses: { 200: 'json' },
  write: true,
});

/**
 * Delete a browser profile (409 while a browser saves into it or a pool uses it).
 *
 * `DELETE /profiles/{id_or_name}`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 409, 429, 500, 503.
 * `profiles.delete`
 */
export const deleteProfile: (
  core: Core,
  input: DeleteProfileInput,
  options?: CallOptions,
) => CallPromise<undefined> = /* @__PURE__ */ defineCall<DeleteProfileInput, undefined>({
  name: 'profiles.delete',
  method: 'DELETE',
  path: '/profiles/{id_or_name}',
  responses: { 204: 'none' },
  write: true,
});

/**
 * Download a browser profile's data (tar, or tar.zst with format=tar.zst).
 *
 * `GET /profiles/{id_or_name}/download`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 429, 500, 503.
 * `profiles.download`
 */
export const downloadProfile: (
  core: Core,
  input: DownloadProfileInput,
  options?: CallOptions,
) => CallPromise<BinaryBody> = /* @__PURE__ */ defineCall<DownloadProfileInput, BinaryBody>(
  {
    name: 'profiles.download',
    method: 'GET',
    path: '/profiles/{id_or_name}/download',
    query: ['format'],
    responses: { 200: 'binary' },
  },
  { readBody: readStreamBody },
);

// proxies

/**
 * Create a proxy configuration (type custom: a proxy the operator provides).
 *
 * `POST /proxies`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 409, 413, 415, 422, 429, 500, 503.
 * `proxies.create`
 */
export const createProxy: (
  core: Core,
  input: CreateProxyInput,
  options?: CallOptions,
) => CallPromise<ProxyConfig> = /* @__PURE__ */ defineCall<CreateProxyInput, ProxyConfig>({
  name: 'proxies.create',
  method: 'POST',
  path: '/proxies',
  body: 'json',
  responses: { 201: 'json' },
  write: true,
});

/**
 * List the proxies.
 *
 * `GET /proxies`: any token, read-only ones too.
 * Errors: 400, 401, 403, 429, 500, 503.
 * `proxies.list`
 */
export const listProxies: (
  core: Core,
  input?: ListProxiesInput,
  options?: CallOptions,
) => PagePromise<ProxyConfig> = /* @__PURE__ */ defineListCall<ListProxiesInput, ProxyConfig>({
  name: 'proxies.list',
  method: 'GET',
  path: '/proxies',
  query: ['offset', 'limit'],
  responses: { 200: 'json' },
  paginated: true,
});

/**
 * Get a proxy.
 *
 * `GET /proxies/{id}`: any token, read-only ones too.
 * Errors: 400, 401, 403, 404, 429, 500, 503.
 * `proxies.get`
 */
export const getProxy: (
  core: Core,
  input: GetProxyInput,
  options?: CallOptions,
) => CallPromise<ProxyConfig> = /* @__PURE__ */ defineCall<GetProxyInput, ProxyConfig>({
  name: 'proxies.get',
  method: 'GET',
  path: '/proxies/{id}',
  responses: { 200: 'json' },
});

/**
 * Change a proxy (browsers started before keep the settings they started with).
 *
 * `PATCH /proxies/{id}`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 409, 413, 415, 429, 500, 503.
 * `proxies.update`
 */
export const updateProxy: (
  core: Core,
  input: UpdateProxyInput,
  options?: CallOptions,
) => CallPromise<ProxyConfig> = /* @__PURE__ */ defineCall<UpdateProxyInput, ProxyConfig>({
  name: 'proxies.update',
  method: 'PATCH',
  path: '/proxies/{id}',
  body: 'json',
  responses: { 200: 'json' },
  write: true,
});

/**
 * Delete a proxy (409 while a browser uses it, unless force=true; or a pool names it).
 *
 * `DELETE /proxies/{id}`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 409, 429, 500, 503.
 * `proxies.delete`
 */
export const deleteProxy: (
  core: Core,
  input: DeleteProxyInput,
  options?: CallOptions,
) => CallPromise<undefined> = /* @__PURE__ */ defineCall<DeleteProxyInput, undefined>({
  name: 'proxies.delete',
  method: 'DELETE',
  path: '/proxies/{id}',
  query: ['force'],
  responses: { 204: 'none' },
  write: true,
});

/**
 * Check a proxy: reach a site through it, and record its status and exit address.
 *
 * `POST /proxies/{id}/check`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 422, 429, 500, 503.
 * `proxies.check`
 */
export const checkProxy: (
  core: Core,
  input: CheckProxyInput,
  options?: CallOptions,
) => CallPromise<ProxyConfig> = /* @__PURE__ */ defineCall<CheckProxyInput, ProxyConfig>({
  name: 'proxies.check',
  method: 'POST',
  path: '/proxies/{id}/check',
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

// browsers.playwright

/**
 * Run Playwright code against the browser.
 *
 * `POST /browsers/{id}/playwright/execute`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 409, 413, 415, 422, 429, 500, 503.
 * `browsers.playwright.execute`
 */
export const executePlaywright: (
  core: Core,
  input: ExecutePlaywrightInput,
  options?: CallOptions,
) => CallPromise<PlaywrightExecuteResult> = /* @__PURE__ */ defineCall<
  ExecutePlaywrightInput,
  PlaywrightExecuteResult
>({
  name: 'browsers.playwright.execute',
  method: 'POST',
  path: '/browsers/{id}/playwright/execute',
  body: 'json',
  responses: { 200: 'json' },
  write: true,
  serverTimeMs: playwrightServerTimeMs,
});

// browsers.logs

/**
 * Stream the lines of a log (SSE).
 *
 * `GET /browsers/{id}/logs/stream`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 429, 500, 503.
 * `browsers.logs.stream`
 */
export const streamLogs: (
  core: Core,
  input: StreamLogsInput,
  options?: CallOptions,
) => CallPromise<EventStream<LogEvent>> = /* @__PURE__ */ defineCall<
  StreamLogsInput,
  EventStream<LogEvent>
>(
  {
    name: 'browsers.logs.stream',
    method: 'GET',
    path: '/browsers/{id}/logs/stream',
    query: ['source', 'path', 'follow', 'supervisor_process'],
    responses: { 200: 'event-stream' },
  },
  { readBody: readStreamBody },
);

// browsers.telemetry

/**
 * List the telemetry events of a browser session.
 *
 * `GET /browsers/{id}/telemetry/events`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 429, 500, 503.
 * `browsers.telemetry.events`
 */
export const listTelemetryEvents: (
  core: Core,
  input: ListTelemetryEventsInput,
  options?: CallOptions,
) => PagePromise<TelemetryEnvelope> = /* @__PURE__ */ defineListCall<
  ListTelemetryEventsInput,
  TelemetryEnvelope
>({
  name: 'browsers.telemetry.events',
  method: 'GET',
  path: '/browsers/{id}/telemetry/events',
  query: ['offset', 'limit', 'category', 'order', 'since', 'until'],
  responses: { 200: 'json' },
  paginated: true,
});

/**
 * Stream the telemetry events of a browser session (SSE).
 *
 * `GET /browsers/{id}/telemetry/stream`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 429, 500, 503.
 * `browsers.telemetry.stream`
 */
export const streamTelemetry: (
  core: Core,
  input: StreamTelemetryInput,
  options?: CallOptions,
) => CallPromise<EventStream<TelemetryEnvelope>> = /* @__PURE__ */ defineCall<
  StreamTelemetryInput,
  EventStream<TelemetryEnvelope>
>(
  {
    name: 'browsers.telemetry.stream',
    method: 'GET',
    path: '/browsers/{id}/telemetry/stream',
    query: ['replay', 'last_event_id'],
    responses: { 200: 'event-stream' },
  },
  { readBody: readStreamBody },
);

// credentials

/**
 * Store a credential (a login for one site); its values and TOTP secret are write-only.
 *
 * `POST /credentials`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 409, 413, 415, 422, 429, 500, 503.
 * `credentials.create`
 */
export const createCredential: (
  core: Core,
  input: CreateCredentialInput,
  options?: CallOptions,
) => CallPromise<Credential> = /* @__PURE__ */ defineCall<CreateCredentialInput, Credential>({
  name: 'credentials.create',
  method: 'POST',
  path: '/credentials',
  body: 'json',
  responses: { 201: 'json' },
  write: true,
});

/**
 * List the credentials (never their values).
 *
 * `GET /credentials`: any token, read-only ones too.
 * Errors: 400, 401, 403, 429, 500, 503.
 * `credentials.list`
 */
export const listCredentials: (
  core: Core,
  input?: ListCredentialsInput,
  options?: CallOptions,
) => PagePromise<Credential> = /* @__PURE__ */ defineListCall<ListCredentialsInput, Credential>({
  name: 'credentials.list',
  method: 'GET',
  path: '/credentials',
  query: ['offset', 'limit', 'domain', 'query'],
  responses: { 200: 'json' },
  paginated: true,
});

/**
 * Get a credential (the names of its values, never the values).
 *
 * `GET /credentials/{id_or_name}`: any token, read-only ones too.
 * Errors: 400, 401, 403, 404, 429, 500, 503.
 * `credentials.get`
 */
export const getCredential: (
  core: Core,
  input: GetCredentialInput,
  options?: CallOptions,
) => CallPromise<Credential> = /* @__PURE__ */ defineCall<GetCredentialInput, Credential>({
  name: 'credentials.get',
  method: 'GET',
  path: '/credentials/{id_or_name}',
  responses: { 200: 'json' },
});

/**
 * Change a credential: values added, overwritten or removed; name, SSO provider, TOTP secret.
 *
 * `PATCH /credentials/{id_or_name}`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 409, 413, 415, 429, 500, 503.
 * `credentials.update`
 */
export const updateCredential: (
  core: Core,
  input: UpdateCredentialInput,
  options?: CallOptions,
) => CallPromise<Credential> = /* @__PURE__ */ defineCall<UpdateCredentialInput, Credential>({
  name: 'credentials.update',
  method: 'PATCH',
  path: '/credentials/{id_or_name}',
  body: 'json',
  responses: { 200: 'json' },
  write: true,
});

/**
 * Delete a credential and its sealed values.
 *
 * `DELETE /credentials/{id_or_name}`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 429, 500, 503.
 * `credentials.delete`
 */
export const deleteCredential: (
  core: Core,
  input: DeleteCredentialInput,
  options?: CallOptions,
) => CallPromise<undefined> = /* @__PURE__ */ defineCall<DeleteCredentialInput, undefined>({
  name: 'credentials.delete',
  method: 'DELETE',
  path: '/credentials/{id_or_name}',
  responses: { 204: 'none' },
  write: true,
});

/**
 * Get the current TOTP code of a credential's secret (RFC 6238) and when it expires.
 *
 * `GET /credentials/{id_or_name}/totp-code`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 409, 429, 500, 503.
 * `credentials.totpCode`
 */
export const getTotpCode: (
  core: Core,
  input: GetTotpCodeInput,
  options?: CallOptions,
) => CallPromise<TotpCode> = /* @__PURE__ */ defineCall<GetTotpCodeInput, TotpCode>({
  name: 'credentials.totpCode',
  method: 'GET',
  path: '/credentials/{id_or_name}/totp-code',
  responses: { 200: 'json' },
});

// credentialProviders

/**
 * Add a credential provider (a 1Password Connect server) that sign-ins read logins from; its token is write-only.
 *
 * `POST /org/credential_providers`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 409, 413, 415, 422, 429, 500, 503.
 * `credentialProviders.create`
 */
export const createCredentialProvider: (
  core: Core,
  input: CreateCredentialProviderInput,
  options?: CallOptions,
) => CallPromise<CredentialProvider> = /* @__PURE__ */ defineCall<
  CreateCredentialProviderInput,
  CredentialProvider
>({
  name: 'credentialProviders.create',
  method: 'POST',
  path: '/org/credential_providers',
  body: 'json',
  responses: { 201: 'json' },
  write: true,
});

/**
 * List the organization's credential providers (never their tokens).
 *
 * `GET /org/credential_providers`: any token, read-only ones too.
 * Errors: 400, 401, 403, 429, 500, 503.
 * `credentialProviders.list`
 */
export const listCredentialProviders: (
  core: Core,
  input?: ListCredentialProvidersInput,
  options?: CallOptions,
) => PagePromise<CredentialProvider> = /* @__PURE__ */ defineListCall<
  ListCredentialProvidersInput,
  CredentialProvider
>({
  name: 'credentialProviders.list',
  method: 'GET',
  path: '/org/credential_providers',
  query: ['offset', 'limit', 'query'],
  responses: { 200: 'json' },
  paginated: true,
});

/**
 * Get a credential provider (never its token).
 *
 * `GET /org/credential_providers/{id_or_name}`: any token, read-only ones too.
 * Errors: 400, 401, 403, 404, 429, 500, 503.
 * `credentialProviders.get`
 */
export const getCredentialProvider: (
  core: Core,
  input: GetCredentialProviderInput,
  options?: CallOptions,
) => CallPromise<CredentialProvider> = /* @__PURE__ */ defineCall<
  GetCredentialProviderInput,
  CredentialProvider
>({
  name: 'credentialProviders.get',
  method: 'GET',
  path: '/org/credential_providers/{id_or_name}',
  responses: { 200: 'json' },
});

/**
 * Change a credential provider: name, token (rotation), address, cache time, enabled, priority, the projects it is opened to.
 *
 * `PATCH /org/credential_providers/{id_or_name}`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 409, 413, 415, 429, 500, 503.
 * `credentialProviders.update`
 */
export const updateCredentialProvider: (
  core: Core,
  input: UpdateCredentialProviderInput,
  options?: CallOptions,
) => CallPromise<CredentialProvider> = /* @__PURE__ */ defineCall<
  UpdateCredentialProviderInput,
  CredentialProvider
>({
  name: 'credentialProviders.update',
  method: 'PATCH',
  path: '/org/credential_providers/{id_or_name}',
  body: 'json',
  responses: { 200: 'json' },
  write: true,
});

/**
 * Delete a credential provider and its sealed token.
 *
 * `DELETE /org/credential_providers/{id_or_name}`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 429, 500, 503.
 * `credentialProviders.delete`
 */
export const deleteCredentialProvider: (
  core: Core,
  input: DeleteCredentialProviderInput,
  options?: CallOptions,
) => CallPromise<undefined> = /* @__PURE__ */ defineCall<DeleteCredentialProviderInput, undefined>({
  name: 'credentialProviders.delete',
  method: 'DELETE',
  path: '/org/credential_providers/{id_or_name}',
  responses: { 204: 'none' },
  write: true,
});

/**
 * Test a credential provider: whether it answers and takes the token, and its vaults.
 *
 * `POST /org/credential_providers/{id_or_name}/test`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 422, 429, 500, 503.
 * `credentialProviders.test`
 */
export const testCredentialProvider: (
  core: Core,
  input: TestCredentialProviderInput,
  options?: CallOptions,
) => CallPromise<CredentialProviderTestResult> = /* @__PURE__ */ defineCall<
  TestCredentialProviderInput,
  CredentialProviderTestResult
>({
  name: 'credentialProviders.test',
  method: 'POST',
  path: '/org/credential_providers/{id_or_name}/test',
  responses: { 200: 'json' },
  write: true,
});

/**
 * List a credential provider's login items: paths, titles, sites (never their values).
 *
 * `GET /org/credential_providers/{id_or_name}/items`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 429, 500, 502, 503.
 * `credentialProviders.items`
 */
export const listCredentialProviderItems: (
  core: Core,
  input: ListCredentialProviderItemsInput,
  options?: CallOptions,
) => CallPromise<CredentialProviderItems> = /* @__PURE__ */ defineCall<
  ListCredentialProviderItemsInput,
  CredentialProviderItems
>({
  name: 'credentialProviders.items',
  method: 'GET',
  path: '/org/credential_providers/{id_or_name}/items',
  responses: { 200: 'json' },
});

// auth.connections

/**
 * Create an auth connection: a profile (made when missing) to sign in to a site and keep signed in.
 *
 * `POST /auth/connections`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 409, 413, 415, 422, 429, 500, 503.
 * `auth.connections.create`
 */
export const createAuthConnection: (
  core: Core,
  input: CreateAuthConnectionInput,
  options?: CallOptions,
) => CallPromise<AuthConnection> = /* @__PURE__ */ defineCall<
  CreateAuthConnectionInput,
  AuthConnection
>({
  name: 'auth.connections.create',
  method: 'POST',
  path: '/auth/connections',
  body: 'json',
  responses: { 201: 'json' },
  write: true,
});

/**
 * List the auth connections, with their flows.
 *
 * `GET /auth/connections`: any token, read-only ones too.
 * Errors: 400, 401, 403, 429, 500, 503.
 * `auth.connections.list`
 */
export const listAuthConnections: (
  core: Core,
  input?: ListAuthConnectionsInput,
  options?: CallOptions,
) => PagePromise<AuthConnection> = /* @__PURE__ */ defineListCall<
  ListAuthConnectionsInput,
  AuthConnection
>({
  name: 'auth.connections.list',
  method: 'GET',
  path: '/auth/connections',
  query: ['offset', 'limit', 'domain', 'profile_name', 'query'],
  responses: { 200: 'json' },
  paginated: true,
});

/**
 * Get an auth connection, with the state of its current flow.
 *
 * `GET /auth/connections/{id}`: any token, read-only ones too.
 * Errors: 400, 401, 403, 404, 429, 500, 503.
 * `auth.connections.get`
 */
export const getAuthConnection: (
  core: Core,
  input: GetAuthConnectionInput,
  options?: CallOptions,
) => CallPromise<AuthConnection> = /* @__PURE__ */ defineCall<
  GetAuthConnectionInput,
  AuthConnection
>({
  name: 'auth.connections.get',
  method: 'GET',
  path: '/auth/connections/{id}',
  responses: { 200: 'json' },
});

/**
 * Change an auth connection's settings (credential, login URL, health checks, …).
 *
 * `PATCH /auth/connections/{id}`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 413, 415, 429, 500, 503.
 * `auth.connections.update`
 */
export const updateAuthConnection: (
  core: Core,
  input: UpdateAuthConnectionInput,
  options?: CallOptions,
) => CallPromise<AuthConnection> = /* @__PURE__ */ defineCall<
  UpdateAuthConnectionInput,
  AuthConnection
>({
  name: 'auth.connections.update',
  method: 'PATCH',
  path: '/auth/connections/{id}',
  body: 'json',
  responses: { 200: 'json' },
  write: true,
});

/**
 * Delete an auth connection; a flow in progress is canceled (the profile stays).
 *
 * `DELETE /auth/connections/{id}`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 429, 500, 503.
 * `auth.connections.delete`
 */
export const deleteAuthConnection: (
  core: Core,
  input: DeleteAuthConnectionInput,
  options?: CallOptions,
) => CallPromise<undefined> = /* @__PURE__ */ defineCall<DeleteAuthConnectionInput, undefined>({
  name: 'auth.connections.delete',
  method: 'DELETE',
  path: '/auth/connections/{id}',
  responses: { 204: 'none' },
  write: true,
});

/**
 * Start a sign-in flow in a browser of the profile; follow its events, submit what it asks for.
 *
 * `POST /auth/connections/{id}/login`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 409, 413, 415, 422, 429, 500, 502, 503.
 * `auth.connections.login`
 */
export const loginAuthConnection: (
  core: Core,
  input: LoginAuthConnectionInput,
  options?: CallOptions,
) => CallPromise<LoginResponse> = /* @__PURE__ */ defineCall<
  LoginAuthConnectionInput,
  LoginResponse
>({
  name: 'auth.connections.login',
  method: 'POST',
  path: '/auth/connections/{id}/login',
  body: 'json',
  bodyOptional: true,
  responses: { 200: 'json' },
  write: true,
});

/**
 * Give a sign-in flow the values it asked for (AWAITING_INPUT).
 *
 * `POST /auth/connections/{id}/submit`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 409, 413, 415, 422, 429, 500, 503.
 * `auth.connections.submit`
 */
export const submitAuthConnection: (
  core: Core,
  input: SubmitAuthConnectionInput,
  options?: CallOptions,
) => CallPromise<SubmitResponse> = /* @__PURE__ */ defineCall<
  SubmitAuthConnectionInput,
  SubmitResponse
>({
  name: 'auth.connections.submit',
  method: 'POST',
  path: '/auth/connections/{id}/submit',
  body: 'json',
  responses: { 200: 'json' },
  write: true,
});

/**
 * Follow a connection's sign-in flow: its states as they change, until it ends.
 *
 * `GET /auth/connections/{id}/events`: a full token (a read-only token is refused).
 * Errors: 400, 401, 403, 404, 429, 500, 503.
 * `auth.connections.events`
 */
export const followAuthConnection: (
  core: Core,
  input: FollowAuthConnectionInput,
  options?: CallOptions,
) => CallPromise<FollowAuthConnectionResult> = /* @__PURE__ */ defineCall<
  FollowAuthConnectionInput,
  FollowAuthConnectionResult
>(
  {
    name: 'auth.connections.events',
    method: 'GET',
    path: '/auth/connections/{id}/events',
    responses: { 200: 'event-stream' },
  },
  { readBody: readStreamBody },
);

/**
 * List a connection's logins, re-authentications and health checks, newest first.
 *
 * `GET /auth/connections/{id}/timeline`: any token, read-only ones too.
 * Errors: 400, 401, 403, 404, 429, 500, 503.
 * `auth.connections.timeline`
 */
export const authConnectionTimeline: (
  core: Core,
  input: AuthConnectionTimelineInput,
  options?: CallOptions,
) => PagePromise<AuthTimelineEvent> = /* @__PURE__ */ defineListCall<
  AuthConnectionTimelineInput,
  AuthTimelineEvent
>({
  name: 'auth.connections.timeline',
  method: 'GET',
  path: '/auth/connections/{id}/timeline',
  query: ['offset', 'limit', 'type'],
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

// auth.context

/**
 * Get the caller's context: its credential, the project it is limited to, the project this call acts in, and whether it may only read.
 *
 * `GET /auth/context`: any token, read-only ones too.
 * Errors: 401, 403, 429, 500, 503.
 * `auth.context.get`
 */
export const getAuthContext: (
  core: Core,
  input?: GetAuthContextInput,
  options?: CallOptions,
) => CallPromise<AuthContext> = /* @__PURE__ */ defineCall<GetAuthContextInput, AuthContext>({
  name: 'auth.context.get',
  method: 'GET',
  path: '/auth/context',
  responses: { 200: 'json' },
});
