import type { WatchEvent } from '@x/types';
import type { BrowserModel } from '../browsers/browser-model.js';
import type { BrowserInstance } from '../engines.js';
import { resolveInstancePath } from '../instance-paths.js';
import { notFound, refusals } from '../messages.js';
import type { ModelContext } from '../model-context.js';
import { EventBuffer } from './event-buffer.js';
import { endWatch, type WatchEntry } from './watch-entry.js';

/**
 * Every rule of directory watches: a directory inside the home (400 outside or for a file, 404
 * when missing), events buffered for a slow reader with OVERFLOW for what it lost, stop once
 * (404 after), all ended with their browser.
 */
export class WatchModel<I extends BrowserInstance> {
  readonly #context: ModelContext<I>;
  readonly #browsers: BrowserModel<I>;

  constructor(context: ModelContext<I>, browsers: BrowserModel<I>) {
    this.#context = context;
    this.#browsers = browsers;
  }

  /**
   * Starts a watch once the engine has it in place. While it starts it holds its place among the
   * browser's watches (so starts at once cannot pass the limit); a browser that ends meanwhile
   * ends it too.
   */
  async start(browserId: string, path: string, recursive: boolean): Promise<{ watch_id: string }> {
    const browser = this.#browsers.live(browserId);
    const { watches: max } = this.#context.settings.limits;
    if (browser.watches.size >= max) throw refusals.tooManyWatches(browserId, max);
    const target = resolveInstancePath('path', path);
    const kind = browser.instance.stat(target, 'path');
    if (kind === undefined) throw notFound('directory', target);
    if (kind !== 'dir') throw refusals.watchOfFile(target);
    const id = this.#context.nextId('watch');
    const events = new EventBuffer<WatchEvent>(this.#context.settings.watchBufferSize, (lost) => ({
      type: 'OVERFLOW',
      lost,
    }));
    let started: { close(): void } | undefined;
    let ended = false;
    const watch: WatchEntry = {
      id,
      path: target,
      recursive,
      events,
      watcher: {
        close: () => {
          ended = true;
          started?.close();
        },
      },
    };
    browser.watches.set(id, watch);
    try {
      started = await this.#context.engines.watcher.watch(
        browser.instance,
        { path: target, recursive },
        {
          change: (change) => events.push(change),
          error: () => {
            endWatch(watch);
            browser.watches.delete(id);
          },
        },
      );
    } catch (error) {
      endWatch(watch);
      browser.watches.delete(id);
      throw error;
    }
    if (ended) {
      started.close();
      this.#browsers.live(browserId); // 404 when the browser ended meanwhile
      throw notFound('watch', id);
    }
    return { watch_id: id };
  }

  /** A running watch of a live browser; 404 when unknown or stopped. */
  find(browserId: string, watchId: string): WatchEntry {
    const watch = this.#browsers.live(browserId).watches.get(watchId);
    if (!watch) throw notFound('watch', watchId);
    return watch;
  }

  /** Ends a watch and its stream; 404 when unknown or stopped already. */
  stop(browserId: string, watchId: string): void {
    const { watches } = this.#browsers.live(browserId);
    const watch = watches.get(watchId);
    if (!watch) throw notFound('watch', watchId);
    endWatch(watch);
    watches.delete(watchId);
  }
}
