import type { BrowserInstance } from '../engines.js';
import { eventStreamBody } from '../event-stream.js';
import type { HandlerGroup } from '../handler-group.js';

type Operations =
  | 'browsers.process.spawn'
  | 'browsers.process.exec'
  | 'browsers.process.kill'
  | 'browsers.process.status'
  | 'browsers.process.output'
  | 'browsers.process.stdin'
  | 'browsers.process.resize';

/** The process operations over the service model. */
export function processHandlers<I extends BrowserInstance>(): HandlerGroup<I, Operations> {
  return {
    'browsers.process.spawn': ({ runtime, params, body }) => ({
      status: 200,
      json: runtime.processes.spawn(params.id, body),
    }),
    'browsers.process.exec': async ({ runtime, params, body, signal }) => ({
      status: 200,
      json: await runtime.processes.exec(params.id, body, signal),
    }),
    'browsers.process.kill': ({ runtime, params, body }) => {
      runtime.processes.kill(params.id, params.process_id, body.signal);
      return { status: 200, json: { ok: true } };
    },
    'browsers.process.stdin': ({ runtime, params, body }) => ({
      status: 200,
      json: {
        written_bytes: runtime.processes.writeInput(params.id, params.process_id, body.data_b64),
      },
    }),
    'browsers.process.resize': ({ runtime, params, body }) => {
      runtime.processes.resize(params.id, params.process_id, body.rows, body.cols);
      return { status: 200, json: { ok: true } };
    },
    'browsers.process.status': ({ runtime, params }) => ({
      status: 200,
      json: runtime.processes.status(params.id, params.process_id),
    }),
    'browsers.process.output': ({ runtime, params }) => {
      const process = runtime.processes.find(params.id, params.process_id);
      return {
        status: 200,
        events: eventStreamBody((signal) => runtime.processes.output(process, signal)),
      };
    },
  };
}
