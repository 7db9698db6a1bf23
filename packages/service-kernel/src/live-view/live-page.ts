import type { BrowserInstance } from '../engines.js';
import type { LiveViewModel } from './live-view-model.js';
import { liveViewer } from './viewer-script.js';

/** Where the live view page's script is served: the same for every session, no key needed. */
export const LIVE_VIEW_SCRIPT_PATH = '/assets/live-view.js';

/** A session's live view page: `/browsers/{id}/live`. */
const LIVE_PAGE_PATH = /^\/browsers\/([A-Za-z0-9_-]{1,64})\/live\/?$/;

/** A session's live view socket: `/browsers/{id}/live/ws`. */
export const LIVE_SOCKET_PATH = /^\/browsers\/([A-Za-z0-9_-]{1,64})\/live\/ws$/;

/** The style every page of ours shares. */
export const STYLE = `
html, body { margin: 0; height: 100%; background: #111; color: #eee; overflow: hidden;
  font: 15px/1.4 system-ui, sans-serif; }
canvas { display: block; }
body.control canvas { cursor: default; }
#status { position: fixed; inset: 0; display: flex; align-items: center; justify-content: center;
  text-align: center; padding: 2em; pointer-events: none; }
#status.error { background: #111; font-size: 18px; }
[hidden] { display: none !important; }
#badge { position: fixed; top: 8px; right: 8px; padding: 2px 8px; border-radius: 4px;
  background: rgba(0, 0, 0, 0.6); font-size: 12px; pointer-events: none; }
#keys { position: fixed; left: -1000px; top: 0; width: 10px; height: 10px; opacity: 0; }
`;

/** The live view's own look: the tabs, the address bar, who is watching, who drives. */
const LIVE_STYLE = `
#chrome { position: fixed; top: 0; left: 0; right: 0; background: #1e1e1e; border-bottom: 1px solid #333;
  font-size: 13px; user-select: none; }
#tabs { display: flex; gap: 2px; padding: 4px 4px 0; overflow-x: auto; }
.tab { display: flex; align-items: center; max-width: 220px; min-width: 60px; padding: 3px 6px;
  border-radius: 6px 6px 0 0; background: #2a2a2a; color: #bbb; cursor: pointer; }
.tab.active { background: #3a3a3a; color: #fff; }
.tab .title { overflow: hidden; white-space: nowrap; text-overflow: ellipsis; flex: 1; }
.tab .close { margin-left: 4px; padding: 0 4px; border: 0; background: none; color: inherit; cursor: pointer; }
#bar { display: flex; align-items: center; gap: 6px; padding: 4px 6px; background: #3a3a3a; }
#bar button, #tabs > button { background: #4a4a4a; color: #eee; border: 0; border-radius: 4px;
  padding: 3px 8px; cursor: pointer; font: inherit; }
#bar button:disabled { opacity: 0.5; cursor: default; }
#go { flex: 1; display: flex; }
#address { flex: 1; min-width: 0; background: #222; color: #eee; border: 1px solid #555; border-radius: 4px;
  padding: 3px 8px; font: inherit; }
#viewers, #latency { color: #bbb; white-space: nowrap; }
#control.you { background: #b3261e; }
#banner { padding: 4px 8px; background: #5a4a00; color: #fff; }
#banner.you { background: #7a1f1a; }
#stage { position: fixed; left: 0; right: 0; bottom: 0; top: 0; }
#badge { position: static; pointer-events: none; }
`;

/**
 * Headers of every live view answer. The page's URL holds its key, so no referrer leaves it; it
 * may not be framed (a control link framed by another site could be clicked through); it loads
 * only its own script and talks only to its own origin; nothing of it is cached.
 */
export function pageHeaders(contentType: string): Headers {
  return new Headers({
    'content-type': contentType,
    'cache-control': 'no-store',
    'referrer-policy': 'no-referrer',
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'content-security-policy': [
      "default-src 'none'",
      "script-src 'self'",
      "style-src 'unsafe-inline'",
      "img-src 'self' blob: data:",
      "media-src 'self'",
      "connect-src 'self'",
      "base-uri 'none'",
      "form-action 'none'",
      "frame-ancestors 'none'",
    ].join('; '),
  });
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

/**
 * The page: the session's tabs and address bar (driven from a control link), who watches, the
 * latency, who drives and the button to take or give back control; under them the canvas, a
 * status line, and the hidden field keys are typed into.
 */
function livePageHtml(): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Live view</title>
<style>${STYLE}${LIVE_STYLE}</style>
</head>
<body>
<header id="chrome">
<nav id="tabs" aria-label="Tabs"></nav>
<div id="bar">
<button id="back" type="button" title="Back" aria-label="Back" disabled>&#8249;</button>
<button id="forward" type="button" title="Forward" aria-label="Forward" disabled>&#8250;</button>
<button id="reload" type="button" title="Reload" aria-label="Reload" disabled>&#8635;</button>
<form id="go"><input id="address" type="text" aria-label="Address" autocomplete="off" spellcheck="false" readonly></form>
<span id="viewers" title="People watching this session"></span>
<span id="latency" title="Round trip to the server"></span>
<span id="badge" hidden></span>
<button id="control" type="button" hidden></button>
</div>
<div id="banner" role="status" hidden></div>
</header>
<div id="stage"><canvas id="screen"></canvas></div>
<div id="status">Connecting…</div>
<textarea id="keys" aria-label="keyboard input" autocomplete="off" autocapitalize="off" spellcheck="false"></textarea>
<script src="${LIVE_VIEW_SCRIPT_PATH}"></script>
</body>
</html>
`;
}

/** A page that says why a link does not open, with its status. */
export function refusalHtml(title: string, message: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${STYLE} body { display: flex; align-items: center; justify-content: center; }</style>
</head>
<body>
<main><h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p></main>
</body>
</html>
`;
}

let script: Uint8Array | undefined;

/**
 * The live view's pages, outside the catalog (a person opens them; the jwt in the URL is the
 * key, not a bearer token): the page of `/browsers/{id}/live?jwt=…`, or a page saying why it does
 * not open (401 for a bad or expired link, 404 for an ended session), and its script.
 */
export function livePage<I extends BrowserInstance>(
  liveViews: LiveViewModel<I>,
  method: string,
  url: URL,
): Response | undefined {
  if (method !== 'GET' && method !== 'HEAD') return undefined;
  if (url.pathname === LIVE_VIEW_SCRIPT_PATH) {
    script ??= new TextEncoder().encode(`(${liveViewer.toString()})();\n`);
    return new Response(method === 'HEAD' ? null : (script as Uint8Array<ArrayBuffer>), {
      headers: pageHeaders('text/javascript; charset=utf-8'),
    });
  }
  const id = LIVE_PAGE_PATH.exec(url.pathname)?.[1];
  if (!id) return undefined;
  const grant = liveViews.grant(id, url.searchParams.get('jwt') ?? '');
  const [status, html] =
    'status' in grant
      ? [
          grant.status,
          refusalHtml(
            grant.status === 404 ? 'Session ended' : 'Link not valid',
            grant.status === 404
              ? `${grant.message} Its live view closed with it.`
              : `${grant.message} Ask for a new link.`,
          ),
        ]
      : [200, livePageHtml()];
  return new Response(method === 'HEAD' ? null : html, {
    status,
    headers: pageHeaders('text/html; charset=utf-8'),
  });
}
