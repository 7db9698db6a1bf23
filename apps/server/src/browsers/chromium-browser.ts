import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import {
  type BrowserTab,
  type CurlCall,
  type CurlOutcome,
  type KeyInput,
  type MouseInput,
  type Navigation,
  navigableUrl,
  type Region,
  type ScreenFrame,
  type ScreenSize,
  type ScreenStream,
  ServiceError,
  type TelemetryEventInput,
  type WheelInput,
} from '@x/service-kernel';
import type { TelemetryCategory } from '@x/types';
import { endSandbox } from '../sandbox/bubblewrap.js';
import { curlThroughBrowser } from './browser-curl.js';
import type { CdpChannel, CdpConnection, ChannelClient } from './cdp-connection.js';
import { type ChromiumOptions, type StartedChromium, startChromium } from './chromium.js';
import { loadUnpackedExtension, uninstallExtension } from './extension-loading.js';
import { HeldUntilHeard } from './held-until-heard.js';
import { PageInput } from './page-input.js';
import { PageMonitor } from './page-monitor.js';
import { setProxyThrough } from './proxy-setting.js';
import { ScreenCapture } from './screen-capture.js';
import { Stealth, stealthUserAgent as stealthUserAgentOf } from './stealth.js';
import { attachNewPage, closeOwnTab, fitWindow, openOwnTab } from './tab-setup.js';
import { startVirtualDisplay, type VirtualDisplay } from './virtual-display.js';

/** A DevTools target as `Target.*` events describe it. */
interface TargetInfo {
  readonly targetId: string;
  readonly type: string;
  readonly url: string;
  readonly title: string;
}

/**
 * One real Chromium and the page the API drives: typing and screenshots go to that page over
 * DevTools. Playwright or Puppeteer connected through the server's CDP proxy see the same page.
 */
export class ChromiumBrowser {
  /** bubblewrap's process: its group holds the browser and everything it started. */
  readonly process: ChildProcess;
  readonly #cdp: CdpConnection;
  #pageSession: string;
  /** Its tabs, oldest first: the newest still open is the one the session is on. */
  readonly #tabs: { readonly targetId: string; readonly session: string }[] = [];
  /** Tabs the server opens for itself (curl's): never followed, never the session's. */
  readonly #ownTabs = new Set<string>();
  /** Each page tab's address and title, as DevTools reports them, by target id (oldest first). */
  readonly #tabInfo = new Map<string, { url: string; title: string }>();
  /** The tab it started with: the session's own, which stays (input goes there when no other is). */
  readonly #firstTab: string;
  /** Who hears the tabs change (the live view). */
  readonly #tabListeners = new Set<() => void>();
  /** The screen of the front tab, shared by the live view and the recorder. */
  readonly #capture: ScreenCapture;
  #viewport: { width: number; height: number };
  /** The id of the extension that sets its proxy while it runs, once loaded. */
  #proxyControl: string | undefined;
  /** Whether its window size was changed since launch: then every tab it opens is sized too. */
  #isResized = false;
  /** Input to the tab in front: keys, the mouse, the clipboard, the cursor. */
  readonly #input: PageInput;
  /** The Xvfb display of a headed browser, closed with it. */
  readonly #display: VirtualDisplay | undefined;
  /** The telemetry its pages give (console, network, page), held until the session listens. */
  readonly telemetry = new HeldUntilHeard<TelemetryEventInput>(256);
  #monitor: PageMonitor | undefined;
  /** What keeps its targets stealthy, when it was started so (see stealth.ts). */
  #stealth: Stealth | undefined;

  private constructor(
    started: StartedChromium,
    page: { targetId: string; session: string },
    viewport: { width: number; height: number },
    display: VirtualDisplay | undefined,
  ) {
    this.#display = display;
    this.process = started.process;
    this.#cdp = started.cdp;
    this.#pageSession = page.session;
    this.#tabs.push(page);
    this.#firstTab = page.targetId;
    this.#capture = new ScreenCapture(started.cdp, page.session);
    this.#input = new PageInput(started.cdp, () => this.#pageSession);
    this.#viewport = viewport;
  }

  /**
   * Starts Chromium in its sandbox (a headed one on an Xvfb display of its own, in the same
   * sandbox), attaches to its first page and sets the viewport and downloads folder.
   */
  static async launch(
    options: ChromiumOptions & {
      xvfbPath?: string | undefined;
      /** The telemetry categories the session captures: the pages' own are watched. */
      telemetry?: readonly TelemetryCategory[] | undefined;
      /** Hears the end of each step of the start, by name (for the start's timing). */
      phase?: ((name: string) => void) | undefined;
      /** Whether it hides that it is automated (see stealth.ts). */
      isStealthy?: boolean | undefined;
    },
  ): Promise<ChromiumBrowser> {
    const phase = options.phase ?? (() => undefined);
    let display: VirtualDisplay | undefined;
    if (!options.isHeadless && options.xvfbPath) {
      if (!options.sandbox) throw new Error('A headed browser runs in a sandbox only.');
      display = await startVirtualDisplay(options.xvfbPath, options.viewport, {
        bubblewrap: options.sandbox.bubblewrap,
        home: options.instance.root,
        user: options.sandbox.user,
        cgroup: options.sandbox.cgroup,
        network: options.network?.join,
      });
      phase('display');
    }
    let started: StartedChromium;
    let stealthUserAgent: string | undefined;
    try {
      if (options.isStealthy) stealthUserAgent = await stealthUserAgentOf(options.chromePath);
      started = await startChromium({
        ...options,
        stealthUserAgent,
        display: display && { name: display.display, xauthority: display.xauthority },
      });
    } catch (error) {
      await display?.close();
      throw error;
    }
    phase('chromium');
    let stealth: Stealth | undefined;
    try {
      const { cdp } = started;
      // Before the first page is touched: from here on no target runs a script before it is
      // given the override.
      if (stealthUserAgent) {
        stealth = await Stealth.start(cdp, started.version, stealthUserAgent);
        phase('stealth');
      }
      const { targetInfos } = await cdp.send<{ targetInfos: { targetId: string; type: string }[] }>(
        'Target.getTargets',
      );
      const page = targetInfos.find((target) => target.type === 'page');
      const first = await attachNewPage(cdp, options.viewport, page?.targetId);
      await fitWindow(cdp, first, options.viewport);
      phase('first_page');
      await cdp.send('Browser.setDownloadBehavior', {
        behavior: 'allow',
        downloadPath: started.downloadsPath,
        eventsEnabled: true,
      });
      const browser = new ChromiumBrowser(started, first, { ...options.viewport }, display);
      browser.#stealth = stealth;
      await browser.#followTabs();
      const monitor = new PageMonitor(
        cdp,
        options.telemetry ?? [],
        (targetId) => browser.#ownTabs.has(targetId),
        (event) => browser.telemetry.give(event),
      );
      if (monitor.isNeeded) {
        browser.#monitor = monitor;
        await monitor.start();
      }
      phase('devtools');
      return browser;
    } catch (error) {
      stealth?.stop();
      started.cdp.close();
      await endSandbox(started.process);
      await display?.close();
      throw error;
    }
  }

  /**
   * A DevTools channel of its own for a client of the CDP proxy: it drives this browser through
   * the one pipe, and sees only the sessions it attaches.
   */
  openChannel(client: ChannelClient): Promise<CdpChannel> {
    return this.#cdp.openChannel(client);
  }

  /** Whether Chromium still runs. */
  get isRunning(): boolean {
    return (
      this.process.exitCode === null && this.process.signalCode === null && !this.#cdp.isClosed
    );
  }

  /** Types text as a person would, a key down and up for every character (`PageInput`). */
  type(text: string): Promise<void> {
    return this.#input.type(text);
  }

  /** Types as `type` does while the tab in front stays and its page is allowed (`PageInput`). */
  typeWhere(text: string, isAllowedUrl: (url: string) => boolean): Promise<boolean> {
    return this.#input.typeWhere(text, isAllowedUrl);
  }

  /** One mouse event, as the page's own mouse would send it. */
  mouse(event: MouseInput): Promise<void> {
    return this.#input.mouse(event);
  }

  /** One turn of the wheel. */
  wheel(event: WheelInput): Promise<void> {
    return this.#input.wheel(event);
  }

  /** One key going down or up, with the modifiers held (a shortcut types no text). */
  key(event: KeyInput): Promise<void> {
    return this.#input.key(event);
  }

  /** Hides or shows the mouse cursor over pages, now and in every page loaded next. */
  setCursorHidden(hidden: boolean): Promise<void> {
    return this.#input.setCursorHidden(hidden);
  }

  /** Puts text on the browser's clipboard as a copy in the page would. */
  writeClipboard(text: string): Promise<void> {
    return this.#input.writeClipboard(text);
  }

  /** The text on the browser's clipboard, read as a paste the page never sees. */
  readClipboard(): Promise<string> {
    return this.#input.readClipboard();
  }

  /** A PNG of the viewport, or of a region of the page. */
  async screenshot(region: Region | undefined): Promise<Uint8Array> {
    const clip = region ?? { x: 0, y: 0, ...this.#viewport };
    const { data } = await this.#cdp.send<{ data: string }>(
      'Page.captureScreenshot',
      { format: 'png', clip: { ...clip, scale: 1 }, captureBeyondViewport: region !== undefined },
      this.#pageSession,
    );
    return Uint8Array.from(Buffer.from(data, 'base64'));
  }

  /**
   * Gives the browser a new window size: every tab it shows lays its pages out at it at once (as
   * `innerWidth` reports), and so does every tab it opens from now on. Screenshots and the screen
   * follow.
   */
  async setViewport(viewport: { readonly width: number; readonly height: number }): Promise<void> {
    this.#viewport = { width: viewport.width, height: viewport.height };
    this.#isResized = true;
    await Promise.all(
      this.#tabs.map((tab) =>
        // A tab that closed meanwhile has nothing to lay out.
        this.#sizeTab(tab.session).catch(() => undefined),
      ),
    );
  }

  /** Loads an unpacked extension into the running browser; gives its id (`extension-loading.ts`). */
  loadExtension(folder: string): Promise<string> {
    return loadUnpackedExtension(this.#cdp, folder);
  }

  /**
   * Changes where new connections go while the browser runs: through `proxy` (a relay's
   * `--proxy-server` and bypass list) or direct, set by the proxy control extension in
   * `controlFolder` (loaded once; see `proxy-setting.ts`).
   */
  async setProxy(
    controlFolder: string,
    proxy: { readonly server: string; readonly bypassList: string } | undefined,
  ): Promise<void> {
    this.#proxyControl ??= await this.loadExtension(controlFolder);
    await setProxyThrough(this.#cdp, this.#proxyControl, proxy, {
      open: (url) => this.#openOwnTab(url),
      close: (targetId) => this.#closeOwnTab(targetId),
    });
  }

  /** Unloads an extension it loaded; one already gone is fine. */
  unloadExtension(extensionId: string): Promise<void> {
    return uninstallExtension(this.#cdp, extensionId);
  }

  #sizeTab(session: string): Promise<unknown> {
    return this.#cdp.send(
      'Emulation.setDeviceMetricsOverride',
      { ...this.#viewport, deviceScaleFactor: 1, mobile: false },
      session,
    );
  }

  /** The page as it looks now, as a JPEG: a recording's frames while the page animates. */
  async jpeg(): Promise<Buffer> {
    const { data } = await this.#cdp.send<{ data: string }>(
      'Page.captureScreenshot',
      { format: 'jpeg', quality: 75, optimizeForSpeed: true },
      this.#pageSession,
    );
    return Buffer.from(data, 'base64');
  }

  /**
   * Streams the screen of the tab the session is on (see ScreenCapture): one screencast for every
   * consumer, the live view's and the recorder's.
   */
  streamScreen(size: ScreenSize, onFrame: (frame: ScreenFrame) => void): Promise<ScreenStream> {
    return this.#capture.subscribe(size, onFrame);
  }

  /** Its viewport, in CSS pixels. */
  get viewport(): { readonly width: number; readonly height: number } {
    return this.#viewport;
  }

  /** Consumers of the screen now (0: no screencast runs), and frames Chromium sent so far. */
  get screen(): { readonly consumers: number; readonly frames: number } {
    return { consumers: this.#capture.subscriberCount, frames: this.#capture.framesReceived };
  }

  /**
   * Follows the tabs: a tab opened (by a page, or by a client over CDP) becomes the one the
   * session is on, for input, screenshots and the screen, until it closes; then the one before.
   */
  async #followTabs(): Promise<void> {
    const cdp = this.#cdp;
    cdp.on('Target.targetCreated', (params) => {
      const { targetInfo } = params as { targetInfo: TargetInfo };
      if (targetInfo.type !== 'page' || this.#ownTabs.has(targetInfo.targetId)) return;
      this.#noteTab(targetInfo);
      if (this.#tabs.some((tab) => tab.targetId === targetInfo.targetId)) return;
      void this.#adoptTab(targetInfo.targetId);
    });
    cdp.on('Target.targetInfoChanged', (params) => {
      const { targetInfo } = params as { targetInfo: TargetInfo };
      if (targetInfo.type === 'page' && !this.#ownTabs.has(targetInfo.targetId)) {
        this.#noteTab(targetInfo);
      }
    });
    // A page's title comes with its document, after the target says it navigated: read again then.
    for (const event of ['Page.frameNavigated', 'Page.domContentEventFired', 'Page.loadEventFired'])
      cdp.on(event, (params, sessionId) => {
        const tab = this.#tabs.find((each) => each.session === sessionId);
        if (!tab) return;
        // The page itself navigated or loaded (an iframe's navigation is not counted): what the
        // screen shows may have been drawn by another renderer meanwhile.
        const isIframe =
          (params as { frame?: { parentId?: string } }).frame?.parentId !== undefined;
        if (sessionId === this.#pageSession && !isIframe) this.#capture.settle();
        void this.#cdp
          .send<{ targetInfo: TargetInfo }>('Target.getTargetInfo', { targetId: tab.targetId })
          .then(({ targetInfo }) => this.#noteTab(targetInfo))
          .catch(() => undefined); // It closed meanwhile.
      });
    cdp.on('Target.targetDestroyed', (params) => {
      const { targetId } = params as { targetId: string };
      this.#tabInfo.delete(targetId);
      const index = this.#tabs.findIndex((tab) => tab.targetId === targetId);
      // The first tab stays the session's own: the API's input goes to it when no other is open.
      if (index === -1 || targetId === this.#firstTab) return;
      this.#tabs.splice(index, 1);
      this.#frontChanged();
      this.#tabsChanged();
    });
    await cdp.send('Target.setDiscoverTargets', { discover: true });
  }

  async #adoptTab(targetId: string): Promise<void> {
    try {
      const { sessionId } = await this.#cdp.send<{ sessionId: string }>('Target.attachToTarget', {
        targetId,
        flatten: true,
      });
      await this.#cdp.send('Page.enable', {}, sessionId);
      // It is the tab in front (see `#frontChanged`) before its page has focus: a page never
      // has focus in a tab that is not shown, whose window has no size yet (outerWidth 0), a
      // state no person's browser is in and bot detectors look for.
      if (!this.#ownTabs.has(targetId)) await this.#cdp.send('Page.bringToFront', {}, sessionId);
      await this.#cdp.send('Emulation.setFocusEmulationEnabled', { enabled: true }, sessionId);
      // A new tab lays out at the window's size, the viewport the browser started with (see
      // `fitWindow`); after a resize it takes the new one.
      if (this.#isResized) await this.#sizeTab(sessionId);
      // One the server opened for itself meanwhile stays its own.
      if (this.#ownTabs.has(targetId)) {
        // A tab closed meanwhile has no session left to detach.
        await this.#cdp.send('Target.detachFromTarget', { sessionId }).catch(() => undefined);
        return;
      }
      this.#tabs.push({ targetId, session: sessionId });
      this.#frontChanged();
      this.#tabsChanged();
    } catch {
      // The tab closed before it could be followed.
    }
  }

  /** A page tab's address or title as DevTools reports it now. */
  #noteTab(info: TargetInfo): void {
    const before = this.#tabInfo.get(info.targetId);
    if (before?.url === info.url && before.title === info.title) return;
    this.#tabInfo.set(info.targetId, { url: info.url, title: info.title });
    if (this.#tabs.some((tab) => tab.targetId === info.targetId)) this.#tabsChanged();
  }

  #tabsChanged(): void {
    for (const listener of this.#tabListeners) listener();
  }

  /** Its tabs, oldest first, with their address and title; never the server's own. */
  tabs(): readonly BrowserTab[] {
    const order = [...this.#tabInfo.keys()];
    const rank = (targetId: string) => (targetId === this.#firstTab ? -1 : order.indexOf(targetId));
    return [...this.#tabs]
      .sort((a, b) => rank(a.targetId) - rank(b.targetId))
      .map((tab) => {
        const info = this.#tabInfo.get(tab.targetId);
        return {
          id: tab.targetId,
          url: info?.url ?? 'about:blank',
          title: info?.title ?? '',
          isActive: tab.session === this.#pageSession,
        };
      });
  }

  onTabsChanged(listener: () => void): () => void {
    this.#tabListeners.add(listener);
    return () => this.#tabListeners.delete(listener);
  }

  /** Sends the active tab to an address (http, https, about:blank), or back, forward, reload. */
  async navigate(navigation: Navigation): Promise<void> {
    const session = this.#pageSession;
    if ('url' in navigation) {
      await this.#cdp.send('Page.navigate', { url: navigableUrl(navigation.url) }, session);
      return;
    }
    if (navigation.action === 'reload') {
      await this.#cdp.send('Page.reload', {}, session);
      return;
    }
    const history = await this.#cdp.send<{
      currentIndex: number;
      entries: { id: number }[];
    }>('Page.getNavigationHistory', {}, session);
    const entry = history.entries[history.currentIndex + (navigation.action === 'back' ? -1 : 1)];
    if (entry) await this.#cdp.send('Page.navigateToHistoryEntry', { entryId: entry.id }, session);
  }

  #tabOf(tabId: string): number {
    const index = this.#tabs.findIndex((tab) => tab.targetId === tabId);
    if (index === -1) throw new ServiceError('not_found', `No tab ${tabId} in this session.`);
    return index;
  }

  /**
   * Makes a tab the active one: brought to the front, followed by input and the screen, as a
   * newly opened tab is (it goes last in the line of tabs the session goes back along).
   */
  async activateTab(tabId: string): Promise<void> {
    const [tab] = this.#tabs.splice(this.#tabOf(tabId), 1);
    if (!tab) return;
    this.#tabs.push(tab);
    this.#frontChanged();
    this.#tabsChanged();
  }

  /** Opens a tab at an address; it becomes the active one as every new tab does. */
  async openTab(url: string): Promise<void> {
    await this.#cdp.send('Target.createTarget', { url: navigableUrl(url) });
  }

  /** Closes a tab; the session's first one stays. */
  async closeTab(tabId: string): Promise<void> {
    this.#tabOf(tabId);
    if (tabId === this.#firstTab) {
      throw new ServiceError('conflict', "The session's first tab stays open.");
    }
    await this.#cdp.send('Target.closeTarget', { targetId: tabId });
  }

  /** Holds or lets go of the input its DevTools clients send (see CdpConnection.holdClientInput). */
  holdClientInput(isHeld: boolean): void {
    this.#cdp.holdClientInput(isHeld);
  }

  #frontChanged(): void {
    const front = this.#tabs.at(-1);
    if (!front || front.session === this.#pageSession) return;
    this.#pageSession = front.session;
    // A tab in the background is not painted: the one the session is on comes to the front.
    void this.#cdp.send('Page.bringToFront', {}, front.session).catch(() => undefined);
    this.#capture.follow(front.session);
  }

  /**
   * Makes an HTTP request with the browser's own network stack (`curl`), in a hidden tab of its
   * own that the session never follows.
   */
  curl(call: CurlCall, signal: AbortSignal): Promise<CurlOutcome> {
    return curlThroughBrowser(
      this.#cdp,
      () => this.#openOwnTab('about:blank'),
      (targetId) => this.#closeOwnTab(targetId),
      call,
      signal,
    );
  }

  /** Opens a hidden tab of the server's own (never followed as the session's). */
  #openOwnTab(url: string): Promise<{ targetId: string; session: string }> {
    return openOwnTab(this.#cdp, this.#ownTabs, url);
  }

  /** Closes a tab `#openOwnTab` opened; one already gone is fine. */
  #closeOwnTab(targetId: string): Promise<void> {
    return closeOwnTab(this.#cdp, this.#ownTabs, targetId);
  }

  /** The DevTools target id of the tab the session is on. */
  get pageTargetId(): string | undefined {
    return (this.#tabs.find((tab) => tab.session === this.#pageSession) ?? this.#tabs[0])?.targetId;
  }

  /**
   * Stops the script running in the session's tab, if any (a loop that code left behind when it
   * was stopped at its time-out): the page stays, its next script runs.
   */
  async interruptScripts(): Promise<void> {
    await this.#cdp
      .send('Runtime.terminateExecution', {}, this.#pageSession)
      .catch(() => undefined); // a tab that is gone runs no script
  }

  /**
   * Opens `url` (http, https or about:blank) in the session's tab and resolves once the navigation
   * committed; throws Chromium's reason when it could not (`net::ERR_CONNECTION_REFUSED`).
   */
  async openPage(url: string): Promise<void> {
    const { errorText } = await this.#cdp.send<{ errorText?: string }>(
      'Page.navigate',
      { url: navigableUrl(url) },
      this.#pageSession,
    );
    if (errorText) throw new Error(`${url} did not open: ${errorText}`);
  }

  /** Evaluates an expression in the page (for tests and diagnostics). */
  async evaluate<T>(expression: string): Promise<T> {
    const { result } = await this.#cdp.send<{ result: { value: T } }>(
      'Runtime.evaluate',
      { expression, returnByValue: true, awaitPromise: true },
      this.#pageSession,
    );
    return result.value;
  }

  /**
   * Closes Chromium as a person closing it would (Browser.close: it writes its cookies and
   * storage to disk and exits), killing it if it has not exited within `timeoutMs`.
   */
  async stop(timeoutMs = 15_000): Promise<void> {
    if (this.isRunning) {
      const exited = once(this.process, 'exit');
      // The answer may be lost as the browser exits; one that does not exit is killed below.
      this.#cdp.send('Browser.close').catch(() => undefined);
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([
        exited,
        new Promise((resolve) => {
          timer = setTimeout(resolve, timeoutMs);
        }),
      ]);
      clearTimeout(timer);
    }
    await this.close();
  }

  /**
   * Closes Chromium: its whole sandbox is killed (nothing in it needs to be kept: the instance
   * goes with it), every proxied connection ends with the pipe, and then its display.
   */
  async close(): Promise<void> {
    this.#monitor?.stop();
    this.#stealth?.stop();
    this.#cdp.close();
    await endSandbox(this.process);
    await this.#display?.close();
  }
}
