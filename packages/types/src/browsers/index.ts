export {
  BROWSER_END_REASONS,
  BROWSER_LIST_STATUSES,
  type BrowserEndReason,
  type BrowserListQuery,
  type BrowserSession,
  BrowserSessionListSchema,
  BrowserSessionSchema,
  ListBrowsersQuerySchema,
  SessionProfileSchema,
} from './browser-session.js';
export {
  BrowserTagsSchema,
  MAX_BROWSER_TAGS,
  TAG_KEY_MAX_CHARACTERS,
  TAG_VALUE_MAX_CHARACTERS,
} from './browser-tags.js';
export {
  BROWSER_TIMEOUT_SECONDS,
  BrowserNameSchema,
  BrowserTimeoutSchema,
  type CreateBrowserBody,
  CreateBrowserBodySchema,
  type CreateBrowserInput,
  ExtensionReferenceSchema,
  ExtensionReferencesSchema,
  MAX_EXTENSIONS_PER_BROWSER,
  NetworkInputSchema,
  ProfileReferenceSchema,
  SESSION_URL_LIFETIME_SECONDS,
} from './create-browser.js';
export {
  BrowserIdOrNamePathSchema,
  BrowserPathSchema,
  createBrowserOperation,
  deleteBrowserOperation,
  getBrowserOperation,
  listBrowsersOperation,
  SessionIdParamSchema,
  updateBrowserOperation,
} from './operations.js';
export { SessionNetworkSchema } from './session-network.js';
export {
  type ChromePolicy,
  ChromePolicySchema,
  MAX_CHROME_POLICIES,
  MAX_CHROME_POLICY_BYTES,
  MAX_START_URL_LENGTH,
  SERVICE_CHROME_POLICIES,
  StartUrlSchema,
} from './start-options.js';
export {
  type UpdateBrowserBody,
  UpdateBrowserBodySchema,
  type UpdateBrowserInput,
  ViewportUpdateSchema,
} from './update-browser.js';
export { VIEWPORT_BOUNDS, type Viewport, ViewportSchema } from './viewport.js';
export { ViewportInputSchema } from './viewport-input.js';
