import * as samples from '../../test-support/samples.js';
import { type MethodCase, ok } from './method-case.js';

/** One realistic call of every operation of `telemetry`. */
export const cases: Record<string, MethodCase> = {
  'browsers.telemetry.events': {
    input: { id: 'br_1', category: ['console', 'network'], order: 'desc' },
    method: 'GET',
    url: '/browsers/br_1/telemetry/events?category=console%2Cnetwork&order=desc',
    respond: ok([samples.telemetryEnvelope]),
    result: [samples.telemetryEnvelope],
  },
};
