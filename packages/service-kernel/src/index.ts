/**
 * The service, written once: the service model (every rule of the API, per resource) over small
 * engine interfaces, the one handler table over it, and the request pipeline in front (routing by
 * the catalog, auth, limits, validation, idempotency, Error bodies, request ids). The fake runs it
 * on in-memory engines, the self-hosted server on real ones.
 */

export type {
  AppEngine,
  DeployJob,
  DeployOutcome,
  FoundApp,
  InvokeJob,
  InvokeOutcome,
} from './apps/app-engine.js';
export { type DeploymentKeys, KEY_VARIABLES } from './apps/deployment-keys.js';
export {
  DEPLOYS_AT_ONCE,
  DeploymentModel,
  isFinalDeployment,
  MAX_DEPLOYMENT_EVENTS,
  MAX_DEPLOYMENT_LOG_LINE,
  MAX_QUEUED_DEPLOYS,
} from './apps/deployment-model.js';
export { Slots } from './apps/slots.js';
export { AuthConnectionModel, type AuthConnectionParts } from './auth/auth-connection-model.js';
export {
  DEFAULT_SCRIPTED_SITE,
  type ScriptedField,
  ScriptedSignInDriver,
  type ScriptedSite,
  type ScriptedStep,
} from './auth/scripted-sign-in.js';
export type {
  SignInDriver,
  SignInField,
  SignInFieldKind,
  SignInPage,
} from './auth/sign-in-driver.js';
export type { BrowserEntry } from './browsers/browser-entry.js';
export { type BrowserSpec, DEFAULT_VIEWPORT } from './browsers/browser-spec.js';
export {
  checkBrowserNetworks,
  describeOperatorNetworks,
  effectiveNetworks,
  type OperatorNetworks,
  parseOperatorNetworks,
} from './browsers/network-allow.js';
export { type LiveInput, pause } from './computer/computer-model.js';
export { FRAME_MS, type Point, pathBetween } from './computer/mouse-path.js';
export {
  FetchProviderClient,
  MAX_PROVIDER_ANSWER_BYTES,
  PROVIDER_TIMEOUT_MS,
  providerAnswerOf,
} from './credentials/fetch-provider-client.js';
export type { ProviderAnswer, ProviderClient } from './credentials/provider-client.js';
export type {
  ArchiveStore,
  BrowserEngine,
  BrowserInstance,
  BrowserTab,
  CurlCall,
  CurlOutcome,
  CurlRunner,
  FileSystem,
  InputButton,
  InstanceEntryKind,
  KeyInput,
  LaunchSpec,
  MouseInput,
  Navigation,
  NodeDirectory,
  NodeFacts,
  PlaywrightOutcome,
  PlaywrightRun,
  PlaywrightRunner,
  ProcessEnd,
  ProcessEvents,
  ProcessRunner,
  ProcessSignal,
  ProcessSpec,
  ProfileStore,
  ProxyChecker,
  ProxyCheckResult,
  ProxyRoute,
  ProxyTarget,
  Recorder,
  RecordingHandle,
  Region,
  RunningProcess,
  ScreenFrame,
  ScreenSize,
  ScreenStream,
  SecretBox,
  WatchEvents,
  Watcher,
  WheelInput,
} from './engines.js';
export { eventStreamBody, SSE_HEARTBEAT_MS, wakeOrAbort } from './event-stream.js';
export {
  APP_ARCHIVE,
  type ArchiveEntry,
  type ArchiveKind,
  archiveTooLarge,
  checkArchiveEntries,
  checkExtensionArchive,
  checkManifest,
  checkZipEntries,
  EXTENSION_ARCHIVE,
  invalidArchive,
  MAX_MANIFEST_BYTES,
  tooManyEntries,
} from './extensions/extension-archive.js';
export {
  FileFailure,
  type FileFailureKind,
  fileError,
} from './files/file-failure.js';
export { INSTANCE_USER } from './files/file-model.js';
export {
  MemoryFileTree,
  type MemoryNode,
  memoryFileSystem,
  UPLOADED_ZIP,
} from './files/memory-file-system.js';
export { EventBuffer } from './fs-watch/event-buffer.js';
export type { FsChange } from './fs-watch/fs-change.js';
export type {
  Handler,
  HandlerContext,
  HandlerResult,
  HandlerTable,
  OperationNamed,
} from './handler.js';
export {
  createIdGenerator,
  type IdGenerator,
  isNodeTag,
  NODE_TAG_LENGTH,
  nodeTagOf,
} from './ids.js';
export { resolveInstancePath } from './instance-paths.js';
export { readFrameMessage } from './live-view/frame-message.js';
export { LIVE_VIEW_SCRIPT_PATH, livePage } from './live-view/live-page.js';
export { type LiveViewSockets, liveViewSockets } from './live-view/live-socket.js';
export {
  LIVE_CLOSE,
  type LiveViewGrant,
  LiveViewModel,
  MAX_VIEWERS_PER_SESSION,
  type ViewerConnection,
  type ViewerSocket,
} from './live-view/live-view-model.js';
export { SyntheticScreen } from './live-view/synthetic-screen.js';
export { InMemoryTabs, MAX_ADDRESS_CHARS, navigableUrl, TabList } from './live-view/tab-list.js';
export { INSTANCE_HOME, isOutOfResources, isStorageFull, notFound, refusals } from './messages.js';
export {
  type BrowserLimits,
  DEFAULT_BROWSER_LIMITS,
  type ModelContext,
  type ModelLog,
  type ModelSettings,
  type PoolPeers,
  type ProjectQuota,
} from './model-context.js';
export { KEY_PREFIX, keyDigest, maskKey, newApiKey } from './org/org-keys.js';
export { Organization, type OrganizationOptions } from './org/organization.js';
export {
  authenticate,
  type Caller,
  hasKnownToken,
  type KeyGrant,
  type KeyLookup,
  operatorKeyId,
  type TokenSets,
  withoutSessionKeys,
} from './pipeline/auth.js';
export type { CallRecord } from './pipeline/call-record.js';
export {
  type AnsweredCall,
  type AuditedCall,
  type CallInfo,
  createRequestHandler,
  type Interception,
  type RequestHandlerOptions,
  type RequestOutcome,
} from './pipeline/handle-request.js';
export {
  type IdempotencyLookup,
  type IdempotencyStore,
  isKeptAnswer,
  MemoryIdempotencyStore,
  type StoredResponse,
} from './pipeline/idempotency.js';
export { type ReadBody, readBody, streamBody } from './pipeline/read-body.js';
export {
  assertMultipart,
  bodyTooLarge,
  type FingerprintPart,
  interruptedBody,
  invalid,
  type MultipartBody,
  type MultipartLimits,
  type MultipartReader,
  malformedMultipart,
  multipartFingerprint,
  nestFormParts,
  readMultipartInMemory,
  repeatedPart,
  tooManyParts,
} from './pipeline/request-body.js';
export { jsonResponse } from './pipeline/responses.js';
export { playwrightTimedOut } from './playwright/playwright-model.js';
export { FillRate, startsPerMinute } from './pools/fill-rate.js';
export type { PoolView } from './pools/pool-entry.js';
export { type Waiter, waitInLine } from './pools/wait-in-line.js';
export type { ProcessEntry } from './processes/process-entry.js';
export { exitCodeOf } from './processes/process-entry.js';
export { MemoryProfileStore } from './profiles/memory-profile-store.js';
export { isProfilePath, PROFILE_PATHS, USER_DATA_DIR } from './profiles/profile-data.js';
export { type TarEntry, ustar } from './profiles/ustar.js';
export { aesSecretBox, SECRET_KEY_BYTES } from './proxies/secret-box.js';
export { auditMatches, isNewerEntry } from './records/audit-entries.js';
export { createMemoryAuditStore } from './records/memory-audit-store.js';
export {
  createMemoryRecordStore,
  createMemoryRecordStores,
  type MemoryRecordStore,
  type MemoryRecordStores,
  MemoryRecordTable,
  type MemoryRecordTables,
} from './records/memory-record-store.js';
export { findByIdOrName, putNamed } from './records/named-records.js';
export type {
  AuditQuery,
  AuditStore,
  RecordFilter,
  RecordKeys,
  RecordStore,
  RecordStores,
  RecordTable,
  RecordTables,
  StoredApiKey,
  StoredAuthConnection,
  StoredCredentialProvider,
  StoredDeployment,
  StoredExtension,
  StoredOrgSettings,
  StoredPool,
  StoredProject,
  StoredProxy,
} from './records/record-store.js';
export {
  NameTaken,
  ORG_SCOPE,
  PROJECT_RECORD_KINDS,
  RECORD_KINDS,
  recordTablesOf,
  scopesOf,
} from './records/record-store.js';
export { RECORD_STORE_CHECKS, type RecordStoreCheck } from './records/record-store-checks.js';
export { StoreHold } from './records/store-hold.js';
export { REPLAY_PLAYER_SCRIPT_PATH, replayViewUrl } from './replays/replay-page.js';
export type { ServiceEngines } from './service-engines.js';
export { ServiceError } from './service-error.js';
export { serviceHandlers } from './service-handlers.js';
export { ServiceModel, type ServiceModelOptions } from './service-model.js';
export { servicePages } from './service-pages.js';
export {
  readSessionJwt,
  type SessionJwtScope,
  signSessionJwt,
  verifySessionJwt,
} from './session-jwt.js';
export type { TelemetryEventInput } from './telemetry/telemetry-log.js';
