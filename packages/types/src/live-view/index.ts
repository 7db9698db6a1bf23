export {
  type CreateLiveViewBody,
  CreateLiveViewBodySchema,
  LIVE_VIEW_MODES,
  type LiveView,
  type LiveViewMode,
  LiveViewSchema,
} from './live-view.js';
export { createLiveViewOperation } from './operations.js';
