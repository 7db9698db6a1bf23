export {
  startWatchOperation,
  stopWatchOperation,
  WatchPathSchema,
  watchEventsOperation,
} from './operations.js';
export {
  StartWatchBodySchema,
  type StartWatchInput,
  type Watch,
  WatchChangeTypeSchema,
  type WatchEvent,
  WatchEventSchema,
  WatchSchema,
} from './watch.js';
