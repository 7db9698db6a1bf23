import {
  array,
  type InferInput,
  type InferOutput,
  integer,
  literal,
  maxLength,
  minLength,
  minValue,
  number,
  object,
  optional,
  picklist,
  pipe,
  record,
  regex,
  string,
  variant,
} from 'valibot';
import { integerBetween } from '../common/numbers.js';
import { requestObject } from '../common/request-object.js';
import { TimestampSchema } from '../common/scalars.js';

/** Longest a process may be allowed to run, in seconds. */
export const MAX_PROCESS_TIMEOUT_SECONDS = 86_400;

const MAX_PATH_LENGTH = 4096;
const ENV_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Body of POST .../process/spawn and .../process/exec. */
export const ProcessCommandBodySchema = requestObject({
  command: pipe(
    string('must be a string'),
    minLength(1, 'must not be empty'),
    maxLength(MAX_PATH_LENGTH, `must be at most ${MAX_PATH_LENGTH} characters`),
  ),
  args: optional(
    pipe(array(string('must be a string')), maxLength(4096, 'must list at most 4096')),
    [],
  ),
  cwd: optional(
    pipe(
      string('must be a string'),
      minLength(1, 'must not be empty'),
      maxLength(MAX_PATH_LENGTH, `must be at most ${MAX_PATH_LENGTH} characters`),
    ),
  ),
  env: optional(
    record(
      pipe(string(), regex(ENV_NAME_PATTERN, 'must be a valid environment variable name')),
      string('must be a string'),
    ),
    {},
  ),
  timeout_sec: optional(integerBetween(1, MAX_PROCESS_TIMEOUT_SECONDS)),
});

/** What a spawn or exec call asks for, as a caller writes it. */
export type ProcessCommandInput = InferInput<typeof ProcessCommandBodySchema>;

/** Answer of POST .../process/spawn. */
export const SpawnedProcessSchema = object({
  process_id: string(),
  pid: pipe(number(), integer()),
  started_at: TimestampSchema,
});

/** A process started on the browser instance. */
export type SpawnedProcess = InferOutput<typeof SpawnedProcessSchema>;

/** Answer of POST .../process/exec: the whole run, with its output in base64. */
export const ExecResultSchema = object({
  exit_code: pipe(number(), integer()),
  stdout_b64: string(),
  stderr_b64: string(),
  duration_ms: pipe(number(), minValue(0)),
  /**
   * Bytes of output dropped before what stdout_b64 and stderr_b64 hold: a process keeps only the
   * newest part of its output. Absent when nothing was dropped.
   */
  dropped_bytes: optional(pipe(number(), integer(), minValue(1))),
});

/** The result of running a command to its end. */
export type ExecResult = InferOutput<typeof ExecResultSchema>;

/** The signals a process can be sent. */
export const ProcessSignalSchema = picklist(
  ['TERM', 'KILL', 'INT', 'HUP'],
  'must be one of TERM, KILL, INT, HUP',
);

/** Body of POST .../process/{process_id}/kill; absent means TERM. */
export const KillProcessBodySchema = optional(
  requestObject({ signal: optional(ProcessSignalSchema, 'TERM') }),
  {},
);

/** Answer of a kill call. */
export const KillResultSchema = object({ ok: literal(true) });

/** One event of a process's output stream: a chunk of stdout or stderr, then its exit. */
export const ProcessOutputEventSchema = variant('type', [
  object({ type: literal('stdout'), data_b64: string() }),
  object({ type: literal('stderr'), data_b64: string() }),
  object({ type: literal('exit'), exit_code: pipe(number(), integer()) }),
  /**
   * Output the service no longer held for this reader: a process keeps only the newest part of
   * its output (a bounded tail), so a reader that falls behind it, or starts late, is told how
   * many bytes it missed, in their place.
   */
  object({ type: literal('overflow'), lost_bytes: pipe(number(), integer(), minValue(1)) }),
]);

/** One event of a process's output stream. */
export type ProcessOutputEvent = InferOutput<typeof ProcessOutputEventSchema>;
