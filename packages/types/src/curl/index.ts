export {
  CURL_METHODS,
  CURL_TIMEOUT_MS,
  CurlBodySchema,
  type CurlInput,
  type CurlRequest,
  type CurlResult,
  CurlResultSchema,
  MAX_CURL_REQUEST_BODY_LENGTH,
  MAX_CURL_RESPONSE_BYTES,
} from './curl.js';
export { curlOperation } from './operations.js';
