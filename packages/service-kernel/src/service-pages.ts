import type { BrowserInstance } from './engines.js';
import { livePage } from './live-view/live-page.js';
import { replayPage } from './replays/replay-page.js';
import type { ServiceModel } from './service-model.js';
import { readSessionJwt } from './session-jwt.js';

/** A page of one browser (its live view, a replay's page or video): the id it names. */
const BROWSER_PAGE_PATH =
  /^\/browsers\/([A-Za-z0-9_-]{1,64})\/(?:live\/?|replays\/[A-Za-z0-9_-]{1,64}\/view(?:\/video)?)$/;

/**
 * The browser a page request names, once its jwt is known to be that browser's: only then is
 * it looked for in every project (a request with no key costs one check, not a search). ''
 * for anything else: the default project's pages answer it (and refuse a bad key).
 */
async function pageBrowser<I extends BrowserInstance>(
  request: Request,
  url: URL,
  anyModel: () => ServiceModel<I> | Promise<ServiceModel<I>>,
): Promise<string> {
  if (request.method !== 'GET' && request.method !== 'HEAD') return '';
  const id = BROWSER_PAGE_PATH.exec(url.pathname)?.[1];
  if (id === undefined) return '';
  const { context } = await anyModel();
  const now = Math.floor(context.clock().getTime() / 1000);
  const claims = readSessionJwt(
    context.settings.jwtSecret,
    url.searchParams.get('jwt') ?? '',
    id,
    now,
  );
  return claims ? id : '';
}

/**
 * The web pages a person opens with a link the API handed out (the jwt in the URL is the key):
 * a session's live view and a finished replay's player, with their scripts. The request handler
 * asks them first (`pages`); undefined goes on to the API.
 */
export function servicePages<I extends BrowserInstance>(
  model: (browserId: string) => ServiceModel<I> | Promise<ServiceModel<I>>,
): (request: Request, url: URL) => Promise<Response | undefined> {
  return async (request, url) => {
    const current = await model(await pageBrowser(request, url, () => model('')));
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
