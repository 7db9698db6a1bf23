import type { BrowserService } from './browsers/browser-service.js';
import type { ExtensionService } from './extensions/extension-service.js';
import type { WatchService } from './fs-watch/watch-service.js';
import type { InvocationService } from './invocations/invocation-service.js';
import type { PoolService } from './pools/pool-service.js';
import type { ProcessService } from './processes/process-service.js';
import type { ReplayService } from './replays/replay-service.js';

/** What the server's handlers work with. */
export interface ServerRuntime {
  readonly browsers: BrowserService;
  readonly invocations: InvocationService;
  readonly pools: PoolService;
  readonly processes: ProcessService;
  readonly watches: WatchService;
  readonly replays: ReplayService;
  readonly extensions: ExtensionService;
}
