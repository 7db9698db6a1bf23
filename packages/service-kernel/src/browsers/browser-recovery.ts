import type { BrowserInstance } from '../engines.js';
import type { ModelContext } from '../model-context.js';
import { closeOpenRecords } from './browser-records.js';

/**
 * Marks the records of browsers an earlier run left open as deleted: after a restart none of
 * them is driven any more.
 */
export function recoverBrowsers<I extends BrowserInstance>(
  context: ModelContext<I>,
): Promise<number> {
  return closeOpenRecords(
    context.engines.records,
    context.clock(),
    'server_restarted',
    context.settings.owns,
  );
}

/**
 * Marks the records of the sessions a lost node of the cluster ran (`isOf` picks them by id)
 * as ended, `node_lost`: nothing runs them any more. Gives how many there were.
 */
export function endLostBrowsers<I extends BrowserInstance>(
  context: ModelContext<I>,
  isOf: (sessionId: string) => boolean,
): Promise<number> {
  return closeOpenRecords(context.engines.records, context.clock(), 'node_lost', isOf);
}
