import type { CurlCall, CurlOutcome } from '@x/service-kernel';
import type { CdpConnection } from './cdp-connection.js';

/** A request paused by the Fetch domain, at its request or its response stage. */
interface PausedRequest {
  readonly requestId: string;
  /** The Network domain's id of the same request. */
  readonly networkId?: string;
  readonly request: { readonly url: string; readonly headers: Record<string, string> };
  readonly responseStatusCode?: number;
  readonly responseErrorReason?: string;
  readonly responseHeaders?: readonly { readonly name: string; readonly value: string }[];
}

/** Bytes asked of Chromium per read of a response body. */
const READ_BYTES = 256 * 1024;

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** How long an answer waits for its raw headers (Set-Cookie) once its body is read, in ms. */
const RAW_HEADERS_WAIT_MS = 250;

/**
 * Makes one HTTP request with the browser's own network stack: a hidden tab of the session's
 * own browser context (so its cookie jar, proxy, egress policy, user agent, TLS) navigates to the
 * URL, its request shaped on the way out with the Fetch domain (method, headers, body); the
 * answer is taken at its response stage (status, headers, the body read as a stream, at most
 * `maxBodyBytes`) and the navigation is then stopped, so nothing of it runs in a page.
 * Cookies the answer sets are kept by the browser, as for any answer it receives. Redirects are
 * followed by the browser. The tab is closed whatever happens.
 */
export async function curlThroughBrowser(
  cdp: CdpConnection,
  openTab: () => Promise<{ targetId: string; session: string }>,
  closeTab: (targetId: string) => Promise<void>,
  call: CurlCall,
  signal: AbortSignal,
): Promise<CurlOutcome> {
  const { targetId, session } = await openTab();
  const stops: (() => void)[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const outcome = new Promise<CurlOutcome>((resolve, reject) => {
      timer = setTimeout(() => resolve({ kind: 'timedOut' }), call.timeoutMs);
      const onAbort = () => resolve({ kind: 'failed', reason: 'the caller went away' });
      signal.addEventListener('abort', onAbort, { once: true });
      stops.push(() => signal.removeEventListener('abort', onAbort));
      let isShaped = false;
      // The raw headers of each answer, by the Network domain's request id: the Fetch domain's
      // leave out Set-Cookie.
      const rawHeaders = new Map<string, Record<string, string>>();
      let onRaw = () => {};
      stops.push(
        cdp.on('Network.responseReceivedExtraInfo', (params, sessionId) => {
          if (sessionId !== session) return;
          const extra = params as { requestId: string; headers: Record<string, string> };
          rawHeaders.set(extra.requestId, extra.headers);
          onRaw();
        }),
      );
      /** The raw headers of a request, waiting a moment for them when they are not there yet. */
      const rawOf = async (id: string) => {
        if (!rawHeaders.has(id))
          await new Promise<void>((done) => {
            const wait = setTimeout(done, RAW_HEADERS_WAIT_MS);
            onRaw = () => {
              if (!rawHeaders.has(id)) return;
              clearTimeout(wait);
              done();
            };
          });
        return rawHeaders.get(id) ?? {};
      };
      stops.push(
        cdp.on('Fetch.requestPaused', (params, sessionId) => {
          if (sessionId !== session) return;
          const paused = params as PausedRequest;
          const go = (method: string, extra: Record<string, unknown> = {}) =>
            cdp
              .send(method, { requestId: paused.requestId, ...extra }, session)
              // The tab closed meanwhile: the navigation's error or the time-out tells the caller.
              .catch(() => undefined);
          if (paused.responseStatusCode === undefined && paused.responseErrorReason === undefined) {
            // The request on its way out: the first one is the caller's (redirects go as the
            // browser sends them, without the caller's headers, as fetch would for another host).
            if (isShaped) return void go('Fetch.continueRequest');
            isShaped = true;
            void go('Fetch.continueRequest', shaped(paused.request.headers, call));
            return;
          }
          if (paused.responseErrorReason !== undefined) {
            resolve({ kind: 'failed', reason: `net::ERR_${paused.responseErrorReason}` });
            return;
          }
          const status = paused.responseStatusCode as number;
          const headers: (readonly [string, string])[] = (paused.responseHeaders ?? []).map(
            ({ name, value }) => [name, value] as const,
          );
          if (REDIRECTS.has(status) && headers.some(([name]) => name.toLowerCase() === 'location'))
            return void go('Fetch.continueRequest');
          readBody(cdp, session, paused.requestId, call.maxBodyBytes).then(async (body) => {
            void go('Fetch.failRequest', { errorReason: 'Aborted' });
            if (body === 'tooLarge') return resolve({ kind: 'tooLarge' });
            const raw = await rawOf(paused.networkId ?? paused.requestId);
            for (const [name, value] of Object.entries(raw)) {
              if (name.toLowerCase() !== 'set-cookie') continue;
              for (const line of value.split('\n')) headers.push([name, line] as const);
            }
            resolve({ kind: 'response', status, headers, body });
          }, reject);
        }),
      );
      cdp
        .send('Network.enable', {}, session)
        .then(() =>
          cdp.send(
            'Fetch.enable',
            { patterns: [{ requestStage: 'Request' }, { requestStage: 'Response' }] },
            session,
          ),
        )
        .then(() => cdp.send<{ errorText?: string }>('Page.navigate', { url: call.url }, session))
        .then(({ errorText }) => {
          // A navigation that failed before any answer: the network's reason (an answer read
          // first has resolved already, and its own stop comes back as ERR_ABORTED).
          if (errorText) resolve({ kind: 'failed', reason: errorText });
        }, reject);
    });
    return await outcome;
  } finally {
    clearTimeout(timer);
    for (const stop of stops) stop();
    await closeTab(targetId);
  }
}

/** The caller's request over the browser's own: method, headers (the caller's win), body. */
function shaped(browserHeaders: Record<string, string>, call: CurlCall): Record<string, unknown> {
  const headers = new Map<string, { name: string; value: string }>();
  for (const [name, value] of Object.entries(browserHeaders))
    headers.set(name.toLowerCase(), { name, value });
  for (const [name, value] of Object.entries(call.headers))
    headers.set(name.toLowerCase(), { name, value });
  // A navigation asks for a page; a caller who says nothing takes anything.
  if (
    call.headers.accept === undefined &&
    !Object.keys(call.headers).some((name) => name.toLowerCase() === 'accept')
  )
    headers.set('accept', { name: 'Accept', value: '*/*' });
  return {
    method: call.method,
    headers: [...headers.values()],
    ...(call.body === undefined ? {} : { postData: Buffer.from(call.body).toString('base64') }),
  };
}

/** The body of a paused answer, read as a stream: at most `max` bytes, else `tooLarge`. */
async function readBody(
  cdp: CdpConnection,
  session: string,
  requestId: string,
  max: number,
): Promise<Uint8Array | 'tooLarge'> {
  const { stream } = await cdp.send<{ stream: string }>(
    'Fetch.takeResponseBodyAsStream',
    { requestId },
    session,
  );
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for (;;) {
      const read = await cdp.send<{ data: string; base64Encoded?: boolean; eof: boolean }>(
        'IO.read',
        { handle: stream, size: READ_BYTES },
        session,
      );
      const chunk = Buffer.from(read.data, read.base64Encoded ? 'base64' : 'utf8');
      size += chunk.byteLength;
      if (size > max) return 'tooLarge';
      chunks.push(chunk);
      if (read.eof) break;
    }
  } finally {
    // Best effort: the stream is let go of with its tab, which is closed whatever happens.
    await cdp.send('IO.close', { handle: stream }, session).catch(() => undefined);
  }
  return new Uint8Array(Buffer.concat(chunks, size));
}
