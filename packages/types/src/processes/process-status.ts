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
import { described } from '../common/describe.js';

/** Whether a process still runs. */
export const ProcessStateSchema = /* @__PURE__ */ picklist(['running', 'exited']);

/**
 * Status of a process on the browser instance (operation 4.6). `exit_code` is null while it runs
 * and 128+signal when a signal ended it; `cpu_pct` is the share of one core over the last sampling
 * window; `mem_bytes` is the resident set size, 0 after exit.
 */
export const ProcessStatusSchema = /* @__PURE__ */ object({
  state: /* @__PURE__ */ described(ProcessStateSchema, 'running or exited'),
  exit_code: /* @__PURE__ */ described(
    /* @__PURE__ */ nullable(
      /* @__PURE__ */ pipe(/* @__PURE__ */ number(), /* @__PURE__ */ integer()),
    ),
    'exit code, null while running',
  ),
  cpu_pct: /* @__PURE__ */ described(
    /* @__PURE__ */ pipe(/* @__PURE__ */ number(), /* @__PURE__ */ minValue(0)),
    'share of one core over the last sampling window, percent, ≥ 0',
  ),
  mem_bytes: /* @__PURE__ */ described(
    /* @__PURE__ */ pipe(
      /* @__PURE__ */ number(),
      /* @__PURE__ */ integer(),
      /* @__PURE__ */ minValue(0),
    ),
    'resident memory in bytes, 0 after exit',
  ),
});

/** Status of a process on the browser instance. */
export type ProcessStatus = InferOutput<typeof ProcessStatusSchema>;
