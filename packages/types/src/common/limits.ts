/** Version of the interface description these schemas implement. */
export const API_VERSION = '0.1.0';

/** `X-Request-Id`: the id the service gives each request, for support and logs. */
export const REQUEST_ID_HEADER = 'x-request-id';

/** `Idempotency-Key`: makes an acting POST safe to send again. */
export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';

/** The header naming the project a call acts in (id or name), as the Kernel SDK sends it. */
export const PROJECT_HEADER = 'x-kernel-project-id';

/** `Retry-After`: how long to wait before trying again (429, 503). */
export const RETRY_AFTER_HEADER = 'retry-after';

/**
 * Names of the headers the contract gives a meaning to. (The ones a client sends or reads on
 * every call are exported on their own as well, so a bundle can take one without the rest.)
 */
export const HEADERS = {
  authorization: 'authorization',
  requestId: REQUEST_ID_HEADER,
  idempotencyKey: IDEMPOTENCY_KEY_HEADER,
  apiVersion: 'x-api-version',
  retryAfter: RETRY_AFTER_HEADER,
  /** The project a call acts in (id or name); absent: the key's project, else the default. */
  project: PROJECT_HEADER,
  /** Where the next page of a page-token list starts (`page_token`); absent on the last. */
  nextPageToken: 'x-next-page-token',
} as const;

/** Most characters (Unicode code points) one call may type or put on the clipboard. */
const INPUT_CHARACTERS = 100_000;

/** Longest one input call may take by its own pauses and durations, in milliseconds. */
const INPUT_DURATION_MS = 300_000;

/** Room a multipart form's framing (boundaries, part headers, small fields) may take per file. */
export const FORM_FRAMING_BYTES = 65_536; // 64 KiB

/**
 * The numeric limits of the contract, in one place for the client, the fake and the server.
 * Written as plain numbers, not products: a bundler keeps an unused object holding arithmetic
 * (it cannot prove `a * b` pure), and this object is one every importer of HEADERS would carry.
 */
export const LIMITS = {
  /** Largest JSON request body, in bytes (larger: 413). */
  jsonBodyBytes: 1_048_576, // 1 MiB
  /** Deepest nesting of arrays and objects a JSON request body may have (deeper: 400). */
  jsonDepth: 64,
  /** Longest path of an entry in an extension archive, in bytes (longer: 400). */
  archiveEntryNameBytes: 1024,
  /** Longest `Idempotency-Key` header value, in characters. */
  idempotencyKeyLength: 255,
  /** How long a stored idempotent response is replayed, in milliseconds. */
  idempotencyWindowMs: 86_400_000, // 24 h
  /** Most characters (Unicode code points) one type call may carry. */
  typeTextCharacters: INPUT_CHARACTERS,
  /** Longest a type call may take by its own delay: characters × delay, in milliseconds. */
  typeTextDurationMs: INPUT_DURATION_MS,
  /** Most characters one clipboard write may carry. */
  clipboardCharacters: INPUT_CHARACTERS,
  /** Longest a batch of computer actions may take by its own pauses and durations, in ms. */
  batchDurationMs: INPUT_DURATION_MS,
  /** Most actions in one batch. */
  batchActions: 100,
  /** Most keys held through one action (`hold_keys`). */
  heldKeys: 8,
  /** Most keys or combos one press_key call presses. */
  pressedKeys: 64,
  /** Most clicks one click_mouse call makes. */
  clicks: 10,
  /** Most points of a drag path. */
  dragPoints: 1000,
  /** Most steps between two points of a drag. */
  dragStepsPerSegment: 100,
  /** Longest pause between two steps of a drag, in milliseconds. */
  dragStepDelayMs: 1000,
  /** Longest pause before a drag moves, a key is held, or a batch sleeps, in milliseconds. */
  inputPauseMs: 10_000,
  /** Shortest and longest paced move or drag (`duration_ms`), in milliseconds. */
  moveMinMs: 50,
  moveMaxMs: 5000,
  /** Most wheel notches one scroll turns, each way. */
  scrollNotches: 100,
  /** Longest path a file operation takes, in bytes (longer: 400). */
  filePathBytes: 4096,
  /**
   * Largest file one write_file call writes, and largest total of one upload, in bytes (larger:
   * 413). Every write also counts against the instance's own disk (full: 507).
   */
  fileBytes: 4_294_967_296, // 4 GiB
  /** Most files one upload call writes. */
  uploadFiles: 100,
  /** Most entries one list_files call answers, or one download_dir_zip packs (more: 413). */
  directoryEntries: 10_000,
  /** Largest extension archive, in bytes (larger: 413). */
  extensionArchiveBytes: 52_428_800, // 50 MiB
  /** Largest uncompressed total of an extension archive, in bytes (larger: 413). */
  extensionUncompressedBytes: 209_715_200, // 200 MiB
  /** Most entries in an extension archive (more: 413). */
  extensionEntries: 10_000,
} as const;

/** Bounds and default of how long acquire waits for a free browser, in seconds. */
export const ACQUIRE_TIMEOUT_SECONDS = { min: 0, max: 300, default: 30 } as const;
