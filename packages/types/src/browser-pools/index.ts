export {
  type BrowserPool,
  type BrowserPoolConfig,
  BrowserPoolConfigSchema,
  BrowserPoolListSchema,
  BrowserPoolSchema,
} from './browser-pool.js';
export {
  acquireBrowserOperation,
  BrowserPoolPathSchema,
  createBrowserPoolOperation,
  deleteBrowserPoolOperation,
  flushBrowserPoolOperation,
  getBrowserPoolOperation,
  listBrowserPoolsOperation,
  releaseBrowserOperation,
  updateBrowserPoolOperation,
} from './operations.js';
export {
  AcquireBrowserBodySchema,
  type AcquireBrowserInput,
  CreateBrowserPoolBodySchema,
  type CreateBrowserPoolInput,
  DeleteBrowserPoolQuerySchema,
  POOL_BROWSER_TIMEOUT_SECONDS,
  POOL_FILL_RATE_PERCENT,
  POOL_SIZE,
  PoolProfileReferenceSchema,
  QueryBooleanSchema,
  ReleaseBrowserBodySchema,
  type ReleaseBrowserInput,
  UpdateBrowserPoolBodySchema,
  type UpdateBrowserPoolInput,
} from './pool-requests.js';
