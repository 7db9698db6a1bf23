import type { BrowserSession } from '@x/types';
import type { BrowserInstance } from '../engines.js';
import type { ModelContext } from '../model-context.js';
import { saveSessionRecord } from './browser-records.js';

/** What holds a session record: a live browser's entry, or the record alone (a seeded one). */
interface Holder {
  readonly record: BrowserSession;
}

/** Stores a browser's record as it reads now. */
export function saveBrowser<I extends BrowserInstance>(
  context: ModelContext<I>,
  entry: Holder,
): Promise<void> {
  return saveSessionRecord(context.engines.records.browsers, entry.record);
}

/** Saves a record without waiting for it; a store that refuses is logged. */
export function persistBrowser<I extends BrowserInstance>(
  context: ModelContext<I>,
  entry: Holder,
): void {
  saveBrowser(context, entry).catch((error: unknown) => {
    context.log.error(
      { err: error, session: entry.record.session_id },
      'a browser record could not be stored',
    );
  });
}

/** Saves the record; says whether the store took it (a failure is logged). */
export async function trySaveBrowser<I extends BrowserInstance>(
  context: ModelContext<I>,
  entry: Holder,
): Promise<boolean> {
  try {
    await saveBrowser(context, entry);
    return true;
  } catch (error) {
    context.log.error(
      { err: error, session: entry.record.session_id },
      'a browser record could not be stored',
    );
    return false;
  }
}
