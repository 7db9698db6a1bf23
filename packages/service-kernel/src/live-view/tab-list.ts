import type { BrowserInstance, BrowserTab, Navigation } from '../engines.js';
import { ServiceError } from '../service-error.js';

/** Longest address a person may send a tab to. */
export const MAX_ADDRESS_CHARS = 8192;

/**
 * The address a person typed into the live view's address bar, as a tab may be sent to it:
 * http and https (a bare host gets https), and about:blank. Anything else (javascript:, file:,
 * chrome: pages, data:) is refused: the live view drives pages, not the browser itself.
 */
export function navigableUrl(typed: string): string {
  const text = typed.trim();
  if (text === 'about:blank') return text;
  if (text === '' || text.length > MAX_ADDRESS_CHARS) {
    throw new ServiceError('bad_request', 'The address is empty or too long.');
  }
  const withScheme = /^[a-z][a-z0-9+.-]*:/i.test(text) ? text : `https://${text}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw new ServiceError('bad_request', `Not an address: ${text.slice(0, 200)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ServiceError(
      'bad_request',
      `Only http and https addresses open from the live view, not ${url.protocol}`,
    );
  }
  return url.href;
}

interface Tab {
  readonly id: string;
  /** Addresses it visited, and where in them it is. */
  history: string[];
  at: number;
  title: string;
}

/**
 * A browser's tabs kept in memory, with each tab's history: the tabs of the engines that have no
 * real browser (the fake, the kernel's tests). A page's title is its address's host.
 */
export class TabList {
  readonly #tabs: Tab[] = [];
  #active = 0;
  #made = 0;
  readonly #listeners = new Set<() => void>();

  constructor(url = 'about:blank') {
    this.#tabs.push(this.#tab(url));
  }

  #tab(url: string): Tab {
    this.#made += 1;
    return { id: `tab_${this.#made}`, history: [url], at: 0, title: titleOf(url) };
  }

  #changed(): void {
    for (const listener of this.#listeners) listener();
  }

  list(): readonly BrowserTab[] {
    return this.#tabs.map((tab, index) => ({
      id: tab.id,
      url: tab.history[tab.at] ?? 'about:blank',
      title: tab.title,
      isActive: index === this.#active,
    }));
  }

  onChanged(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  navigate(navigation: Navigation): void {
    const tab = this.#tabs[this.#active];
    if (!tab) return;
    if ('url' in navigation) {
      tab.history = [...tab.history.slice(0, tab.at + 1), navigableUrl(navigation.url)];
      tab.at = tab.history.length - 1;
    } else if (navigation.action === 'back') {
      tab.at = Math.max(0, tab.at - 1);
    } else if (navigation.action === 'forward') {
      tab.at = Math.min(tab.history.length - 1, tab.at + 1);
    }
    tab.title = titleOf(tab.history[tab.at] ?? '');
    this.#changed();
  }

  activate(tabId: string): void {
    const index = this.#tabs.findIndex((tab) => tab.id === tabId);
    if (index === -1) throw new ServiceError('not_found', `No tab ${tabId}.`);
    this.#active = index;
    this.#changed();
  }

  open(url: string): void {
    this.#tabs.push(this.#tab(navigableUrl(url)));
    this.#active = this.#tabs.length - 1;
    this.#changed();
  }

  close(tabId: string): void {
    const index = this.#tabs.findIndex((tab) => tab.id === tabId);
    if (index === -1) throw new ServiceError('not_found', `No tab ${tabId}.`);
    if (index === 0) throw new ServiceError('conflict', "The session's first tab stays open.");
    this.#tabs.splice(index, 1);
    if (this.#active >= index) this.#active = Math.max(0, this.#active - 1);
    this.#changed();
  }
}

function titleOf(url: string): string {
  try {
    return new URL(url).host || url;
  } catch {
    return url;
  }
}

/**
 * The tab methods of a browser instance without a real browser (the fake's, the kernel tests'):
 * its tabs kept in a TabList, and whether its DevTools clients' input is held, as a flag.
 */
export class InMemoryTabs
  implements
    Pick<
      BrowserInstance,
      | 'tabs'
      | 'onTabsChanged'
      | 'navigate'
      | 'activateTab'
      | 'openTab'
      | 'closeTab'
      | 'holdClientInput'
    >
{
  /** Its tabs, each with its history. */
  readonly tabList = new TabList();
  /** Whether its DevTools clients' input is held now (a person holds the session's control). */
  isClientInputHeld = false;
  tabs(): readonly BrowserTab[] {
    return this.tabList.list();
  }
  onTabsChanged(listener: () => void): () => void {
    return this.tabList.onChanged(listener);
  }
  async navigate(navigation: Navigation): Promise<void> {
    this.tabList.navigate(navigation);
  }
  async activateTab(tabId: string): Promise<void> {
    this.tabList.activate(tabId);
  }
  async openTab(url: string): Promise<void> {
    this.tabList.open(url);
  }
  async closeTab(tabId: string): Promise<void> {
    this.tabList.close(tabId);
  }
  holdClientInput(isHeld: boolean): void {
    this.isClientInputHeld = isHeld;
  }
}
