/**
 * The request pipeline every implementation of the service shares, so the fake and the
 * self-hosted server answer alike: routing by the catalog, auth, body limits, validation,
 * idempotency, Error bodies, request ids; and the pieces their handlers use (ServiceError,
 * event-stream bodies).
 */
export { authenticate, type Caller, type TokenSets, withoutSessionKeys } from './auth.js';
export type { CallRecord } from './call-record.js';
export { EventBuffer } from './event-buffer.js';
export { eventStreamBody, wakeOrAbort } from './event-stream.js';
export {
  type ArchiveEntry,
  archiveTooLarge,
  checkArchiveEntries,
  checkExtensionArchive,
  checkManifest,
  invalidArchive,
  MAX_MANIFEST_BYTES,
  tooManyEntries,
} from './extension-archive.js';
export {
  createRequestHandler,
  type Interception,
  type RequestHandlerOptions,
  type RequestOutcome,
} from './handle-request.js';
export type {
  Handler,
  HandlerContext,
  HandlerResult,
  HandlerTable,
  OperationNamed,
} from './handler.js';
export {
  type IdempotencyLookup,
  type IdempotencyStore,
  isKeptAnswer,
  MemoryIdempotencyStore,
  type StoredResponse,
} from './idempotency.js';
export { createIdGenerator, type IdGenerator } from './ids.js';
export { type ReadBody, readBody, streamBody } from './read-body.js';
export {
  browserPoolRecord,
  followProcessOutput,
  type PoolLike,
  type ProcessOutput,
} from './records.js';
export {
  assertMultipart,
  bodyTooLarge,
  type FingerprintPart,
  invalid,
  type MultipartBody,
  type MultipartReader,
  malformedMultipart,
  multipartFingerprint,
  readMultipartInMemory,
  repeatedPart,
} from './request-body.js';
export { jsonResponse } from './responses.js';
export { notFound, ServiceError } from './service-error.js';
export { signSessionJwt, verifySessionJwt } from './session-jwt.js';
export { type Waiter, waitInLine } from './wait-in-line.js';
