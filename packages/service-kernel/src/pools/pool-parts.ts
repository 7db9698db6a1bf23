import type { BrowserModel } from '../browsers/browser-model.js';
import type { BrowserInstance } from '../engines.js';
import type { ModelContext } from '../model-context.js';
import type { HeldPools } from './held-pools.js';
import type { PoolCluster } from './pool-cluster.js';
import type { PoolFiller } from './pool-filler.js';

/**
 * What the pools' parts work with: the project's context and browsers, the pools held here, the
 * filler, and the cluster's other nodes.
 */
export interface PoolParts<I extends BrowserInstance> {
  readonly context: ModelContext<I>;
  readonly browsers: BrowserModel<I>;
  readonly held: HeldPools<I>;
  readonly filler: PoolFiller<I>;
  readonly cluster: PoolCluster<I>;
}
