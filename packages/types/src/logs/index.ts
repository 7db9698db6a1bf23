export {
  type LogEvent,
  LogEventSchema,
  type LogStreamInput,
  LogStreamQuerySchema,
  MAX_LOG_LINE_BYTES,
  SUPERVISOR_PROCESSES,
} from './logs.js';
export { streamLogsOperation } from './operations.js';
