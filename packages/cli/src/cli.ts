/** What the bin loads after its fast path: the whole CLI. */
export { nodeIo } from './io.js';
export { run } from './run.js';
