import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';

/**
 * A site with a login: `/login` sets a persistent cookie, local storage and an IndexedDB record;
 * `/` says who the cookie names.
 */
export function useLoginSite() {
  const site = { url: '', requests: [] as string[] };
  const page = `<script>
    localStorage.setItem('user', 'ada');
    const open = indexedDB.open('shop', 1);
    open.onupgradeneeded = () => open.result.createObjectStore('cart');
    open.onsuccess = () => {
      const write = open.result.transaction('cart', 'readwrite');
      write.objectStore('cart').put('3 apples', 'items');
      write.oncomplete = () => { document.title = 'logged in'; };
    };
  </script>`;
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    site.requests.push(request.url ?? '');
    if (request.url === '/login') {
      response.setHeader('set-cookie', 'sid=ada-42; Max-Age=86400; Path=/; HttpOnly');
      response.setHeader('content-type', 'text/html');
      response.end(page);
      return;
    }
    const sid = /sid=([^;]+)/.exec(request.headers.cookie ?? '')?.[1];
    response.setHeader('content-type', 'text/html');
    response.end(`<title>${sid ? `welcome ${sid}` : 'please log in'}</title>`);
  });
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    site.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(
    () =>
      new Promise<void>((resolve) => {
        // Browsers keep connections alive: they are cut, so closing never waits on them.
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return site;
}

/** What a browser shows on the site: the title the server gave, and its local storage and IndexedDB. */
export async function stateOf(cdpUrl: string, siteUrl: string) {
  const browser = await chromium.connectOverCDP(cdpUrl);
  try {
    const page = browser.contexts()[0]?.pages()[0];
    if (!page) throw new Error('no page');
    await page.goto(`${siteUrl}/`);
    const storage = await page.evaluate(async () => {
      const user = localStorage.getItem('user');
      const known = await indexedDB.databases();
      if (!known.some((database) => database.name === 'shop')) return { user, cart: null };
      const database = await new Promise<IDBDatabase>((resolve) => {
        const open = indexedDB.open('shop');
        open.onsuccess = () => resolve(open.result);
      });
      const cart = await new Promise<unknown>((resolve) => {
        const read = database.transaction('cart').objectStore('cart').get('items');
        read.onsuccess = () => resolve(read.result);
      });
      return { user, cart };
    });
    return { title: await page.title(), ...storage };
  } finally {
    await browser.close();
  }
}

/** Logs in on the site in the browser at `cdpUrl`. */
export async function logIn(cdpUrl: string, siteUrl: string): Promise<void> {
  const browser = await chromium.connectOverCDP(cdpUrl);
  try {
    const page = browser.contexts()[0]?.pages()[0];
    await page?.goto(`${siteUrl}/login`);
    await page?.waitForFunction(() => document.title === 'logged in', undefined, {
      timeout: 10_000,
    });
  } finally {
    await browser.close();
  }
}
