export {
  downloadReplayOperation,
  ListReplaysQuerySchema,
  listReplaysOperation,
  ReplayPathSchema,
  startReplayOperation,
  stopReplayOperation,
} from './operations.js';
export {
  MAX_REPLAY_DURATION_SECONDS,
  REPLAY_FRAMERATE,
  type Replay,
  ReplayListSchema,
  ReplaySchema,
  StartReplayBodySchema,
  type StartReplayInput,
} from './replay.js';
