export {
  listTelemetryEventsOperation,
  streamTelemetryOperation,
} from './operations.js';
export {
  DEFAULT_TELEMETRY_CATEGORIES,
  MAX_TELEMETRY_EVENT_BYTES,
  resolveTelemetry,
  TELEMETRY_CATEGORIES,
  TELEMETRY_EVENT_CATEGORIES,
  TELEMETRY_RETAINED_EVENTS,
  TELEMETRY_SOURCES,
  type TelemetryCategory,
  type TelemetryConfig,
  TelemetryConfigSchema,
  type TelemetryEnvelope,
  TelemetryEnvelopeListSchema,
  TelemetryEnvelopeSchema,
  type TelemetryEvent,
  type TelemetryEventCategory,
  TelemetryEventSchema,
  type TelemetryInput,
  TelemetryInputSchema,
  telemetryCategories,
} from './telemetry.js';
export {
  durationMs,
  type TelemetryEventsInput,
  TelemetryEventsQuerySchema,
  type TelemetryStreamInput,
  TelemetryStreamQuerySchema,
} from './telemetry-query.js';
