export { type OperationFields, operationFields, schemaEntries } from './fields.js';
export {
  type AnySchema,
  type ClusterRoute,
  defineOperation,
  type HttpMethod,
  type Operation,
  type OperationBody as OperationBodySpec,
  type OperationResponse,
  successStatuses,
} from './operation.js';
export type {
  OperationBody,
  OperationBodyInput,
  OperationInput,
  OperationOutcome,
  OperationPathInput,
  OperationPathParams,
  OperationQuery,
  OperationQueryInput,
  OperationSuccessStatus,
  ResponseValue,
} from './operation-types.js';
export {
  type CatalogOperation,
  type OperationName,
  operationByName,
  operations,
} from './operations.js';
export {
  allowedMethods,
  buildPath,
  matchOperation,
  type OperationMatch,
  pathParamNames,
} from './paths.js';
export {
  acquireServerTimeMs,
  batchServerTimeMs,
  curlServerTimeMs,
  drainServerTimeMs,
  execServerTimeMs,
  playwrightServerTimeMs,
} from './server-time.js';
