import type { OperationName } from '@x/types';
import type { BrowserInstance } from './engines.js';
import type { Handler } from './handler.js';
import type { ServiceModel } from './service-model.js';

/** The handlers of some operations, over the service model. */
export type HandlerGroup<I extends BrowserInstance, N extends OperationName> = {
  [K in N]: Handler<K, ServiceModel<I>>;
};
