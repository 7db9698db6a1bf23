import type { BrowserSession, UpdateBrowserBody, Viewport } from '@x/types';
import type { BrowserInstance } from '../engines.js';
import { notFound, refusals } from '../messages.js';
import type { ModelContext } from '../model-context.js';
import type { ProxyModel } from '../proxies/proxy-model.js';
import type { BrowserHooks } from './browser-hooks.js';
import type { BrowserReads } from './browser-reads.js';
import { saveBrowser } from './browser-saving.js';
import type { LiveBrowsers } from './live-browsers.js';

/** Changing a running browser: its name, tags, idle time-out, proxy and window size. */
export class BrowserUpdates<I extends BrowserInstance> {
  readonly #context: ModelContext<I>;
  readonly #proxies: ProxyModel<I>;
  readonly #live: LiveBrowsers<I>;
  readonly #reads: BrowserReads<I>;
  readonly #hooks: Pick<BrowserHooks<I>, 'whileRecorded' | 'onResized'>;

  constructor(
    context: ModelContext<I>,
    proxies: ProxyModel<I>,
    live: LiveBrowsers<I>,
    reads: BrowserReads<I>,
    hooks: Pick<BrowserHooks<I>, 'whileRecorded' | 'onResized'>,
  ) {
    this.#context = context;
    this.#proxies = proxies;
    this.#live = live;
    this.#reads = reads;
    this.#hooks = hooks;
  }

  /**
   * Changes a running browser (by id or name): its name ("" clears it; 409 when another
   * running browser has it), its tags (replaced whole), its idle time-out, the proxy its new
   * connections take ("" direct; 404 for an unknown proxy), and its window size, applied to the
   * browser at once (409 while it is recorded, unless `force`: then each recording ends, kept,
   * and a new one starts at the new size). Every refusal comes before anything changes.
   */
  async update(idOrName: string, body: UpdateBrowserBody): Promise<BrowserSession> {
    const entry = this.#live.find(idOrName);
    if (!entry) throw notFound('browser session', idOrName);
    const id = entry.record.session_id;
    entry.lastActivityAt = this.#context.clock().getTime();
    const oldName = entry.record.name;
    const newName =
      body.name === null || body.name === undefined ? oldName : body.name || undefined;
    if (newName !== oldName && newName !== undefined) {
      this.#live.assertNameFree(newName, id);
      if (this.#context.settings.isShared) await this.#live.assertNameFreeOnOtherNodes(newName, id);
    }
    const { viewport } = body;
    const recording = viewport
      ? (entry.replayStarting ??
        [...entry.recordings.values()].find((r) => !r.stopping)?.record.replay_id)
      : undefined;
    if (viewport && recording !== undefined && !viewport.force)
      throw refusals.recordingBlocksResize(id, recording);
    // A proxy is found (404 for an unknown one) before anything changes.
    const oldProxy = entry.record.proxy_id;
    const newProxy =
      body.proxy_id === null || body.proxy_id === undefined ? oldProxy : body.proxy_id || undefined;
    const route =
      newProxy !== oldProxy && newProxy !== undefined
        ? await this.#proxies.route(newProxy)
        : undefined;
    if (newProxy !== oldProxy) {
      await entry.instance.setProxy(route);
      entry.record = { ...entry.record };
      if (newProxy === undefined) delete entry.record.proxy_id;
      else entry.record.proxy_id = newProxy;
      entry.log.write(
        'service',
        `new connections go ${newProxy ? `through proxy ${newProxy}` : 'direct'}`,
      );
    }
    if (viewport) {
      const size: Viewport = { width: viewport.width, height: viewport.height };
      if (viewport.refresh_rate !== undefined) size.refresh_rate = viewport.refresh_rate;
      const apply = () => entry.instance.setViewport(size);
      if (recording === undefined) await apply();
      else await this.#hooks.whileRecorded(entry, apply);
      entry.record = { ...entry.record, viewport: size };
      this.#hooks.onResized(id, size);
    }
    if (this.#live.get(id) !== entry) throw notFound('browser session', idOrName);
    if (newName !== oldName) {
      // Claimed after the resize: a rename raced in meanwhile is refused here, before any save.
      if (newName !== undefined) this.#live.claimName(newName, id);
      this.#live.freeName(oldName, id);
    }
    const record: BrowserSession = { ...entry.record };
    if (newName === undefined) delete record.name;
    else record.name = newName;
    if (body.tags !== undefined && body.tags !== null) {
      if (Object.keys(body.tags).length === 0) delete record.tags;
      else record.tags = { ...body.tags };
    }
    if (body.timeout_seconds !== undefined) record.timeout_seconds = body.timeout_seconds;
    entry.record = record;
    await saveBrowser(this.#context, entry);
    return this.#reads.record(entry);
  }
}
