export {
  type BrowserPool,
  type BrowserPoolConfig,
  BrowserPoolConfigSchema,
  BrowserPoolListSchema,
  BrowserPoolSchema,
} from './browser-pools/browser-pool.js';
export {
  acquireBrowserOperation,
  BrowserPoolPathSchema,
  createBrowserPoolOperation,
  deleteBrowserPoolOperation,
  flushBrowserPoolOperation,
  getBrowserPoolOperation,
  listBrowserPoolsOperation,
  releaseBrowserOperation,
  updateBrowserPoolOperation,
} from './browser-pools/operations.js';
export {
  AcquireBrowserBodySchema,
  type AcquireBrowserInput,
  CreateBrowserPoolBodySchema,
  type CreateBrowserPoolInput,
  DeleteBrowserPoolQuerySchema,
  POOL_BROWSER_TIMEOUT_SECONDS,
  POOL_FILL_RATE_PERCENT,
  POOL_SIZE,
  PoolProfileReferenceSchema,
  QueryBooleanSchema,
  ReleaseBrowserBodySchema,
  type ReleaseBrowserInput,
  UpdateBrowserPoolBodySchema,
  type UpdateBrowserPoolInput,
} from './browser-pools/pool-requests.js';
export {
  BROWSER_LIST_STATUSES,
  type BrowserListQuery,
  type BrowserSession,
  BrowserSessionListSchema,
  BrowserSessionSchema,
  ListBrowsersQuerySchema,
  SessionProfileSchema,
} from './browsers/browser-session.js';
export {
  BROWSER_TIMEOUT_SECONDS,
  BrowserTimeoutSchema,
  type CreateBrowserBody,
  CreateBrowserBodySchema,
  type CreateBrowserInput,
  ExtensionReferenceSchema,
  ExtensionReferencesSchema,
  MAX_EXTENSIONS_PER_BROWSER,
  NetworkInputSchema,
  ProfileReferenceSchema,
  SESSION_URL_LIFETIME_SECONDS,
} from './browsers/create-browser.js';
export {
  BrowserPathSchema,
  createBrowserOperation,
  deleteBrowserOperation,
  getBrowserOperation,
  listBrowsersOperation,
  SessionIdParamSchema,
} from './browsers/operations.js';
export { SessionNetworkSchema } from './browsers/session-network.js';
export { VIEWPORT_BOUNDS, type Viewport, ViewportSchema } from './browsers/viewport.js';
export { ViewportInputSchema } from './browsers/viewport-input.js';
export { type OperationFields, operationFields, schemaEntries } from './catalog/fields.js';
export {
  type AnySchema,
  defineOperation,
  type HttpMethod,
  type Operation,
  type OperationBody as OperationBodySpec,
  type OperationResponse,
  successStatuses,
} from './catalog/operation.js';
export type {
  OperationBody,
  OperationBodyInput,
  OperationInput,
  OperationOutcome,
  OperationPathInput,
  OperationPathParams,
  OperationQuery,
  OperationQueryInput,
  OperationSuccessStatus,
  ResponseValue,
} from './catalog/operation-types.js';
export {
  type CatalogOperation,
  type OperationName,
  operationByName,
  operations,
} from './catalog/operations.js';
export {
  allowedMethods,
  buildPath,
  matchOperation,
  type OperationMatch,
  pathParamNames,
} from './catalog/paths.js';
export {
  acquireServerTimeMs,
  batchServerTimeMs,
  execServerTimeMs,
} from './catalog/server-time.js';
export { described, fieldDescription } from './common/describe.js';
export {
  ACQUIRE_TIMEOUT_SECONDS,
  API_VERSION,
  HEADERS,
  IDEMPOTENCY_KEY_HEADER,
  LIMITS,
  REQUEST_ID_HEADER,
  RETRY_AFTER_HEADER,
} from './common/limits.js';
export {
  coversEntry,
  formatIpv4,
  formatNetworkEntry,
  isInNetwork,
  MAX_NETWORK_ENTRIES,
  type NetworkEntry,
  parseIpv4,
  parseNetworkEntry,
} from './common/network-entries.js';
export { integerBetween, queryIntegerBetween } from './common/numbers.js';
export {
  MAX_QUERY_LENGTH,
  NamedListQuerySchema,
  PAGE_LIMIT,
  type Page,
  type PageQuery,
  pageOf,
  pageQueryEntries,
} from './common/pages.js';
export { JsonObjectSchema, requestObject } from './common/request-object.js';
export {
  CountSchema,
  formatTimestamp,
  ID_PATTERN,
  IdOrNameSchema,
  IdSchema,
  NAME_PATTERN,
  NameSchema,
  TimestampSchema,
} from './common/scalars.js';
export {
  type BatchAction,
  type BatchActionInput,
  BatchActionSchema,
  BatchBodySchema,
  type BatchInput,
  type ClickMouseBody,
  ClickMouseBodySchema,
  type ClickMouseInput,
  ClipboardTextSchema,
  CursorResultSchema,
  type DragMouseBody,
  DragMouseBodySchema,
  type DragMouseInput,
  KeyComboSchema,
  MOUSE_BUTTONS,
  type MouseButton,
  MousePositionSchema,
  type MoveMouseBody,
  MoveMouseBodySchema,
  type MoveMouseInput,
  PIXELS_PER_NOTCH,
  type PressKeyBody,
  PressKeyBodySchema,
  type PressKeyInput,
  type ScrollBody,
  ScrollBodySchema,
  type ScrollInput,
  SetCursorBodySchema,
  SleepBodySchema,
  WriteClipboardBodySchema,
} from './computer/controls.js';
export {
  actionDurationMs,
  batchDurationMs,
  countCharacters,
  DRAG_STEP_DELAY_MS,
  DRAG_STEPS_PER_SEGMENT,
  dragDurationMs,
  moveDurationMs,
  pressDurationMs,
  SMOOTH_MOVE_MS,
  typeDurationMs,
} from './computer/durations.js';
export {
  isShortcut,
  type KeyCombo,
  MODIFIER_BITS,
  type Modifier,
  modifierBits,
  parseKeyCombo,
  type ResolvedKey,
  resolveKey,
} from './computer/keys.js';
export {
  batchOperation,
  clickMouseOperation,
  dragMouseOperation,
  getMousePositionOperation,
  moveMouseOperation,
  pressKeyOperation,
  readClipboardOperation,
  screenshotOperation,
  scrollOperation,
  setCursorVisibilityOperation,
  typeTextOperation,
  writeClipboardOperation,
} from './computer/operations.js';
export {
  ScreenshotBodySchema,
  type ScreenshotInput,
  type ScreenshotRegion,
  ScreenshotRegionSchema,
} from './computer/screenshot.js';
export {
  type TypeTextBody,
  TypeTextBodySchema,
  type TypeTextInput,
} from './computer/type-text.js';
export {
  type ErrorBody,
  type ErrorDetail,
  ErrorDetailSchema,
  ErrorSchema,
  errorBody,
} from './errors/error-body.js';
export {
  ERROR_CODES,
  ERROR_STATUS_BY_CODE,
  type ErrorCode,
  type ErrorStatus,
  errorCodeOfStatus,
  INVALID_INPUT,
  statusOfErrorCode,
} from './errors/error-codes.js';
export { validationDetails } from './errors/validation-details.js';
export {
  type Extension,
  ExtensionListSchema,
  ExtensionSchema,
  REQUIRED_MANIFEST_KEYS,
  type UploadExtensionForm,
  UploadExtensionFormSchema,
} from './extensions/extension.js';
export {
  deleteExtensionOperation,
  downloadExtensionOperation,
  ExtensionPathSchema,
  listExtensionsOperation,
  uploadExtensionOperation,
} from './extensions/operations.js';
export {
  BINARY_CONTENT_KINDS,
  type BinaryContent,
  isBinaryContent,
} from './files/binary-content.js';
export {
  BinaryContentSchema,
  CreateDirectoryBodySchema,
  type CreateDirectoryInput,
  DEFAULT_DIRECTORY_MODE,
  DEFAULT_FILE_MODE,
  type FileEntry,
  FileEntryListSchema,
  FileEntrySchema,
  FileModeSchema,
  FilePathBodySchema,
  FilePathQuerySchema,
  INSTANCE_HOME,
  InstanceFilePathSchema,
  MoveFileBodySchema,
  type MoveFileInput,
  SetFilePermissionsBodySchema,
  type SetFilePermissionsInput,
  UploadFileSchema,
  UploadFilesFormSchema,
  type UploadFilesInput,
  UploadZipFormSchema,
  type UploadZipInput,
  type WriteFileInput,
  WriteFileQuerySchema,
} from './files/files.js';
export {
  createDirectoryOperation,
  deleteDirectoryOperation,
  deleteFileOperation,
  downloadDirZipOperation,
  fileInfoOperation,
  listFilesOperation,
  moveFileOperation,
  readFileOperation,
  setFilePermissionsOperation,
  uploadFilesOperation,
  uploadZipOperation,
  writeFileOperation,
} from './files/operations.js';
export {
  startWatchOperation,
  stopWatchOperation,
  WatchPathSchema,
  watchEventsOperation,
} from './fs-watch/operations.js';
export {
  StartWatchBodySchema,
  type StartWatchInput,
  type Watch,
  WatchChangeTypeSchema,
  type WatchEvent,
  WatchEventSchema,
  WatchSchema,
} from './fs-watch/watch.js';
export {
  CreateInvocationBodySchema,
  type CreateInvocationInput,
  type Invocation,
  type InvocationBrowsers,
  InvocationBrowsersSchema,
  type InvocationListQuery,
  InvocationListSchema,
  InvocationSchema,
  InvocationStatusSchema,
  ListInvocationsQuerySchema,
  MAX_INVOCATION_PAYLOAD,
  UpdateInvocationBodySchema,
  type UpdateInvocationInput,
} from './invocations/invocation.js';
export {
  createInvocationOperation,
  getInvocationOperation,
  InvocationPathSchema,
  listInvocationBrowsersOperation,
  listInvocationsOperation,
  updateInvocationOperation,
} from './invocations/operations.js';
export {
  type CreateLiveViewBody,
  CreateLiveViewBodySchema,
  LIVE_VIEW_MODES,
  type LiveView,
  type LiveViewMode,
  LiveViewSchema,
} from './live-view/live-view.js';
export { createLiveViewOperation } from './live-view/operations.js';
export {
  execProcessOperation,
  getProcessStatusOperation,
  killProcessOperation,
  ProcessPathSchema,
  spawnProcessOperation,
  streamProcessOutputOperation,
} from './processes/operations.js';
export {
  type ExecResult,
  ExecResultSchema,
  KillProcessBodySchema,
  KillResultSchema,
  MAX_PROCESS_TIMEOUT_SECONDS,
  ProcessCommandBodySchema,
  type ProcessCommandInput,
  type ProcessOutputEvent,
  ProcessOutputEventSchema,
  ProcessSignalSchema,
  type SpawnedProcess,
  SpawnedProcessSchema,
} from './processes/process-commands.js';
export {
  ProcessStateSchema,
  type ProcessStatus,
  ProcessStatusSchema,
} from './processes/process-status.js';
export {
  createProfileOperation,
  deleteProfileOperation,
  downloadProfileOperation,
  getProfileOperation,
  listProfilesOperation,
  ProfilePathSchema,
  updateProfileOperation,
} from './profiles/operations.js';
export {
  CreateProfileBodySchema,
  type CreateProfileInput,
  DownloadProfileQuerySchema,
  PROFILE_ARCHIVE_FORMATS,
  PROFILE_ARCHIVE_MEDIA_TYPES,
  type Profile,
  type ProfileArchiveFormat,
  ProfileListSchema,
  ProfileSchema,
  UpdateProfileBodySchema,
  type UpdateProfileInput,
} from './profiles/profile.js';
export {
  checkProxyOperation,
  createProxyOperation,
  deleteProxyOperation,
  getProxyOperation,
  listProxiesOperation,
  ProxyPathSchema,
  updateProxyOperation,
} from './proxies/operations.js';
export {
  type BrowserProxy,
  type CreateProxyBody,
  CreateProxyBodySchema,
  type CreateProxyInput,
  DeleteProxyQuerySchema,
  ListProxiesQuerySchema,
  MAX_BYPASS_HOSTS,
  PROXY_PROTOCOLS,
  PROXY_STATUSES,
  PROXY_TYPES,
  ProxyListSchema,
  type ProxyProtocol,
  ProxySchema,
  SELF_HOSTED_PROXY_TYPES_MESSAGE,
  type UpdateProxyBody,
  UpdateProxyBodySchema,
  type UpdateProxyInput,
} from './proxies/proxy.js';
export {
  downloadReplayOperation,
  ListReplaysQuerySchema,
  listReplaysOperation,
  ReplayPathSchema,
  startReplayOperation,
  stopReplayOperation,
} from './replays/operations.js';
export {
  MAX_REPLAY_DURATION_SECONDS,
  REPLAY_FRAMERATE,
  type Replay,
  ReplayListSchema,
  ReplaySchema,
  StartReplayBodySchema,
  type StartReplayInput,
} from './replays/replay.js';
