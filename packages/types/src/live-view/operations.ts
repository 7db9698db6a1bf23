import { BrowserPathSchema } from '../browsers/operations.js';
import { defineOperation } from '../catalog/operation.js';
import { CreateLiveViewBodySchema, LiveViewSchema } from './live-view.js';

/** POST /browsers/{id}/live_view: a fresh live view link, e.g. a read-only one for a colleague. */
export const createLiveViewOperation = /* @__PURE__ */ defineOperation({
  name: 'browsers.liveView.create',
  clusterRoute: 'session',
  summary: 'Create a live view link to watch (read) or drive (control) the browser session.',
  method: 'POST',
  path: '/browsers/{id}/live_view',
  pathParams: BrowserPathSchema,
  body: { encoding: 'json', schema: CreateLiveViewBodySchema },
  responses: { 201: { kind: 'json', schema: LiveViewSchema } },
  errorStatuses: [404],
  access: 'write',
});
