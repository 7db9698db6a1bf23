import type { BrowserSession, Viewport } from '@x/types';
import type { BrowserInstance } from '../engines.js';
import type { BrowserEntry } from './browser-entry.js';

/**
 * What the browsers ask of the rest of the service, and tell it: the service model sets these on
 * `BrowserModel`, and its parts read them each time, so a later setting counts.
 */
export interface BrowserHooks<I extends BrowserInstance> {
  /** Browsers the project's pools keep (their sizes together). */
  readonly reserved: () => number;
  /** Hears about every browser that ended, once its instance is closed. */
  readonly onEnded: (record: BrowserSession) => void;
  /** Hears about a browser that begins to end, before anything of it stops. */
  readonly onEnding: (id: string) => void;
  /** How many people watch a browser's live view now. */
  readonly viewersOf: (id: string) => number;
  /** Runs `work` (a resize) on a browser being recorded, its recordings ended and started again. */
  readonly whileRecorded: (entry: BrowserEntry<I>, work: () => Promise<void>) => Promise<void>;
  /** Hears that a browser's window changed size. */
  readonly onResized: (id: string, viewport: Viewport) => void;
}
