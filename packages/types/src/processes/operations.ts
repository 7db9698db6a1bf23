import { BrowserPathSchema, SessionIdParamSchema } from '../browsers/operations.js';
import { defineOperation } from '../catalog/operation.js';
import { execServerTimeMs } from '../catalog/server-time.js';
import { described } from '../common/describe.js';
import { requestObject } from '../common/request-object.js';
import { IdSchema } from '../common/scalars.js';
import {
  ExecResultSchema,
  KillProcessBodySchema,
  KillResultSchema,
  ProcessCommandBodySchema,
  ProcessOutputEventSchema,
  ProcessStdinBodySchema,
  ProcessStdinResultSchema,
  ResizeProcessBodySchema,
  SpawnedProcessSchema,
  SpawnProcessBodySchema,
} from './process-commands.js';
import { ProcessStatusSchema } from './process-status.js';

/** Path parameters of an operation on one process. */
export const ProcessPathSchema = /* @__PURE__ */ requestObject({
  id: SessionIdParamSchema,
  process_id: /* @__PURE__ */ described(IdSchema, 'process id'),
});

/**
 * POST /browsers/{id}/process/spawn: starts a process and returns at once. Process operations
 * answer 503 when no sandbox is available and 403 when the operator turned them off.
 */
export const spawnProcessOperation = /* @__PURE__ */ defineOperation({
  name: 'browsers.process.spawn',
  clusterRoute: 'session',
  summary: 'Start a process on the browser instance.',
  method: 'POST',
  path: '/browsers/{id}/process/spawn',
  pathParams: BrowserPathSchema,
  body: { encoding: 'json', schema: SpawnProcessBodySchema },
  responses: { 200: { kind: 'json', schema: SpawnedProcessSchema } },
  errorStatuses: [404, 503],
  access: 'write',
});

/** POST /browsers/{id}/process/exec: runs a command to its end and returns its output. */
export const execProcessOperation = /* @__PURE__ */ defineOperation({
  name: 'browsers.process.exec',
  clusterRoute: 'session',
  summary: 'Run a command on the browser instance and wait for it.',
  method: 'POST',
  path: '/browsers/{id}/process/exec',
  pathParams: BrowserPathSchema,
  body: { encoding: 'json', schema: ProcessCommandBodySchema },
  responses: { 200: { kind: 'json', schema: ExecResultSchema } },
  errorStatuses: [404, 503],
  access: 'write',
  serverTimeMs: execServerTimeMs,
});

/** POST /browsers/{id}/process/{process_id}/kill: sends a signal. */
export const killProcessOperation = /* @__PURE__ */ defineOperation({
  name: 'browsers.process.kill',
  clusterRoute: 'session',
  summary: 'Send a signal to a process.',
  method: 'POST',
  path: '/browsers/{id}/process/{process_id}/kill',
  pathParams: ProcessPathSchema,
  body: { encoding: 'json', schema: KillProcessBodySchema },
  responses: { 200: { kind: 'json', schema: KillResultSchema } },
  errorStatuses: [404, 503],
  access: 'write',
});

/** GET /browsers/{id}/process/{process_id}/status (4.6): state, exit code, cpu and memory. */
export const getProcessStatusOperation = /* @__PURE__ */ defineOperation({
  name: 'browsers.process.status',
  clusterRoute: 'session',
  summary: 'Get the status of a process.',
  specSection: '4.6',
  method: 'GET',
  path: '/browsers/{id}/process/{process_id}/status',
  pathParams: ProcessPathSchema,
  responses: { 200: { kind: 'json', schema: ProcessStatusSchema } },
  errorStatuses: [404, 503],
  access: 'read',
});

/** GET /browsers/{id}/process/{process_id}/stdout/stream: stdout and stderr, then the exit. */
export const streamProcessOutputOperation = /* @__PURE__ */ defineOperation({
  name: 'browsers.process.output',
  clusterRoute: 'session',
  summary: 'Stream the output of a process (SSE).',
  method: 'GET',
  path: '/browsers/{id}/process/{process_id}/stdout/stream',
  pathParams: ProcessPathSchema,
  responses: { 200: { kind: 'event-stream', eventSchema: ProcessOutputEventSchema } },
  errorStatuses: [404, 503],
  access: 'contents',
});

/**
 * POST /browsers/{id}/process/{process_id}/stdin: writes to a spawned process's input (its
 * terminal when it has one). 409 once it exited, 429 while it has not read what it holds.
 */
export const writeProcessStdinOperation = /* @__PURE__ */ defineOperation({
  name: 'browsers.process.stdin',
  clusterRoute: 'session',
  summary: 'Write to the input of a process.',
  method: 'POST',
  path: '/browsers/{id}/process/{process_id}/stdin',
  pathParams: ProcessPathSchema,
  body: { encoding: 'json', schema: ProcessStdinBodySchema },
  responses: { 200: { kind: 'json', schema: ProcessStdinResultSchema } },
  errorStatuses: [404, 409, 503],
  access: 'write',
});

/** POST /browsers/{id}/process/{process_id}/resize: sets a process's terminal size. */
export const resizeProcessOperation = /* @__PURE__ */ defineOperation({
  name: 'browsers.process.resize',
  clusterRoute: 'session',
  summary: 'Resize the terminal of a process.',
  method: 'POST',
  path: '/browsers/{id}/process/{process_id}/resize',
  pathParams: ProcessPathSchema,
  body: { encoding: 'json', schema: ResizeProcessBodySchema },
  responses: { 200: { kind: 'json', schema: KillResultSchema } },
  errorStatuses: [404, 503],
  access: 'write',
});
