import { BrowserPathSchema, SessionIdParamSchema } from '../browsers/operations.js';
import { defineOperation } from '../catalog/operation.js';
import { described } from '../common/describe.js';
import { requestObject } from '../common/request-object.js';
import { IdSchema } from '../common/scalars.js';
import { StartWatchBodySchema, WatchEventSchema, WatchSchema } from './watch.js';

/** Path parameters of an operation on one directory watch. */
export const WatchPathSchema = /* @__PURE__ */ requestObject({
  id: SessionIdParamSchema,
  watch_id: /* @__PURE__ */ described(IdSchema, 'watch id'),
});

/** POST /browsers/{id}/fs/watch: starts watching a directory on the instance. */
export const startWatchOperation = /* @__PURE__ */ defineOperation({
  name: 'browsers.fs.watch.start',
  clusterRoute: 'session',
  summary: 'Start watching a directory on the browser instance.',
  method: 'POST',
  path: '/browsers/{id}/fs/watch',
  pathParams: BrowserPathSchema,
  body: { encoding: 'json', schema: StartWatchBodySchema },
  responses: { 201: { kind: 'json', schema: WatchSchema } },
  errorStatuses: [404],
  access: 'write',
});

/** GET /browsers/{id}/fs/watch/{watch_id}/events: the watch's changes as server-sent events. */
export const watchEventsOperation = /* @__PURE__ */ defineOperation({
  name: 'browsers.fs.watch.events',
  clusterRoute: 'session',
  summary: 'Stream the events of a directory watch (SSE).',
  method: 'GET',
  path: '/browsers/{id}/fs/watch/{watch_id}/events',
  pathParams: WatchPathSchema,
  responses: { 200: { kind: 'event-stream', eventSchema: WatchEventSchema } },
  errorStatuses: [404],
  access: 'contents',
});

/** DELETE /browsers/{id}/fs/watch/{watch_id} (4.7): ends the watch and closes its stream. */
export const stopWatchOperation = /* @__PURE__ */ defineOperation({
  name: 'browsers.fs.watch.stop',
  clusterRoute: 'session',
  summary: 'Stop watching a directory.',
  specSection: '4.7',
  method: 'DELETE',
  path: '/browsers/{id}/fs/watch/{watch_id}',
  pathParams: WatchPathSchema,
  responses: { 204: { kind: 'none' } },
  errorStatuses: [404],
  access: 'write',
});
