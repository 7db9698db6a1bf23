import { created, type MethodCase, noContent } from './method-case.js';

/** One realistic call of every operation of `fs-watch`. */
export const cases: Record<string, MethodCase> = {
  'browsers.fs.watch.stop': {
    input: { id: 'br_1', watch_id: 'w_1' },
    method: 'DELETE',
    url: '/browsers/br_1/fs/watch/w_1',
    respond: noContent,
    result: undefined,
  },
  'browsers.fs.watch.start': {
    input: { id: 'br_1', path: '/home/browser/Downloads', recursive: true },
    method: 'POST',
    url: '/browsers/br_1/fs/watch',
    body: { path: '/home/browser/Downloads', recursive: true },
    respond: created({ watch_id: 'w_1' }),
    result: { watch_id: 'w_1' },
  },
};
