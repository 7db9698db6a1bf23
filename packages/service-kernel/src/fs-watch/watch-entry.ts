import type { WatchEvent } from '@x/types';
import type { EventBuffer } from './event-buffer.js';

/** A directory watch and the events waiting for its reader. */
export interface WatchEntry {
  readonly id: string;
  readonly path: string;
  readonly recursive: boolean;
  readonly events: EventBuffer<WatchEvent>;
  readonly watcher: { close(): void };
}

/** Ends a watch: the engine stops watching and its stream closes. */
export function endWatch(watch: WatchEntry): void {
  watch.watcher.close();
  watch.events.close();
}
