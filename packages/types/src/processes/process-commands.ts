import {
  array,
  boolean,
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
import { described } from '../common/describe.js';
import { integerBetween } from '../common/numbers.js';
import { requestObject } from '../common/request-object.js';
import { TimestampSchema } from '../common/scalars.js';

/** Longest a process may be allowed to run, in seconds. */
export const MAX_PROCESS_TIMEOUT_SECONDS = 86_400;

const MAX_PATH_LENGTH = 4096;
const ENV_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Body of POST .../process/spawn and .../process/exec. */
export const ProcessCommandBodySchema = /* @__PURE__ */ requestObject({
  command: /* @__PURE__ */ described(
    /* @__PURE__ */ pipe(
      /* @__PURE__ */ string('must be a string'),
      /* @__PURE__ */ minLength(1, 'must not be empty'),
      /* @__PURE__ */ maxLength(MAX_PATH_LENGTH, `must be at most ${MAX_PATH_LENGTH} characters`),
    ),
    'program to run, a name on PATH or an absolute path',
  ),
  args: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(
      /* @__PURE__ */ pipe(
        /* @__PURE__ */ array(/* @__PURE__ */ string('must be a string')),
        /* @__PURE__ */ maxLength(4096, 'must list at most 4096'),
      ),
      [],
    ),
    'its arguments, at most 4096',
  ),
  cwd: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(
      /* @__PURE__ */ pipe(
        /* @__PURE__ */ string('must be a string'),
        /* @__PURE__ */ minLength(1, 'must not be empty'),
        /* @__PURE__ */ maxLength(MAX_PATH_LENGTH, `must be at most ${MAX_PATH_LENGTH} characters`),
      ),
    ),
    'absolute working directory, default the home directory',
  ),
  env: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(
      /* @__PURE__ */ record(
        /* @__PURE__ */ pipe(
          /* @__PURE__ */ string(),
          /* @__PURE__ */ regex(ENV_NAME_PATTERN, 'must be a valid environment variable name'),
        ),
        /* @__PURE__ */ string('must be a string'),
      ),
      {},
    ),
    'environment variables added to its own',
  ),
  timeout_sec: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ integerBetween(1, MAX_PROCESS_TIMEOUT_SECONDS)),
    `seconds before it is killed, 1–${MAX_PROCESS_TIMEOUT_SECONDS}, default none`,
  ),
});

/** What a spawn or exec call asks for, as a caller writes it. */
export type ProcessCommandInput = InferInput<typeof ProcessCommandBodySchema>;

/** Largest side of a terminal, in rows or columns. */
export const MAX_TERMINAL_SIDE = 65_535;

const terminalSide = (what: string) =>
  described(
    optional(integerBetween(1, MAX_TERMINAL_SIDE)),
    `the terminal's ${what}, 1–${MAX_TERMINAL_SIDE}, default ${what === 'rows' ? 24 : 80}; only with allocate_tty`,
  );

/** Body of POST .../process/spawn: a command, on a terminal of its own when asked. */
export const SpawnProcessBodySchema = /* @__PURE__ */ requestObject({
  ...ProcessCommandBodySchema.entries,
  allocate_tty: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ boolean('must be true or false'), false),
    'run it on a terminal of its own (its output, stdout and stderr as one, reads as stdout)',
  ),
  rows: /* @__PURE__ */ terminalSide('rows'),
  cols: /* @__PURE__ */ terminalSide('cols'),
});

/** What a spawn call asks for, as a caller writes it. */
export type SpawnProcessInput = InferInput<typeof SpawnProcessBodySchema>;

/** Most bytes one stdin call may write (base64 makes 4 characters of every 3 bytes). */
export const MAX_STDIN_BYTES = 1024 * 1024;

/** Body of POST .../process/{process_id}/stdin. */
export const ProcessStdinBodySchema = /* @__PURE__ */ requestObject({
  data_b64: /* @__PURE__ */ described(
    /* @__PURE__ */ pipe(
      /* @__PURE__ */ string('must be a string'),
      /* @__PURE__ */ maxLength(
        Math.ceil(MAX_STDIN_BYTES / 3) * 4,
        `must be at most ${MAX_STDIN_BYTES} bytes, base64`,
      ),
      /* @__PURE__ */ regex(/^[A-Za-z0-9+/]*={0,2}$/, 'must be base64'),
    ),
    `the bytes to write, base64 (at most ${MAX_STDIN_BYTES})`,
  ),
});

/** Answer of a stdin call. */
export const ProcessStdinResultSchema = /* @__PURE__ */ object({
  written_bytes: /* @__PURE__ */ described(
    /* @__PURE__ */ pipe(/* @__PURE__ */ number(), /* @__PURE__ */ integer()),
    'how many bytes were written',
  ),
});

/** Body of POST .../process/{process_id}/resize. */
export const ResizeProcessBodySchema = /* @__PURE__ */ requestObject({
  rows: /* @__PURE__ */ described(
    /* @__PURE__ */ integerBetween(1, MAX_TERMINAL_SIDE),
    `rows, 1–${MAX_TERMINAL_SIDE}`,
  ),
  cols: /* @__PURE__ */ described(
    /* @__PURE__ */ integerBetween(1, MAX_TERMINAL_SIDE),
    `columns, 1–${MAX_TERMINAL_SIDE}`,
  ),
});

/** Answer of POST .../process/spawn. */
export const SpawnedProcessSchema = /* @__PURE__ */ object({
  process_id: /* @__PURE__ */ described(/* @__PURE__ */ string(), "the process's id"),
  pid: /* @__PURE__ */ described(
    /* @__PURE__ */ pipe(/* @__PURE__ */ number(), /* @__PURE__ */ integer()),
    'its operating-system pid',
  ),
  started_at: /* @__PURE__ */ described(TimestampSchema, 'when it started (ISO 8601 UTC)'),
});

/** A process started on the browser instance. */
export type SpawnedProcess = InferOutput<typeof SpawnedProcessSchema>;

/** Answer of POST .../process/exec: the whole run, with its output in base64. */
export const ExecResultSchema = /* @__PURE__ */ object({
  exit_code: /* @__PURE__ */ described(
    /* @__PURE__ */ pipe(/* @__PURE__ */ number(), /* @__PURE__ */ integer()),
    'its exit code (128+signal when a signal ended it)',
  ),
  stdout_b64: /* @__PURE__ */ described(/* @__PURE__ */ string(), 'its standard output, base64'),
  stderr_b64: /* @__PURE__ */ described(/* @__PURE__ */ string(), 'its standard error, base64'),
  duration_ms: /* @__PURE__ */ described(
    /* @__PURE__ */ pipe(/* @__PURE__ */ number(), /* @__PURE__ */ minValue(0)),
    'how long it ran, in milliseconds',
  ),
  /**
   * Bytes of output dropped before what stdout_b64 and stderr_b64 hold: a process keeps only the
   * newest part of its output. Absent when nothing was dropped.
   */
  dropped_bytes: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(
      /* @__PURE__ */ pipe(
        /* @__PURE__ */ number(),
        /* @__PURE__ */ integer(),
        /* @__PURE__ */ minValue(1),
      ),
    ),
    'output bytes left out past the kept limit',
  ),
});

/** The result of running a command to its end. */
export type ExecResult = InferOutput<typeof ExecResultSchema>;

/** The signals a process can be sent. */
export const ProcessSignalSchema = /* @__PURE__ */ picklist(
  ['TERM', 'KILL', 'INT', 'HUP'],
  'must be one of TERM, KILL, INT, HUP',
);

/** Body of POST .../process/{process_id}/kill; absent means TERM. */
export const KillProcessBodySchema = /* @__PURE__ */ optional(
  /* @__PURE__ */ requestObject({
    signal: /* @__PURE__ */ described(
      optional(ProcessSignalSchema, 'TERM'),
      'TERM, KILL, INT or HUP, default TERM',
    ),
  }),
  {},
);

/** Answer of a kill call. */
export const KillResultSchema = /* @__PURE__ */ object({
  ok: /* @__PURE__ */ described(/* @__PURE__ */ literal(true), 'true once the signal was sent'),
});

/** One event of a process's output stream: a chunk of stdout or stderr, then its exit. */
export const ProcessOutputEventSchema = /* @__PURE__ */ variant('type', [
  /* @__PURE__ */ object({
    type: /* @__PURE__ */ described(
      /* @__PURE__ */ literal('stdout'),
      'a chunk of standard output',
    ),
    data_b64: /* @__PURE__ */ described(/* @__PURE__ */ string(), 'the bytes, base64'),
  }),
  /* @__PURE__ */ object({
    type: /* @__PURE__ */ described(/* @__PURE__ */ literal('stderr'), 'a chunk of standard error'),
    data_b64: /* @__PURE__ */ described(/* @__PURE__ */ string(), 'the bytes, base64'),
  }),
  /* @__PURE__ */ object({
    type: /* @__PURE__ */ described(/* @__PURE__ */ literal('exit'), 'the process ended'),
    exit_code: /* @__PURE__ */ described(
      /* @__PURE__ */ pipe(/* @__PURE__ */ number(), /* @__PURE__ */ integer()),
      'its exit code',
    ),
  }),
  /**
   * Output the service no longer held for this reader: a process keeps only the newest part of
   * its output (a bounded tail), so a reader that falls behind it, or starts late, is told how
   * many bytes it missed, in their place.
   */
  /* @__PURE__ */ object({
    type: /* @__PURE__ */ described(
      /* @__PURE__ */ literal('overflow'),
      'output was lost: the reader was too slow',
    ),
    lost_bytes: /* @__PURE__ */ described(
      /* @__PURE__ */ pipe(
        /* @__PURE__ */ number(),
        /* @__PURE__ */ integer(),
        /* @__PURE__ */ minValue(1),
      ),
      'how many bytes were lost',
    ),
  }),
]);

/** One event of a process's output stream. */
export type ProcessOutputEvent = InferOutput<typeof ProcessOutputEventSchema>;
