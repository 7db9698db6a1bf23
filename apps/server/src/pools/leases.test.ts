import type { BrowserSession } from '@x/types';
import { describe, expect, it } from 'vitest';
import { attachToPage, type CdpSocket, connectCdp } from '../test-support/cdp-socket.js';
import { jsonCaller, shellRunner, useSite, useTestServer } from '../test-support/servers.js';

const test = useTestServer({ XB_MAX_BROWSERS: '4' });
const site = useSite();
const otherSite = useSite();

/** How many leases follow each other through one pool. */
const LEASES = 50;

const call = jsonCaller(() => test.server.url);
const exec = shellRunner(() => test.server.url);

async function evaluate<T>(cdp: CdpSocket, session: string, expression: string): Promise<T> {
  const { result } = await cdp.send<{ result: { value: T } }>(
    'Runtime.evaluate',
    { expression, awaitPromise: true, returnByValue: true },
    session,
  );
  return result.value;
}

/** Opens `url` in a new tab; resolves to the tab's session once it has loaded. */
async function openTab(cdp: CdpSocket, url: string, browserContextId?: string): Promise<string> {
  const { targetId } = await cdp.send<{ targetId: string }>('Target.createTarget', {
    url,
    ...(browserContextId ? { browserContextId } : {}),
  });
  const { sessionId } = await cdp.send<{ sessionId: string }>('Target.attachToTarget', {
    targetId,
    flatten: true,
  });
  await waitForLoad(cdp, sessionId, url);
  return sessionId;
}

async function waitForLoad(cdp: CdpSocket, session: string, url: string): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const state = await evaluate<string>(
      cdp,
      session,
      `location.href === ${JSON.stringify(url)} ? document.readyState : 'elsewhere'`,
    ).catch(() => 'not yet');
    if (state === 'complete') return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`${url} did not load`);
}

/** Everything a page of an origin keeps: cookies, localStorage, IndexedDB databases. */
const STORAGE = `(async () => ({
  cookie: document.cookie,
  local: localStorage.length,
  databases: (await indexedDB.databases()).map((database) => database.name),
}))()`;

/** Leaves state of every kind behind in a page of an origin. */
const LEAVE_STORAGE = (lease: number) => `(async () => {
  document.cookie = 'lease=${lease}; max-age=3600';
  localStorage.setItem('lease', '${lease}');
  await new Promise((resolve, reject) => {
    const opening = indexedDB.open('lease-db');
    opening.onupgradeneeded = () => opening.result.createObjectStore('leases');
    opening.onsuccess = () => {
      const write = opening.result.transaction('leases', 'readwrite');
      write.objectStore('leases').put(${lease}, 'lease');
      write.oncomplete = () => { opening.result.close(); resolve(true); };
      write.onerror = () => reject(write.error);
    };
    opening.onerror = () => reject(opening.error);
  });
  return true;
})()`;

/** `promise`, or a failure saying `message` after `ms`. */
function within<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

describe('pool leases', () => {
  it(`are new sessions: ${LEASES} leases in a row each see nothing of the one before`, async () => {
    await call('POST', '/browser_pools', { name: 'leases', size: 2, fill_rate_per_minute: 100 });
    const seen = new Set<string>();
    let previous: { session: BrowserSession; socket: CdpSocket; processId: string } | undefined;
    for (let lease = 1; lease <= LEASES; lease++) {
      const { status, json: session } = await call<BrowserSession>(
        'POST',
        '/browser_pools/leases/acquire',
        { acquire_timeout_seconds: 60 },
      );
      expect(status, `lease ${lease}`).toBe(200);
      expect(seen.has(session.session_id), `lease ${lease} got an earlier session`).toBe(false);
      seen.add(session.session_id);

      if (previous) {
        // The lease before: its connection was closed, its URL and processes are gone.
        await within(previous.socket.closed, 10_000, `lease ${lease - 1}'s connection stays open`);
        await expect(connectCdp(previous.session.cdp_ws_url)).rejects.toThrow();
        const status = await call(
          'GET',
          `/browsers/${previous.session.session_id}/process/${previous.processId}/status`,
        );
        expect(status.status).toBe(404);
      }

      const cdp = await connectCdp(session.cdp_ws_url);
      const { targetInfos } = await cdp.send<{ targetInfos: { type: string }[] }>(
        'Target.getTargets',
      );
      expect(
        targetInfos.filter((target) => target.type === 'page'),
        `lease ${lease} tabs`,
      ).toHaveLength(1);
      const { browserContextIds } = await cdp.send<{ browserContextIds: string[] }>(
        'Target.getBrowserContexts',
      );
      expect(browserContextIds, `lease ${lease} contexts`).toEqual([]);
      const page = await attachToPage(cdp);
      await cdp.send('Page.navigate', { url: site.url }, page);
      await waitForLoad(cdp, page, site.url);
      const empty = { cookie: '', local: 0, databases: [] };
      expect(await evaluate(cdp, page, STORAGE), `lease ${lease} storage`).toEqual(empty);
      const tab = await openTab(cdp, otherSite.url);
      expect(await evaluate(cdp, tab, STORAGE), `lease ${lease} other origin`).toEqual(empty);
      expect(
        (
          await exec(
            session.session_id,
            'ls -A /home/browser/Downloads; ls -A /home/browser | grep -c marker',
          )
        ).stdout,
      ).toBe('0\n');

      // This lease leaves everything behind: storage in two origins, an extra tab and context,
      // a file, a download, a running process, and its connection open.
      expect(await evaluate(cdp, page, LEAVE_STORAGE(lease))).toBe(true);
      expect(await evaluate(cdp, tab, LEAVE_STORAGE(lease))).toBe(true);
      const { browserContextId } = await cdp.send<{ browserContextId: string }>(
        'Target.createBrowserContext',
      );
      await openTab(cdp, site.url, browserContextId);
      await evaluate(
        cdp,
        page,
        `(() => { const a = document.createElement('a'); a.href = 'data:text/plain,${lease}';
          a.download = 'lease.txt'; document.body.append(a); a.click(); return true; })()`,
      );
      await exec(session.session_id, `echo ${lease} > /home/browser/marker-${lease}`);
      const { json: spawned } = await call<{ process_id: string }>(
        'POST',
        `/browsers/${session.session_id}/process/spawn`,
        { command: 'sleep', args: ['600'] },
      );

      expect(
        (
          await call('POST', '/browser_pools/leases/release', {
            session_id: session.session_id,
            reuse: true,
          })
        ).status,
      ).toBe(204);
      previous = { session, socket: cdp, processId: spawned.process_id };
    }
    if (previous) await within(previous.socket.closed, 10_000, 'the last connection stays open');
    await call('DELETE', '/browser_pools/leases?force=true');
  }, 300_000);
});
