import * as samples from '../../test-support/samples.js';
import { created, type MethodCase, ok } from './method-case.js';

/** One realistic call of every operation of `replays`. */
export const cases: Record<string, MethodCase> = {
  'browsers.replays.stop': {
    input: { id: 'br_1', replay_id: 'rp_1' },
    method: 'POST',
    url: '/browsers/br_1/replays/rp_1/stop',
    respond: ok({ ...samples.replay, finished_at: '2026-11-22T10:00:05.000Z' }),
    result: { ...samples.replay, finished_at: '2026-11-22T10:00:05.000Z' },
  },
  'browsers.replays.start': {
    input: { id: 'br_1', framerate: 5 },
    method: 'POST',
    url: '/browsers/br_1/replays',
    body: { framerate: 5 },
    respond: created(samples.replay),
    result: samples.replay,
  },
  'browsers.replays.list': {
    input: { id: 'br_1' },
    method: 'GET',
    url: '/browsers/br_1/replays',
    respond: ok([samples.replay]),
    result: [samples.replay],
  },
};
