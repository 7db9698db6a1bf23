/** Version of the interface description these schemas implement. */
export const API_VERSION = '0.1.0';

/** Names of the headers the contract gives a meaning to. */
export const HEADERS = {
  authorization: 'authorization',
  requestId: 'x-request-id',
  idempotencyKey: 'idempotency-key',
  apiVersion: 'x-api-version',
  retryAfter: 'retry-after',
} as const;

/** The numeric limits of the contract, in one place for the client, the fake and the server. */
export const LIMITS = {
  /** Largest JSON request body, in bytes (larger: 413). */
  jsonBodyBytes: 1024 * 1024,
  /** Deepest nesting of arrays and objects a JSON request body may have (deeper: 400). */
  jsonDepth: 64,
  /** Longest path of an entry in an extension archive, in bytes (longer: 400). */
  archiveEntryNameBytes: 1024,
  /** Longest `Idempotency-Key` header value, in characters. */
  idempotencyKeyLength: 255,
  /** How long a stored idempotent response is replayed, in milliseconds. */
  idempotencyWindowMs: 24 * 60 * 60 * 1000,
  /** Most characters (Unicode code points) one type call may carry. */
  typeTextCharacters: 100_000,
  /** Longest a type call may take by its own delay: characters × delay, in milliseconds. */
  typeTextDurationMs: 300_000,
  /** Largest extension archive, in bytes (larger: 413). */
  extensionArchiveBytes: 50 * 1024 * 1024,
  /** Largest uncompressed total of an extension archive, in bytes (larger: 413). */
  extensionUncompressedBytes: 200 * 1024 * 1024,
  /** Most entries in an extension archive (more: 413). */
  extensionEntries: 10_000,
} as const;
