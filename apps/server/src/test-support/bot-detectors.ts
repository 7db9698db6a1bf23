import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';

/** What BotD said of a page: bot or human, and which of its detectors fired. */
export interface BotdVerdict {
  readonly bot: boolean;
  readonly botKind?: string;
  /** The detectors that called it a bot. */
  readonly fired: readonly string[];
}

/** What the page's own checks saw: each check's name, whether it passed, and what it read. */
export interface PageChecks {
  readonly botd: BotdVerdict;
  readonly checks: Readonly<Record<string, { readonly ok: boolean; readonly seen: unknown }>>;
}

/** A site on loopback that serves bot detectors, and the request headers it was sent. */
export interface DetectorSite {
  readonly url: string;
  readonly port: number;
  /** The headers of each request, by path, last one kept. */
  readonly headers: Map<string, IncomingHttpHeaders>;
  close(): Promise<void>;
}

/** FingerprintJS BotD's own build, as its package ships it (an ES module). */
function botdModule(): string {
  const require = createRequire(import.meta.url);
  const main = require.resolve('@fingerprintjs/botd');
  return readFileSync(main.replace(/botd\.cjs\.js$/, 'botd.esm.js'), 'utf8');
}

/**
 * A dedicated worker's view of the browser (workers have a navigator of their own, which a
 * user-agent override must reach too).
 */
const WORKER_VIEW = `
const view = () => {
  const data = navigator.userAgentData;
  return {
    userAgent: navigator.userAgent,
    webdriver: navigator.webdriver,
    languages: [...navigator.languages],
    brands: data ? data.brands.map((b) => b.brand + '/' + b.version) : null,
    platform: data ? data.platform : null,
  };
};
`;
const WORKER = `${WORKER_VIEW}
self.onmessage = () => self.postMessage(view());
`;
const SHARED_WORKER = `${WORKER_VIEW}
self.onconnect = (event) => event.ports[0].postMessage(view());
`;

/**
 * The checks of the detectors' page, besides BotD: each reads what a detector would and says
 * whether it looks like a person's Chrome, consistent with itself.
 */
const CHECKS = `
const isNative = (fn) => typeof fn === 'function' && /\\{\\s*\\[native code\\]\\s*\\}$/.test(Function.prototype.toString.call(fn));
const glInfo = (kind) => {
  const gl = document.createElement('canvas').getContext(kind);
  if (!gl) return null;
  const info = gl.getExtension('WEBGL_debug_renderer_info');
  return {
    vendor: gl.getParameter(gl.VENDOR),
    renderer: gl.getParameter(gl.RENDERER),
    unmaskedVendor: info ? gl.getParameter(info.UNMASKED_VENDOR_WEBGL) : null,
    unmaskedRenderer: info ? gl.getParameter(info.UNMASKED_RENDERER_WEBGL) : null,
  };
};
const fromWorker = () => new Promise((resolve, reject) => {
  const worker = new Worker('/worker.js');
  worker.onmessage = (event) => { resolve(event.data); worker.terminate(); };
  worker.onerror = (event) => reject(new Error(event.message));
  worker.postMessage('go');
});
const fromSharedWorker = () => new Promise((resolve, reject) => {
  const worker = new SharedWorker('/shared-worker.js');
  worker.port.onmessage = (event) => resolve(event.data);
  worker.onerror = (event) => reject(new Error(event.message));
});
// A DevTools client that enabled Runtime reads a logged error's stack to preview it.
const runtimeProbe = () => new Promise((resolve) => {
  let read = false;
  const error = new Error('probe');
  Object.defineProperty(error, 'stack', { get() { read = true; return ''; } });
  console.debug(error);
  setTimeout(() => resolve(read), 50);
});

export async function runChecks() {
  const checks = {};
  const check = (name, ok, seen) => { checks[name] = { ok: Boolean(ok), seen }; };
  const ua = navigator.userAgent;
  const chromeVersion = (ua.match(/Chrome\\/([\\d.]+)/) || [])[1];

  const webdriver = Object.getOwnPropertyDescriptor(Navigator.prototype, 'webdriver');
  check('webdriver', navigator.webdriver === false && webdriver && isNative(webdriver.get), navigator.webdriver);
  check('user agent', !/headless/i.test(ua) && !/headless/i.test(navigator.appVersion) && Boolean(chromeVersion), ua);

  const data = navigator.userAgentData;
  const brands = data ? data.brands.map((b) => b.brand + '/' + b.version) : [];
  const high = data
    ? await data.getHighEntropyValues(['platform', 'platformVersion', 'architecture', 'bitness', 'uaFullVersion', 'fullVersionList'])
    : {};
  const fullList = (high.fullVersionList || []).map((b) => b.brand + '/' + b.version);
  const major = chromeVersion ? chromeVersion.split('.')[0] : '';
  check('user-agent client hints',
    data !== undefined &&
      brands.length > 0 &&
      !brands.some((b) => /headless/i.test(b)) &&
      brands.some((b) => /^(Google Chrome|Chromium)\\//.test(b) && b.endsWith('/' + major)) &&
      fullList.some((b) => /^(Google Chrome|Chromium)\\//.test(b) && b.endsWith('/' + high.uaFullVersion)) &&
      !fullList.some((b) => /headless/i.test(b)) &&
      String(high.uaFullVersion).startsWith(major + '.') &&
      data.mobile === false &&
      (data.platform === 'Linux') === /Linux/.test(ua),
    { brands, fullList, platform: data && data.platform, uaFullVersion: high.uaFullVersion });

  const plugins = navigator.plugins;
  const mimeTypes = navigator.mimeTypes;
  check('plugins',
    plugins instanceof PluginArray && plugins.length > 0 &&
      [...plugins].every((p) => p instanceof Plugin) &&
      mimeTypes instanceof MimeTypeArray && mimeTypes.length > 0 &&
      [...mimeTypes].every((m) => m instanceof MimeType && m.enabledPlugin instanceof Plugin),
    { plugins: [...plugins].map((p) => p.name), mimeTypes: [...mimeTypes].map((m) => m.type) });

  check('languages',
    navigator.languages.length > 0 && navigator.language === navigator.languages[0],
    { language: navigator.language, languages: [...navigator.languages] });

  const gl = glInfo('webgl');
  const gl2 = glInfo('webgl2');
  check('webgl',
    gl !== null && gl2 !== null &&
      gl.unmaskedVendor && gl.unmaskedRenderer &&
      !(gl.vendor === 'Brian Paul' && gl.renderer === 'Mesa OffScreen') &&
      gl.unmaskedRenderer === gl2.unmaskedRenderer && gl.unmaskedVendor === gl2.unmaskedVendor,
    { gl, gl2 });

  const query = await navigator.permissions.query({ name: 'notifications' });
  const expected = { default: 'prompt', denied: 'denied', granted: 'granted' }[Notification.permission];
  check('permissions', query.state === expected && isNative(navigator.permissions.query),
    { notification: Notification.permission, query: query.state });

  check('window.chrome',
    typeof window.chrome === 'object' && window.chrome !== null &&
      typeof window.chrome.loadTimes === 'function' && typeof window.chrome.csi === 'function' &&
      typeof window.chrome.app === 'object',
    window.chrome ? Object.keys(window.chrome) : null);

  check('window size',
    outerWidth >= innerWidth && outerHeight > innerHeight &&
      screen.width >= outerWidth && screen.height >= outerHeight &&
      screen.availWidth <= screen.width && screen.availHeight <= screen.height &&
      screen.availWidth > 0 && screen.availHeight > 0,
    { outer: [outerWidth, outerHeight], inner: [innerWidth, innerHeight],
      screen: [screen.width, screen.height], avail: [screen.availWidth, screen.availHeight] });

  const props = Object.getOwnPropertyNames(window).concat(Object.getOwnPropertyNames(document));
  const traces = props.filter((p) => /^(\\$?cdc_|\\$wdc_|__webdriver|__selenium|__playwright|__pw|__puppeteer|domAutomation)/.test(p));
  check('automation traces', traces.length === 0, traces);

  const sameAsPage = (worker) =>
    worker.userAgent === ua && worker.webdriver !== true &&
    JSON.stringify(worker.brands) === JSON.stringify(brands) &&
    JSON.stringify(worker.languages) === JSON.stringify([...navigator.languages]);
  const worker = await fromWorker();
  check('worker', sameAsPage(worker), worker);
  const shared = await fromSharedWorker();
  check('shared worker', sameAsPage(shared), shared);

  check('devtools runtime', (await runtimeProbe()) === false, null);
  return checks;
}
`;

/**
 * The page: BotD and the checks run as it loads; `window.detectorsDone` resolves to both.
 *
 * Chromium, with a window or without, tells a new document's renderer its window's size only
 * after the document has started (seen in 6 to 10 navigations in 60, headless and headful
 * alike): a script in the document's first moments can read a 0×0 window, which BotD calls
 * headless Chrome. The detectors run once the window is known, as a detector loaded with the page
 * does a moment later; a window still unknown after two seconds (a tab never shown) is measured
 * as it is.
 */
const PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>detectors</title></head>
<body><p>detectors</p>
<script type="module">
import { load } from '/botd.js';
import { runChecks } from '/checks.js';
const windowKnown = () => new Promise((resolve) => {
  const start = performance.now();
  const poll = () =>
    outerWidth > 0 || performance.now() - start > 2000 ? resolve() : setTimeout(poll, 5);
  poll();
});
window.detectorsDone = (async () => {
  await windowKnown();
  const detector = await load({ monitoring: false });
  const result = detector.detect();
  const fired = Object.entries(detector.getDetections() || {})
    .filter(([, detection]) => detection.bot)
    .map(([name, detection]) => name + ':' + detection.botKind);
  return { botd: { ...result, fired }, checks: await runChecks() };
})();
</script>
</body></html>`;

/** Starts the detectors' site on loopback (an ephemeral port of 127.0.0.1). */
export async function startDetectorSite(): Promise<DetectorSite> {
  const headers = new Map<string, IncomingHttpHeaders>();
  const files: Record<string, [string, string]> = {
    '/': ['text/html', PAGE],
    '/botd.js': ['text/javascript', botdModule()],
    '/checks.js': ['text/javascript', CHECKS],
    '/worker.js': ['text/javascript', WORKER],
    '/shared-worker.js': ['text/javascript', SHARED_WORKER],
  };
  const server: Server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://site').pathname;
    headers.set(path, request.headers);
    const file = files[path];
    if (!file) {
      response.writeHead(404).end();
      return;
    }
    // Chrome sends the high-entropy hints it is asked for: the site asks, as detectors do.
    response.writeHead(200, {
      'content-type': file[0],
      'accept-ch': 'Sec-CH-UA-Full-Version-List, Sec-CH-UA-Platform-Version, Sec-CH-UA-Arch',
    });
    response.end(file[1]);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    port,
    headers,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
