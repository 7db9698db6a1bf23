import type { BrowserInstance } from './engines.js';
import { livePage } from './live-view/live-page.js';
import { replayPage } from './replays/replay-page.js';
import type { ServiceModel } from './service-model.js';

/** A page of one browser: the id it names. */
const BROWSER_PAGE_PATH = /^\/browsers\/([A-Za-z0-9_-]{1,64})\//;

/**
 * The web pages a person opens with a link the API handed out (the jwt in the URL is the key):
 * a session's live view and a finished replay's player, with their scripts. The request handler
 * asks them first (`pages`); undefined goes on to the API.
 */
export function servicePages<I extends BrowserInstance>(
  model: (browserId: string) => ServiceModel<I> | Promise<ServiceModel<I>>,
): (request: Request, url: URL) => Promise<Response | undefined> {
  return async (request, url) => {
    const browserId = BROWSER_PAGE_PATH.exec(url.pathname)?.[1] ?? '';
    const current = await model(browserId);
    return (
      livePage(current.liveViews, request.method, url) ??
      (await replayPage(
        current.context,
        { video: (browserId, replayId) => current.replays.finishedVideo(browserId, replayId) },
        request.method,
        url,
        request.headers.get('range'),
      ))
    );
  };
}
