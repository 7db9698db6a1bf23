import { BrowserPathSchema, SessionIdParamSchema } from '../browsers/operations.js';
import { defineOperation } from '../catalog/operation.js';
import { described } from '../common/describe.js';
import { pageQueryEntries } from '../common/pages.js';
import { requestObject } from '../common/request-object.js';
import { IdSchema } from '../common/scalars.js';
import { ReplayListSchema, ReplaySchema, StartReplayBodySchema } from './replay.js';

/** Path parameters of an operation on one recording. */
export const ReplayPathSchema = /* @__PURE__ */ requestObject({
  id: SessionIdParamSchema,
  replay_id: /* @__PURE__ */ described(IdSchema, 'replay id'),
});

/** Query of GET /browsers/{id}/replays: a page. */
export const ListReplaysQuerySchema = /* @__PURE__ */ requestObject({ ...pageQueryEntries });

/** POST /browsers/{id}/replays: starts recording the browser's screen. */
export const startReplayOperation = /* @__PURE__ */ defineOperation({
  name: 'browsers.replays.start',
  clusterRoute: 'session',
  summary: 'Start recording a replay of the browser session.',
  method: 'POST',
  path: '/browsers/{id}/replays',
  pathParams: BrowserPathSchema,
  body: { encoding: 'json', schema: StartReplayBodySchema },
  responses: { 201: { kind: 'json', schema: ReplaySchema } },
  errorStatuses: [404, 409],
  access: 'write',
});

/** GET /browsers/{id}/replays: one page of the browser's recordings, oldest first. */
export const listReplaysOperation = /* @__PURE__ */ defineOperation({
  name: 'browsers.replays.list',
  clusterRoute: 'session',
  summary: 'List the replays of a browser session.',
  paginated: true,
  method: 'GET',
  path: '/browsers/{id}/replays',
  pathParams: BrowserPathSchema,
  query: ListReplaysQuerySchema,
  responses: { 200: { kind: 'json', schema: ReplayListSchema } },
  errorStatuses: [404],
  access: 'read',
});

/** GET /browsers/{id}/replays/{replay_id}: the MP4, or 202 with Retry-After while recording. */
export const downloadReplayOperation = /* @__PURE__ */ defineOperation({
  name: 'browsers.replays.download',
  clusterRoute: 'session',
  summary: 'Download a replay video (MP4).',
  method: 'GET',
  path: '/browsers/{id}/replays/{replay_id}',
  pathParams: ReplayPathSchema,
  responses: {
    200: { kind: 'binary', mediaType: 'video/mp4' },
    202: { kind: 'json', schema: ReplaySchema },
  },
  errorStatuses: [404],
  access: 'contents',
});

/** POST /browsers/{id}/replays/{replay_id}/stop (4.1): stops and finalizes the video. */
export const stopReplayOperation = /* @__PURE__ */ defineOperation({
  name: 'browsers.replays.stop',
  clusterRoute: 'session',
  summary: 'Stop a replay recording and persist the video.',
  specSection: '4.1',
  method: 'POST',
  path: '/browsers/{id}/replays/{replay_id}/stop',
  pathParams: ReplayPathSchema,
  responses: { 200: { kind: 'json', schema: ReplaySchema } },
  errorStatuses: [404],
  access: 'write',
});
