import type { BodyReader } from '../calls/call-parts.js';
import { binaryBody } from './binary-body.js';
import { readEventStream } from './event-stream.js';

/** Reads a binary answer as a BinaryBody and an event stream as an EventStream. */
export const readStreamBody: BodyReader = (kind, response, signal, checkEvent) =>
  kind === 'event-stream' ? readEventStream(response, checkEvent, signal) : binaryBody(response);
