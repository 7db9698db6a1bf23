export { executePlaywrightOperation } from './operations.js';
export {
  MAX_PLAYWRIGHT_CODE_LENGTH,
  PLAYWRIGHT_TIMEOUT_SECONDS,
  PlaywrightExecuteBodySchema,
  type PlaywrightExecuteInput,
  type PlaywrightExecuteResult,
  PlaywrightExecuteResultSchema,
} from './playwright.js';
