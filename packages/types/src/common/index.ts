export { described, fieldDescription } from './describe.js';
export {
  ACQUIRE_TIMEOUT_SECONDS,
  API_VERSION,
  HEADERS,
  IDEMPOTENCY_KEY_HEADER,
  LIMITS,
  PROJECT_HEADER,
  REQUEST_ID_HEADER,
  RETRY_AFTER_HEADER,
} from './limits.js';
export {
  coversEntry,
  formatIpv4,
  formatNetworkEntry,
  isInNetwork,
  MAX_NETWORK_ENTRIES,
  type NetworkEntry,
  parseIpv4,
  parseNetworkEntry,
} from './network-entries.js';
export { integerBetween, queryIntegerBetween } from './numbers.js';
export {
  MAX_QUERY_LENGTH,
  NamedListQuerySchema,
  PAGE_LIMIT,
  type Page,
  type PageQuery,
  pageOf,
  pageQueryEntries,
} from './pages.js';
export { JsonObjectSchema, requestObject } from './request-object.js';
export {
  CountSchema,
  formatTimestamp,
  ID_PATTERN,
  IdOrNameSchema,
  IdSchema,
  NAME_PATTERN,
  NameSchema,
  TimestampSchema,
} from './scalars.js';
