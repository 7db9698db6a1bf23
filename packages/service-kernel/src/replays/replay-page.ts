import { urlExpiry } from '../browsers/session-url.js';
import type { BrowserInstance } from '../engines.js';
import { pageHeaders, refusalHtml, STYLE } from '../live-view/live-page.js';
import type { ModelContext } from '../model-context.js';
import { readSessionJwt, signSessionJwt } from '../session-jwt.js';
import { replayPlayer } from './replay-player-script.js';

/** Where the replay page's script is served. */
export const REPLAY_PLAYER_SCRIPT_PATH = '/assets/replay-player.js';

/** A replay's page, `/browsers/{id}/replays/{replay_id}/view`, and its video, `…/view/video`. */
const REPLAY_PAGE_PATH =
  /^\/browsers\/([A-Za-z0-9_-]{1,64})\/replays\/([A-Za-z0-9_-]{1,64})\/view(\/video)?$/;

/**
 * The page of a finished replay on `httpOrigin`: its jwt is scoped to that browser and that
 * replay (`replay:<id>`), valid SESSION_URL_LIFETIME_SECONDS from now.
 */
export function replayViewUrl<I extends BrowserInstance>(
  context: ModelContext<I>,
  browserId: string,
  replayId: string,
  httpOrigin: string,
): string {
  const jwt = signSessionJwt(
    context.settings.jwtSecret,
    browserId,
    urlExpiry(context),
    `replay:${replayId}`,
  );
  return `${httpOrigin}/browsers/${browserId}/replays/${replayId}/view?jwt=${jwt}`;
}

function playerHtml(videoSrc: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Replay</title>
<style>${STYLE}
body { display: flex; flex-direction: column; }
video { flex: 1; min-height: 0; width: 100%; background: #000; }
#bar { display: flex; gap: 6px; align-items: center; padding: 6px 8px; }
#bar button { background: #333; color: #eee; border: 1px solid #555; border-radius: 4px; padding: 2px 10px; }
#bar button.on { background: #eee; color: #111; }
</style>
</head>
<body>
<video id="video" controls autoplay muted preload="auto" src="${videoSrc}"></video>
<div id="bar"><span>Speed</span><span id="speeds"></span></div>
<div id="status" hidden></div>
<script src="${REPLAY_PLAYER_SCRIPT_PATH}"></script>
</body>
</html>
`;
}

/** The bytes of a video answered for a `Range: bytes=a-b` request (206), or whole (200). */
function videoResponse(video: Blob, range: string | null, isHead: boolean): Response {
  const headers = pageHeaders('video/mp4');
  headers.set('accept-ranges', 'bytes');
  const size = video.size;
  const match = range ? /^bytes=(\d*)-(\d*)$/.exec(range.trim()) : null;
  if (range && match && (match[1] !== '' || match[2] !== '')) {
    let start: number;
    let end: number;
    if (match[1] === '') {
      start = Math.max(0, size - Number(match[2]));
      end = size - 1;
    } else {
      start = Number(match[1]);
      end = match[2] === '' ? size - 1 : Math.min(size - 1, Number(match[2]));
    }
    if (start > end || start >= size) {
      headers.set('content-range', `bytes */${size}`);
      return new Response(null, { status: 416, headers });
    }
    headers.set('content-range', `bytes ${start}-${end}/${size}`);
    headers.set('content-length', String(end - start + 1));
    return new Response(isHead ? null : video.slice(start, end + 1).stream(), {
      status: 206,
      headers,
    });
  }
  headers.set('content-length', String(size));
  return new Response(isHead ? null : video.stream(), { status: 200, headers });
}

let script: string | undefined;

/** What the replay pages need of the service. */
export interface ReplayPageSource {
  /** The finished replay's video; undefined when there is none (yet). */
  video(browserId: string, replayId: string): Promise<Blob | Uint8Array | undefined>;
}

/**
 * A finished replay's pages, outside the catalog (the jwt in the URL is the key): the page that
 * plays it (seek with the video's controls, speed with the buttons), its video with byte ranges,
 * and its script; a page saying why when the link is bad or expired (401) or there is no such
 * video (404).
 */
export async function replayPage<I extends BrowserInstance>(
  context: ModelContext<I>,
  source: ReplayPageSource,
  method: string,
  url: URL,
  range: string | null,
): Promise<Response | undefined> {
  if (method !== 'GET' && method !== 'HEAD') return undefined;
  const isHead = method === 'HEAD';
  if (url.pathname === REPLAY_PLAYER_SCRIPT_PATH) {
    script ??= `(${replayPlayer.toString()})();\n`;
    return new Response(isHead ? null : script, {
      headers: pageHeaders('text/javascript; charset=utf-8'),
    });
  }
  const match = REPLAY_PAGE_PATH.exec(url.pathname);
  if (!match) return undefined;
  const [, browserId = '', replayId = '', isVideo] = match;
  const jwt = url.searchParams.get('jwt') ?? '';
  const now = Math.floor(context.clock().getTime() / 1000);
  const claims = readSessionJwt(context.settings.jwtSecret, jwt, browserId, now);
  const refuse = (status: number, title: string, message: string) =>
    new Response(isHead ? null : refusalHtml(title, message), {
      status,
      headers: pageHeaders('text/html; charset=utf-8'),
    });
  if (claims?.scope !== `replay:${replayId}`) {
    return refuse(
      401,
      'Link not valid',
      'This replay link has expired or is not valid. Ask for a new one.',
    );
  }
  const found = await source.video(browserId, replayId).catch((error: unknown) => {
    // The viewer is told there is no video; why it could not be read is the operator's to see.
    context.log.warn({ err: error, replay: replayId }, 'a replay video could not be read');
    return undefined;
  });
  if (!found)
    return refuse(404, 'No video', 'This replay has no video (yet): it may still be recording.');
  if (isVideo) {
    const video = found instanceof Blob ? found : new Blob([found as Uint8Array<ArrayBuffer>]);
    return videoResponse(video, range, isHead);
  }
  const src = `${url.pathname}/video?jwt=${encodeURIComponent(jwt)}`;
  return new Response(isHead ? null : playerHtml(src), {
    headers: pageHeaders('text/html; charset=utf-8'),
  });
}
