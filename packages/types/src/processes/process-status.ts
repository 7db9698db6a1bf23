import {
  type InferOutput,
  integer,
  minValue,
  nullable,
  number,
  object,
  picklist,
  pipe,
} from 'valibot';

/** Whether a process still runs. */
export const ProcessStateSchema = picklist(['running', 'exited']);

/**
 * Status of a process on the browser instance (operation 4.6). `exit_code` is null while it runs
 * and 128+signal when a signal ended it; `cpu_pct` is the share of one core over the last sampling
 * window; `mem_bytes` is the resident set size, 0 after exit.
 */
export const ProcessStatusSchema = object({
  state: ProcessStateSchema,
  exit_code: nullable(pipe(number(), integer())),
  cpu_pct: pipe(number(), minValue(0)),
  mem_bytes: pipe(number(), integer(), minValue(0)),
});

/** Status of a process on the browser instance. */
export type ProcessStatus = InferOutput<typeof ProcessStatusSchema>;
