/**
 * Every operation as a function of a core (`createCore`), for apps that bundle only what they
 * call: `await getBrowserPool(core, { id_or_name })`. Each carries its route (no schema), and
 * upload and stream code only when it needs it; `checked(fn, operation)` adds the local checks
 * every `createClient` method makes.
 *
 * Generated from the catalog of @x/types by `pnpm --filter @x/client generate`; a test fails
 * when it falls behind. Do not edit.
 */
import {
  type acquireBrowserOperation,
  acquireServerTimeMs,
  type batchOperation,
  batchServerTimeMs,
  type checkProxyOperation,
  type clickMouseOperation,
  type createApiKeyOperation,
  type createBrowserOperation,
  type createBrowserPoolOperation,
  type createDirectoryOperation,
  type createInvocationOperation,
  type createLiveViewOperation,
  type createProfileOperation,
  type createProjectOperation,
  type createProxyOperation,
  type curlOperation,
  curlServerTimeMs,
  type deleteApiKeyOperation,
  type deleteBrowserOperation,
  type deleteBrowserPoolOperation,
  type deleteDirectoryOperation,
  type deleteExtensionOperation,
  type deleteFileOperation,
  type deleteInvocationBrowsersOperation,
  type deleteProfileOperation,
  type deleteProjectOperation,
  type deleteProxyOperation,
  type downloadDirZipOperation,
  type downloadExtensionOperation,
  type downloadProfileOperation,
  type downloadReplayOperation,
  dragDurationMs,
  type dragMouseOperation,
  type execProcessOperation,
  execServerTimeMs,
  type executePlaywrightOperation,
  type fileInfoOperation,
  type flushBrowserPoolOperation,
  type getApiKeyOperation,
  type getBrowserOperation,
  type getBrowserPoolOperation,
  type getExtensionMetadataOperation,
  type getInvocationOperation,
  type getMousePositionOperation,
  type getOrgLimitsOperation,
  type getProcessStatusOperation,
  type getProfileOperation,
  type getProjectLimitsOperation,
  type getProjectOperation,
  type getProxyOperation,
  type killProcessOperation,
  type listApiKeysOperation,
  type listAuditLogsOperation,
  type listBrowserPoolsOperation,
  type listBrowsersOperation,
  type listExtensionsOperation,
  type listFilesOperation,
  type listInvocationBrowsersOperation,
  type listInvocationsOperation,
  type listProfilesOperation,
  type listProjectsOperation,
  type listProxiesOperation,
  type listReplaysOperation,
  type listTelemetryEventsOperation,
  type loadExtensionsOperation,
  moveDurationMs,
  type moveFileOperation,
  type moveMouseOperation,
  playwrightServerTimeMs,
  pressDurationMs,
  type pressKeyOperation,
  type readClipboardOperation,
  type readFileOperation,
  type releaseBrowserOperation,
  type resizeProcessOperation,
  type rotateApiKeyOperation,
  type screenshotOperation,
  type scrollOperation,
  type setCursorVisibilityOperation,
  type setFilePermissionsOperation,
  type spawnProcessOperation,
  type startReplayOperation,
  type startWatchOperation,
  type stopReplayOperation,
  type stopWatchOperation,
  type streamLogsOperation,
  type streamProcessOutputOperation,
  type streamTelemetryOperation,
  typeDurationMs,
  type typeTextOperation,
  type updateApiKeyOperation,
  type updateBrowserOperation,
  type updateBrowserPoolOperation,
  type updateInvocationOperation,
  type updateOrgLimitsOperation,
  type updateProfileOperation,
  type updateProjectLimitsOperation,
  type updateProjectOperation,
  type updateProxyOperation,
  type uploadExtensionOperation,
  type uploadFilesOperation,
  type uploadZipOperation,
  type watchEventsOperation,
  type writeClipboardOperation,
  type writeFileOperation,
  type writeProcessStdinOperation,
} from '@x/types';
import { readStreamBody } from '../streams/read-body.js';
import { encodeUploadBody } from '../uploads/encode-body.js';
import { defineCall } from './define-call.js';
import { defineListCall } from './list-page.js';

// browsers.replays

/**
 * Stop a replay recording and persist the video.
 * `browsers.replays.stop`: `POST /browsers/{id}/replays/{replay_id}/stop`
 */
export const stopReplay = /* @__PURE__ */ defineCall<typeof stopReplayOperation>({
  name: 'browsers.replays.stop',
  method: 'POST',
  path: '/browsers/{id}/replays/{replay_id}/stop',
  responses: { 200: 'json' },
  write: true,
});

/**
 * Start recording a replay of the browser session.
 * `browsers.replays.start`: `POST /browsers/{id}/replays`
 */
export const startReplay = /* @__PURE__ */ defineCall<typeof startReplayOperation>({
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
 * `browsers.replays.list`: `GET /browsers/{id}/replays`
 */
export const listReplays = /* @__PURE__ */ defineListCall<typeof listReplaysOperation>({
  name: 'browsers.replays.list',
  method: 'GET',
  path: '/browsers/{id}/replays',
  query: ['offset', 'limit'],
  responses: { 200: 'json' },
  paginated: true,
});

/**
 * Download a replay video (MP4).
 * `browsers.replays.download`: `GET /browsers/{id}/replays/{replay_id}`
 */
export const downloadReplay = /* @__PURE__ */ defineCall<typeof downloadReplayOperation>(
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
 * `browsers.computer.type`: `POST /browsers/{id}/computer/type`
 */
export const typeText = /* @__PURE__ */ defineCall<typeof typeTextOperation>({
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
 * `browsers.computer.screenshot`: `POST /browsers/{id}/computer/screenshot`
 */
export const screenshot = /* @__PURE__ */ defineCall<typeof screenshotOperation>(
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
 * `browsers.computer.clickMouse`: `POST /browsers/{id}/computer/click_mouse`
 */
export const clickMouse = /* @__PURE__ */ defineCall<typeof clickMouseOperation>({
  name: 'browsers.computer.clickMouse',
  method: 'POST',
  path: '/browsers/{id}/computer/click_mouse',
  body: 'json',
  responses: { 204: 'none' },
  write: true,
});

/**
 * Move the mouse to a point of the screen, straight or along a human-like path.
 * `browsers.computer.moveMouse`: `POST /browsers/{id}/computer/move_mouse`
 */
export const moveMouse = /* @__PURE__ */ defineCall<typeof moveMouseOperation>({
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
 * `browsers.computer.dragMouse`: `POST /browsers/{id}/computer/drag_mouse`
 */
export const dragMouse = /* @__PURE__ */ defineCall<typeof dragMouseOperation>({
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
 * `browsers.computer.scroll`: `POST /browsers/{id}/computer/scroll`
 */
export const scroll = /* @__PURE__ */ defineCall<typeof scrollOperation>({
  name: 'browsers.computer.scroll',
  method: 'POST',
  path: '/browsers/{id}/computer/scroll',
  body: 'json',
  responses: { 204: 'none' },
  write: true,
});

/**
 * Press keys or combos such as Ctrl+t, holding each for a while if asked.
 * `browsers.computer.pressKey`: `POST /browsers/{id}/computer/press_key`
 */
export const pressKey = /* @__PURE__ */ defineCall<typeof pressKeyOperation>({
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
 * `browsers.computer.getMousePosition`: `POST /browsers/{id}/computer/get_mouse_position`
 */
export const getMousePosition = /* @__PURE__ */ defineCall<typeof getMousePositionOperation>({
  name: 'browsers.computer.getMousePosition',
  method: 'POST',
  path: '/browsers/{id}/computer/get_mouse_position',
  responses: { 200: 'json' },
});

/**
 * Hide or show the mouse cursor.
 * `browsers.computer.setCursorVisibility`: `POST /browsers/{id}/computer/cursor`
 */
export const setCursorVisibility = /* @__PURE__ */ defineCall<typeof setCursorVisibilityOperation>({
  name: 'browsers.computer.setCursorVisibility',
  method: 'POST',
  path: '/browsers/{id}/computer/cursor',
  body: 'json',
  responses: { 200: 'json' },
  write: true,
});

/**
 * Read the text on the browser's clipboard.
 * `browsers.computer.readClipboard`: `POST /browsers/{id}/computer/clipboard/read`
 */
export const readClipboard = /* @__PURE__ */ defineCall<typeof readClipboardOperation>({
  name: 'browsers.computer.readClipboard',
  method: 'POST',
  path: '/browsers/{id}/computer/clipboard/read',
  responses: { 200: 'json' },
});

/**
 * Put text on the browser's clipboard (what Ctrl+V then pastes).
 * `browsers.computer.writeClipboard`: `POST /browsers/{id}/computer/clipboard/write`
 */
export const writeClipboard = /* @__PURE__ */ defineCall<typeof writeClipboardOperation>({
  name: 'browsers.computer.writeClipboard',
  method: 'POST',
  path: '/browsers/{id}/computer/clipboard/write',
  body: 'json',
  responses: { 204: 'none' },
  write: true,
});

/**
 * Run mouse, keyboard and pause actions in order, stopping at the first that fails.
 * `browsers.computer.batch`: `POST /browsers/{id}/computer/batch`
 */
export const batch = /* @__PURE__ */ defineCall<typeof batchOperation>({
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
 * `browserPools.get`: `GET /browser_pools/{id_or_name}`
 */
export const getBrowserPool = /* @__PURE__ */ defineCall<typeof getBrowserPoolOperation>({
  name: 'browserPools.get',
  method: 'GET',
  path: '/browser_pools/{id_or_name}',
  responses: { 200: 'json' },
});

/**
 * Create a browser pool.
 * `browserPools.create`: `POST /browser_pools`
 */
export const createBrowserPool = /* @__PURE__ */ defineCall<typeof createBrowserPoolOperation>({
  name: 'browserPools.create',
  method: 'POST',
  path: '/browser_pools',
  body: 'json',
  responses: { 201: 'json' },
  write: true,
});

/**
 * List the browser pools.
 * `browserPools.list`: `GET /browser_pools`
 */
export const listBrowserPools = /* @__PURE__ */ defineListCall<typeof listBrowserPoolsOperation>({
  name: 'browserPools.list',
  method: 'GET',
  path: '/browser_pools',
  query: ['offset', 'limit', 'name', 'query'],
  responses: { 200: 'json' },
  paginated: true,
});

/**
 * Update a browser pool.
 * `browserPools.update`: `PATCH /browser_pools/{id_or_name}`
 */
export const updateBrowserPool = /* @__PURE__ */ defineCall<typeof updateBrowserPoolOperation>({
  name: 'browserPools.update',
  method: 'PATCH',
  path: '/browser_pools/{id_or_name}',
  body: 'json',
  responses: { 200: 'json' },
  write: true,
});

/**
 * Delete a browser pool.
 * `browserPools.delete`: `DELETE /browser_pools/{id_or_name}`
 */
export const deleteBrowserPool = /* @__PURE__ */ defineCall<typeof deleteBrowserPoolOperation>({
  name: 'browserPools.delete',
  method: 'DELETE',
  path: '/browser_pools/{id_or_name}',
  query: ['force'],
  responses: { 204: 'none' },
  write: true,
});

/**
 * Acquire a browser from a pool, waiting up to acquire_timeout_seconds.
 * `browserPools.acquire`: `POST /browser_pools/{id_or_name}/acquire`
 */
export const acquireBrowser = /* @__PURE__ */ defineCall<typeof acquireBrowserOperation>({
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
 * `browserPools.release`: `POST /browser_pools/{id_or_name}/release`
 */
export const releaseBrowser = /* @__PURE__ */ defineCall<typeof releaseBrowserOperation>({
  name: 'browserPools.release',
  method: 'POST',
  path: '/browser_pools/{id_or_name}/release',
  body: 'json',
  responses: { 204: 'none' },
  write: true,
});

/**
 * Discard the idle browsers of a pool so fresh ones replace them.
 * `browserPools.flush`: `POST /browser_pools/{id_or_name}/flush`
 */
export const flushBrowserPool = /* @__PURE__ */ defineCall<typeof flushBrowserPoolOperation>({
  name: 'browserPools.flush',
  method: 'POST',
  path: '/browser_pools/{id_or_name}/flush',
  responses: { 204: 'none' },
  write: true,
});

// extensions

/**
 * Upload a browser extension (zip with manifest.json at its root).
 * `extensions.upload`: `POST /extensions`
 */
export const uploadExtension = /* @__PURE__ */ defineCall<typeof uploadExtensionOperation>(
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
 * `extensions.list`: `GET /extensions`
 */
export const listExtensions = /* @__PURE__ */ defineListCall<typeof listExtensionsOperation>({
  name: 'extensions.list',
  method: 'GET',
  path: '/extensions',
  query: ['offset', 'limit', 'name', 'query'],
  responses: { 200: 'json' },
  paginated: true,
});

/**
 * Download an extension archive (zip).
 * `extensions.download`: `GET /extensions/{id_or_name}`
 */
export const downloadExtension = /* @__PURE__ */ defineCall<typeof downloadExtensionOperation>(
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
 * `extensions.delete`: `DELETE /extensions/{id_or_name}`
 */
export const deleteExtension = /* @__PURE__ */ defineCall<typeof deleteExtensionOperation>({
  name: 'extensions.delete',
  method: 'DELETE',
  path: '/extensions/{id_or_name}',
  responses: { 204: 'none' },
  write: true,
});

/**
 * Get an extension's record (size, SHA-256, name) without downloading it.
 * `extensions.metadata`: `GET /extensions/{id_or_name}/metadata`
 */
export const getExtensionMetadata = /* @__PURE__ */ defineCall<
  typeof getExtensionMetadataOperation
>({
  name: 'extensions.metadata',
  method: 'GET',
  path: '/extensions/{id_or_name}/metadata',
  responses: { 200: 'json' },
});

// invocations

/**
 * List the active browsers of an invocation.
 * `invocations.listBrowsers`: `GET /invocations/{id}/browsers`
 */
export const listInvocationBrowsers = /* @__PURE__ */ defineCall<
  typeof listInvocationBrowsersOperation
>({
  name: 'invocations.listBrowsers',
  method: 'GET',
  path: '/invocations/{id}/browsers',
  responses: { 200: 'json' },
});

/**
 * Create an invocation.
 * `invocations.create`: `POST /invocations`
 */
export const createInvocation = /* @__PURE__ */ defineCall<typeof createInvocationOperation>({
  name: 'invocations.create',
  method: 'POST',
  path: '/invocations',
  body: 'json',
  responses: { 201: 'json' },
  write: true,
});

/**
 * List the invocations.
 * `invocations.list`: `GET /invocations`
 */
export const listInvocations = /* @__PURE__ */ defineListCall<typeof listInvocationsOperation>({
  name: 'invocations.list',
  method: 'GET',
  path: '/invocations',
  query: ['offset', 'limit', 'status', 'app_name', 'action_name'],
  responses: { 200: 'json' },
  paginated: true,
});

/**
 * Get an invocation.
 * `invocations.get`: `GET /invocations/{id}`
 */
export const getInvocation = /* @__PURE__ */ defineCall<typeof getInvocationOperation>({
  name: 'invocations.get',
  method: 'GET',
  path: '/invocations/{id}',
  responses: { 200: 'json' },
});

/**
 * End an invocation (succeeded or failed); its browsers are deleted.
 * `invocations.update`: `PATCH /invocations/{id}`
 */
export const updateInvocation = /* @__PURE__ */ defineCall<typeof updateInvocationOperation>({
  name: 'invocations.update',
  method: 'PATCH',
  path: '/invocations/{id}',
  body: 'json',
  responses: { 200: 'json' },
  write: true,
});

/**
 * Delete every running browser of an invocation.
 * `invocations.deleteBrowsers`: `DELETE /invocations/{id}/browsers`
 */
export const deleteInvocationBrowsers = /* @__PURE__ */ defineCall<
  typeof deleteInvocationBrowsersOperation
>({
  name: 'invocations.deleteBrowsers',
  method: 'DELETE',
  path: '/invocations/{id}/browsers',
  responses: { 204: 'none' },
  write: true,
});

// browsers.process

/**
 * Get the status of a process.
 * `browsers.process.status`: `GET /browsers/{id}/process/{process_id}/status`
 */
export const getProcessStatus = /* @__PURE__ */ defineCall<typeof getProcessStatusOperation>({
  name: 'browsers.process.status',
  method: 'GET',
  path: '/browsers/{id}/process/{process_id}/status',
  responses: { 200: 'json' },
});

/**
 * Start a process on the browser instance.
 * `browsers.process.spawn`: `POST /browsers/{id}/process/spawn`
 */
export const spawnProcess = /* @__PURE__ */ defineCall<typeof spawnProcessOperation>({
  name: 'browsers.process.spawn',
  method: 'POST',
  path: '/browsers/{id}/process/spawn',
  body: 'json',
  responses: { 200: 'json' },
  write: true,
});

/**
 * Run a command on the browser instance and wait for it.
 * `browsers.process.exec`: `POST /browsers/{id}/process/exec`
 */
export const execProcess = /* @__PURE__ */ defineCall<typeof execProcessOperation>({
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
 * `browsers.process.kill`: `POST /browsers/{id}/process/{process_id}/kill`
 */
export const killProcess = /* @__PURE__ */ defineCall<typeof killProcessOperation>({
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
 * `browsers.process.output`: `GET /browsers/{id}/process/{process_id}/stdout/stream`
 */
export const streamProcessOutput = /* @__PURE__ */ defineCall<typeof streamProcessOutputOperation>(
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
 * `browsers.process.stdin`: `POST /browsers/{id}/process/{process_id}/stdin`
 */
export const writeProcessStdin = /* @__PURE__ */ defineCall<typeof writeProcessStdinOperation>({
  name: 'browsers.process.stdin',
  method: 'POST',
  path: '/browsers/{id}/process/{process_id}/stdin',
  body: 'json',
  responses: { 200: 'json' },
  write: true,
});

/**
 * Resize the terminal of a process.
 * `browsers.process.resize`: `POST /browsers/{id}/process/{process_id}/resize`
 */
export const resizeProcess = /* @__PURE__ */ defineCall<typeof resizeProcessOperation>({
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
 * `browsers.fs.watch.stop`: `DELETE /browsers/{id}/fs/watch/{watch_id}`
 */
export const stopWatch = /* @__PURE__ */ defineCall<typeof stopWatchOperation>({
  name: 'browsers.fs.watch.stop',
  method: 'DELETE',
  path: '/browsers/{id}/fs/watch/{watch_id}',
  responses: { 204: 'none' },
  write: true,
});

/**
 * Start watching a directory on the browser instance.
 * `browsers.fs.watch.start`: `POST /browsers/{id}/fs/watch`
 */
export const startWatch = /* @__PURE__ */ defineCall<typeof startWatchOperation>({
  name: 'browsers.fs.watch.start',
  method: 'POST',
  path: '/browsers/{id}/fs/watch',
  body: 'json',
  responses: { 201: 'json' },
  write: true,
});

/**
 * Stream the events of a directory watch (SSE).
 * `browsers.fs.watch.events`: `GET /browsers/{id}/fs/watch/{watch_id}/events`
 */
export const watchEvents = /* @__PURE__ */ defineCall<typeof watchEventsOperation>(
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
 * `browsers.create`: `POST /browsers`
 */
export const createBrowser = /* @__PURE__ */ defineCall<typeof createBrowserOperation>({
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
 * `browsers.list`: `GET /browsers`
 */
export const listBrowsers = /* @__PURE__ */ defineListCall<typeof listBrowsersOperation>({
  name: 'browsers.list',
  method: 'GET',
  path: '/browsers',
  query: ['offset', 'limit', 'status'],
  responses: { 200: 'json' },
  paginated: true,
});

/**
 * Get a browser session.
 * `browsers.get`: `GET /browsers/{id}`
 */
export const getBrowser = /* @__PURE__ */ defineCall<typeof getBrowserOperation>({
  name: 'browsers.get',
  method: 'GET',
  path: '/browsers/{id}',
  responses: { 200: 'json' },
});

/**
 * Delete a browser session.
 * `browsers.delete`: `DELETE /browsers/{id}`
 */
export const deleteBrowser = /* @__PURE__ */ defineCall<typeof deleteBrowserOperation>({
  name: 'browsers.delete',
  method: 'DELETE',
  path: '/browsers/{id}',
  responses: { 204: 'none' },
  write: true,
});

/**
 * Make an HTTP request through the browser.
 * `browsers.curl`: `POST /browsers/{id}/curl`
 */
export const curl = /* @__PURE__ */ defineCall<typeof curlOperation>({
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
 * `browsers.update`: `PATCH /browsers/{id}`
 */
export const updateBrowser = /* @__PURE__ */ defineCall<typeof updateBrowserOperation>({
  name: 'browsers.update',
  method: 'PATCH',
  path: '/browsers/{id}',
  body: 'json',
  responses: { 200: 'json' },
  write: true,
});

/**
 * Load unpacked extensions (zips) into a running browser.
 * `browsers.loadExtensions`: `POST /browsers/{id}/extensions`
 */
export const loadExtensions = /* @__PURE__ */ defineCall<typeof loadExtensionsOperation>(
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
 * `browsers.liveView.create`: `POST /browsers/{id}/live_view`
 */
export const createLiveView = /* @__PURE__ */ defineCall<typeof createLiveViewOperation>({
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
 * `browsers.fs.readFile`: `GET /browsers/{id}/fs/read_file`
 */
export const readFile = /* @__PURE__ */ defineCall<typeof readFileOperation>(
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
 * `browsers.fs.writeFile`: `PUT /browsers/{id}/fs/write_file`
 */
export const writeFile = /* @__PURE__ */ defineCall<typeof writeFileOperation>(
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
 * `browsers.fs.listFiles`: `GET /browsers/{id}/fs/list_files`
 */
export const listFiles = /* @__PURE__ */ defineCall<typeof listFilesOperation>({
  name: 'browsers.fs.listFiles',
  method: 'GET',
  path: '/browsers/{id}/fs/list_files',
  query: ['path'],
  responses: { 200: 'json' },
});

/**
 * Describe a file or directory on the browser instance.
 * `browsers.fs.fileInfo`: `GET /browsers/{id}/fs/file_info`
 */
export const fileInfo = /* @__PURE__ */ defineCall<typeof fileInfoOperation>({
  name: 'browsers.fs.fileInfo',
  method: 'GET',
  path: '/browsers/{id}/fs/file_info',
  query: ['path'],
  responses: { 200: 'json' },
});

/**
 * Create a directory (and its missing parents) on the browser instance.
 * `browsers.fs.createDirectory`: `PUT /browsers/{id}/fs/create_directory`
 */
export const createDirectory = /* @__PURE__ */ defineCall<typeof createDirectoryOperation>({
  name: 'browsers.fs.createDirectory',
  method: 'PUT',
  path: '/browsers/{id}/fs/create_directory',
  body: 'json',
  responses: { 201: 'none' },
  write: true,
});

/**
 * Delete a file on the browser instance.
 * `browsers.fs.deleteFile`: `PUT /browsers/{id}/fs/delete_file`
 */
export const deleteFile = /* @__PURE__ */ defineCall<typeof deleteFileOperation>({
  name: 'browsers.fs.deleteFile',
  method: 'PUT',
  path: '/browsers/{id}/fs/delete_file',
  body: 'json',
  responses: { 200: 'none' },
  write: true,
});

/**
 * Delete a directory and everything in it on the browser instance.
 * `browsers.fs.deleteDirectory`: `PUT /browsers/{id}/fs/delete_directory`
 */
export const deleteDirectory = /* @__PURE__ */ defineCall<typeof deleteDirectoryOperation>({
  name: 'browsers.fs.deleteDirectory',
  method: 'PUT',
  path: '/browsers/{id}/fs/delete_directory',
  body: 'json',
  responses: { 200: 'none' },
  write: true,
});

/**
 * Move or rename a file or directory on the browser instance.
 * `browsers.fs.move`: `PUT /browsers/{id}/fs/move`
 */
export const moveFile = /* @__PURE__ */ defineCall<typeof moveFileOperation>({
  name: 'browsers.fs.move',
  method: 'PUT',
  path: '/browsers/{id}/fs/move',
  body: 'json',
  responses: { 200: 'none' },
  write: true,
});

/**
 * Set a file's permission bits on the browser instance.
 * `browsers.fs.setFilePermissions`: `PUT /browsers/{id}/fs/set_file_permissions`
 */
export const setFilePermissions = /* @__PURE__ */ defineCall<typeof setFilePermissionsOperation>({
  name: 'browsers.fs.setFilePermissions',
  method: 'PUT',
  path: '/browsers/{id}/fs/set_file_permissions',
  body: 'json',
  responses: { 200: 'none' },
  write: true,
});

/**
 * Upload files to the browser instance (multipart, each with its dest_path).
 * `browsers.fs.upload`: `POST /browsers/{id}/fs/upload`
 */
export const uploadFiles = /* @__PURE__ */ defineCall<typeof uploadFilesOperation>(
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
 * `browsers.fs.uploadZip`: `POST /browsers/{id}/fs/upload_zip`
 */
export const uploadZip = /* @__PURE__ */ defineCall<typeof uploadZipOperation>(
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
 * `browsers.fs.downloadDirZip`: `GET /browsers/{id}/fs/download_dir_zip`
 */
export const downloadDirZip = /* @__PURE__ */ defineCall<typeof downloadDirZipOperation>(
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
 * `profiles.create`: `POST /profiles`
 */
export const createProfile = /* @__PURE__ */ defineCall<typeof createProfileOperation>({
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
 * `profiles.list`: `GET /profiles`
 */
export const listProfiles = /* @__PURE__ */ defineListCall<typeof listProfilesOperation>({
  name: 'profiles.list',
  method: 'GET',
  path: '/profiles',
  query: ['offset', 'limit', 'name', 'query'],
  responses: { 200: 'json' },
  paginated: true,
});

/**
 * Get a browser profile.
 * `profiles.get`: `GET /profiles/{id_or_name}`
 */
export const getProfile = /* @__PURE__ */ defineCall<typeof getProfileOperation>({
  name: 'profiles.get',
  method: 'GET',
  path: '/profiles/{id_or_name}',
  responses: { 200: 'json' },
});

/**
 * Rename a browser profile.
 * `profiles.update`: `PATCH /profiles/{id_or_name}`
 */
export const updateProfile = /* @__PURE__ */ defineCall<typeof updateProfileOperation>({
  name: 'profiles.update',
  method: 'PATCH',
  path: '/profiles/{id_or_name}',
  body: 'json',
  responses: { 200: 'json' },
  write: true,
});

/**
 * Delete a browser profile (409 while a browser saves into it or a pool uses it).
 * `profiles.delete`: `DELETE /profiles/{id_or_name}`
 */
export const deleteProfile = /* @__PURE__ */ defineCall<typeof deleteProfileOperation>({
  name: 'profiles.delete',
  method: 'DELETE',
  path: '/profiles/{id_or_name}',
  responses: { 204: 'none' },
  write: true,
});

/**
 * Download a browser profile's data (tar, or tar.zst with format=tar.zst).
 * `profiles.download`: `GET /profiles/{id_or_name}/download`
 */
export const downloadProfile = /* @__PURE__ */ defineCall<typeof downloadProfileOperation>(
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
 * `proxies.create`: `POST /proxies`
 */
export const createProxy = /* @__PURE__ */ defineCall<typeof createProxyOperation>({
  name: 'proxies.create',
  method: 'POST',
  path: '/proxies',
  body: 'json',
  responses: { 201: 'json' },
  write: true,
});

/**
 * List the proxies.
 * `proxies.list`: `GET /proxies`
 */
export const listProxies = /* @__PURE__ */ defineListCall<typeof listProxiesOperation>({
  name: 'proxies.list',
  method: 'GET',
  path: '/proxies',
  query: ['offset', 'limit'],
  responses: { 200: 'json' },
  paginated: true,
});

/**
 * Get a proxy.
 * `proxies.get`: `GET /proxies/{id}`
 */
export const getProxy = /* @__PURE__ */ defineCall<typeof getProxyOperation>({
  name: 'proxies.get',
  method: 'GET',
  path: '/proxies/{id}',
  responses: { 200: 'json' },
});

/**
 * Change a proxy (browsers started before keep the settings they started with).
 * `proxies.update`: `PATCH /proxies/{id}`
 */
export const updateProxy = /* @__PURE__ */ defineCall<typeof updateProxyOperation>({
  name: 'proxies.update',
  method: 'PATCH',
  path: '/proxies/{id}',
  body: 'json',
  responses: { 200: 'json' },
  write: true,
});

/**
 * Delete a proxy (409 while a browser uses it, unless force=true; or a pool names it).
 * `proxies.delete`: `DELETE /proxies/{id}`
 */
export const deleteProxy = /* @__PURE__ */ defineCall<typeof deleteProxyOperation>({
  name: 'proxies.delete',
  method: 'DELETE',
  path: '/proxies/{id}',
  query: ['force'],
  responses: { 204: 'none' },
  write: true,
});

/**
 * Check a proxy: reach a site through it, and record its status and exit address.
 * `proxies.check`: `POST /proxies/{id}/check`
 */
export const checkProxy = /* @__PURE__ */ defineCall<typeof checkProxyOperation>({
  name: 'proxies.check',
  method: 'POST',
  path: '/proxies/{id}/check',
  responses: { 200: 'json' },
  write: true,
});

// projects

/**
 * Create a project (an organization-wide key only).
 * `projects.create`: `POST /org/projects`
 */
export const createProject = /* @__PURE__ */ defineCall<typeof createProjectOperation>({
  name: 'projects.create',
  method: 'POST',
  path: '/org/projects',
  body: 'json',
  responses: { 201: 'json' },
  write: true,
});

/**
 * List the projects (a project's key sees its own).
 * `projects.list`: `GET /org/projects`
 */
export const listProjects = /* @__PURE__ */ defineListCall<typeof listProjectsOperation>({
  name: 'projects.list',
  method: 'GET',
  path: '/org/projects',
  query: ['offset', 'limit', 'name', 'query'],
  responses: { 200: 'json' },
  paginated: true,
});

/**
 * Get a project by id or name.
 * `projects.get`: `GET /org/projects/{id_or_name}`
 */
export const getProject = /* @__PURE__ */ defineCall<typeof getProjectOperation>({
  name: 'projects.get',
  method: 'GET',
  path: '/org/projects/{id_or_name}',
  responses: { 200: 'json' },
});

/**
 * Rename a project, or archive or restore it (a project's key may rename its own).
 * `projects.update`: `PATCH /org/projects/{id_or_name}`
 */
export const updateProject = /* @__PURE__ */ defineCall<typeof updateProjectOperation>({
  name: 'projects.update',
  method: 'PATCH',
  path: '/org/projects/{id_or_name}',
  body: 'json',
  responses: { 200: 'json' },
  write: true,
});

/**
 * Delete an empty project (409 while it holds resources; the default stays).
 * `projects.delete`: `DELETE /org/projects/{id_or_name}`
 */
export const deleteProject = /* @__PURE__ */ defineCall<typeof deleteProjectOperation>({
  name: 'projects.delete',
  method: 'DELETE',
  path: '/org/projects/{id_or_name}',
  responses: { 204: 'none' },
  write: true,
});

// projects.limits

/**
 * Get a project's limits (null: the organization's default applies).
 * `projects.limits.get`: `GET /org/projects/{id_or_name}/limits`
 */
export const getProjectLimits = /* @__PURE__ */ defineCall<typeof getProjectLimitsOperation>({
  name: 'projects.limits.get',
  method: 'GET',
  path: '/org/projects/{id_or_name}/limits',
  responses: { 200: 'json' },
});

/**
 * Change a project's limits (0 or null removes one; an organization-wide key only).
 * `projects.limits.update`: `PATCH /org/projects/{id_or_name}/limits`
 */
export const updateProjectLimits = /* @__PURE__ */ defineCall<typeof updateProjectLimitsOperation>({
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
 * `org.limits.get`: `GET /org/limits`
 */
export const getOrgLimits = /* @__PURE__ */ defineCall<typeof getOrgLimitsOperation>({
  name: 'org.limits.get',
  method: 'GET',
  path: '/org/limits',
  responses: { 200: 'json' },
});

/**
 * Change the defaults of projects' limits (an organization-wide key only).
 * `org.limits.update`: `PATCH /org/limits`
 */
export const updateOrgLimits = /* @__PURE__ */ defineCall<typeof updateOrgLimitsOperation>({
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
 * `apiKeys.create`: `POST /org/api_keys`
 */
export const createApiKey = /* @__PURE__ */ defineCall<typeof createApiKeyOperation>({
  name: 'apiKeys.create',
  method: 'POST',
  path: '/org/api_keys',
  body: 'json',
  responses: { 201: 'json' },
  write: true,
});

/**
 * List the API keys, masked, newest first.
 * `apiKeys.list`: `GET /org/api_keys`
 */
export const listApiKeys = /* @__PURE__ */ defineListCall<typeof listApiKeysOperation>({
  name: 'apiKeys.list',
  method: 'GET',
  path: '/org/api_keys',
  query: ['offset', 'limit', 'status', 'name', 'query'],
  responses: { 200: 'json' },
  paginated: true,
});

/**
 * Get an API key, masked.
 * `apiKeys.get`: `GET /org/api_keys/{id}`
 */
export const getApiKey = /* @__PURE__ */ defineCall<typeof getApiKeyOperation>({
  name: 'apiKeys.get',
  method: 'GET',
  path: '/org/api_keys/{id}',
  query: ['include_deleted'],
  responses: { 200: 'json' },
});

/**
 * Change an API key's label.
 * `apiKeys.update`: `PATCH /org/api_keys/{id}`
 */
export const updateApiKey = /* @__PURE__ */ defineCall<typeof updateApiKeyOperation>({
  name: 'apiKeys.update',
  method: 'PATCH',
  path: '/org/api_keys/{id}',
  body: 'json',
  responses: { 200: 'json' },
  write: true,
});

/**
 * Delete an API key: refused (401) from the next call (not by itself).
 * `apiKeys.delete`: `DELETE /org/api_keys/{id}`
 */
export const deleteApiKey = /* @__PURE__ */ defineCall<typeof deleteApiKeyOperation>({
  name: 'apiKeys.delete',
  method: 'DELETE',
  path: '/org/api_keys/{id}',
  responses: { 204: 'none' },
  write: true,
});

/**
 * Rotate an API key: a new key (shown once) with its name and project; the old one stops.
 * `apiKeys.rotate`: `POST /org/api_keys/{id}/rotate`
 */
export const rotateApiKey = /* @__PURE__ */ defineCall<typeof rotateApiKeyOperation>({
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
 * `auditLogs.list`: `GET /audit-logs`
 */
export const listAuditLogs = /* @__PURE__ */ defineListCall<typeof listAuditLogsOperation>({
  name: 'auditLogs.list',
  method: 'GET',
  path: '/audit-logs',
  query: ['start', 'end', 'method', 'search', 'page_token', 'limit'],
  responses: { 200: 'json' },
  paginated: true,
  pageToken: true,
});

// browsers.playwright

/**
 * Run Playwright code against the browser.
 * `browsers.playwright.execute`: `POST /browsers/{id}/playwright/execute`
 */
export const executePlaywright = /* @__PURE__ */ defineCall<typeof executePlaywrightOperation>({
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
 * `browsers.logs.stream`: `GET /browsers/{id}/logs/stream`
 */
export const streamLogs = /* @__PURE__ */ defineCall<typeof streamLogsOperation>(
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
 * `browsers.telemetry.events`: `GET /browsers/{id}/telemetry/events`
 */
export const listTelemetryEvents = /* @__PURE__ */ defineListCall<
  typeof listTelemetryEventsOperation
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
 * `browsers.telemetry.stream`: `GET /browsers/{id}/telemetry/stream`
 */
export const streamTelemetry = /* @__PURE__ */ defineCall<typeof streamTelemetryOperation>(
  {
    name: 'browsers.telemetry.stream',
    method: 'GET',
    path: '/browsers/{id}/telemetry/stream',
    query: ['replay', 'last_event_id'],
    responses: { 200: 'event-stream' },
  },
  { readBody: readStreamBody },
);
