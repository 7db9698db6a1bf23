import * as samples from '../../test-support/samples.js';
import { created, type MethodCase } from './method-case.js';

/** One realistic call of every operation of `live-view`. */
export const cases: Record<string, MethodCase> = {
  'browsers.liveView.create': {
    input: { id: 'br_1', mode: 'read', ttl_seconds: 600 },
    method: 'POST',
    url: '/browsers/br_1/live_view',
    body: { mode: 'read', ttl_seconds: 600 },
    respond: created(samples.liveView),
    result: samples.liveView,
  },
};
