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
export const ProcessStateSchema = /* @__PURE__ */ picklist(['running', 'exited']);

/**
 * Status of a process on the browser instance (operation 4.6). `exit_code` is null while it runs
 * and 128+signal when a signal ended it; `cpu_pct` is the share of one core over the last sampling
 * window; `mem_bytes` is the resident set size, 0 after exit.
 */
export const ProcessStatusSchema = /* @__PURE__ */ object({
  state: ProcessStateSchema,
  exit_code: /* @__PURE__ */ nullable(
    /* @__PURE__ */ pipe(/* @__PURE__ */ number(), /* @__PURE__ */ integer()),
  ),
  cpu_pct: /* @__PURE__ */ pipe(/* @__PURE__ */ number(), /* @__PURE__ */ minValue(0)),
  mem_bytes: /* @__PURE__ */ pipe(
    /* @__PURE__ */ number(),
    /* @__PURE__ */ integer(),
    /* @__PURE__ */ minValue(0),
  ),
});

/** Status of a process on the browser instance. */
export type ProcessStatus = InferOutput<typeof ProcessStatusSchema>;
