import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { keyEvents, keyStrokeFor } from '../computer/key-events.js';
import { CdpConnection } from './cdp-connection.js';
import {
  type ChromiumOptions,
  endProcessesOf,
  type StartedChromium,
  startChromium,
} from './chromium.js';
import { startVirtualDisplay, type VirtualDisplay } from './virtual-display.js';

/** A rectangle of the page, in CSS pixels. */
export interface Region {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

/** What a reset clears for every origin the browser visited ('all' fails on some origins). */
const STORAGE_TYPES =
  'local_storage,indexeddb,cache_storage,service_workers,file_systems,websql,cookies';

/** Waits `ms`, or less when the signal aborts. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

/**
 * One real Chromium and the page the API drives: typing and screenshots go to that page over
 * DevTools. Playwright or Puppeteer connected through the server's CDP proxy see the same page.
 */
export class ChromiumBrowser {
  readonly process: ChildProcess;
  /** Browser-level DevTools WebSocket URL, on loopback: what the CDP proxy forwards to. */
  readonly devtoolsUrl: string;
  readonly #cdp: CdpConnection;
  #pageSession: string;
  readonly #viewport: { width: number; height: number };
  readonly #userDataDir: string;
  /** The Xvfb display of a headed browser, closed with it. */
  readonly #display: VirtualDisplay | undefined;
  /** Typing is serialized: one input at a time per browser. */
  #typing: Promise<void> = Promise.resolve();

  private constructor(
    started: { process: ChildProcess; devtoolsUrl: string },
    cdp: CdpConnection,
    pageSession: string,
    viewport: { width: number; height: number },
    userDataDir: string,
    display: VirtualDisplay | undefined,
  ) {
    this.#userDataDir = userDataDir;
    this.#display = display;
    this.process = started.process;
    this.devtoolsUrl = started.devtoolsUrl;
    this.#cdp = cdp;
    this.#pageSession = pageSession;
    this.#viewport = viewport;
  }

  /**
   * Starts Chromium (a headed one on an Xvfb display of its own), attaches to its first page and
   * sets the viewport and downloads folder.
   */
  static async launch(
    options: ChromiumOptions & { downloadsDir: string; xvfbPath?: string | undefined },
  ): Promise<ChromiumBrowser> {
    const display =
      options.isHeadless || !options.xvfbPath
        ? undefined
        : await startVirtualDisplay(options.xvfbPath, options.viewport);
    let started: StartedChromium;
    try {
      started = await startChromium(display ? { ...options, display: display.display } : options);
    } catch (error) {
      await display?.close();
      throw error;
    }
    try {
      const cdp = await CdpConnection.connect(started.devtoolsUrl);
      const { targetInfos } = await cdp.send<{ targetInfos: { targetId: string; type: string }[] }>(
        'Target.getTargets',
      );
      const page = targetInfos.find((target) => target.type === 'page');
      const sessionId = await ChromiumBrowser.#attachNewPage(cdp, options.viewport, page?.targetId);
      await cdp.send('Browser.setDownloadBehavior', {
        behavior: 'allow',
        downloadPath: options.downloadsDir,
        eventsEnabled: true,
      });
      return new ChromiumBrowser(
        started,
        cdp,
        sessionId,
        { ...options.viewport },
        options.userDataDir,
        display,
      );
    } catch (error) {
      await endProcessesOf(started.process, options.userDataDir);
      await display?.close();
      throw error;
    }
  }

  /** Whether Chromium still runs. */
  get isRunning(): boolean {
    return (
      this.process.exitCode === null && this.process.signalCode === null && !this.#cdp.isClosed
    );
  }

  /**
   * Types text as a person would: a key down and up for every character, `delay` ms apart.
   * Calls queue behind each other; an aborted call stops where it is.
   */
  typeText(text: string, delay: number, signal: AbortSignal): Promise<void> {
    const typing = this.#typing.then(async () => {
      let isFirst = true;
      for (const character of text) {
        if (signal.aborted) return;
        if (!isFirst && delay > 0) await pause(delay, signal);
        isFirst = false;
        const [down, up] = keyEvents(keyStrokeFor(character));
        await this.#cdp.send('Input.dispatchKeyEvent', down, this.#pageSession);
        await this.#cdp.send('Input.dispatchKeyEvent', up, this.#pageSession);
      }
    });
    this.#typing = typing.catch(() => undefined);
    return typing;
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
   * Makes the browser fresh for its next user, as a pool's release with `reuse` asks: the storage
   * of every origin its tabs visited, its cookies and its cache are cleared, and a new blank tab
   * (no history) replaces every tab it had.
   */
  async reset(): Promise<void> {
    const pages = await this.#pageTargets();
    const origins = new Set<string>();
    for (const page of pages) {
      const origin = URL.parse(page.url)?.origin;
      if (origin && origin !== 'null') origins.add(origin);
    }
    const { entries } = await this.#cdp.send<{ entries: { url: string }[] }>(
      'Page.getNavigationHistory',
      {},
      this.#pageSession,
    );
    for (const entry of entries) {
      const origin = URL.parse(entry.url)?.origin;
      if (origin && origin !== 'null') origins.add(origin);
    }
    for (const origin of origins) {
      await this.#cdp.send(
        'Storage.clearDataForOrigin',
        { origin, storageTypes: STORAGE_TYPES },
        this.#pageSession,
      );
    }
    await this.#cdp.send('Storage.clearCookies');
    await this.#cdp.send('Network.clearBrowserCache', {}, this.#pageSession);
    this.#pageSession = await ChromiumBrowser.#attachNewPage(this.#cdp, this.#viewport);
    for (const page of pages)
      await this.#cdp
        .send('Target.closeTarget', { targetId: page.targetId })
        .catch(() => undefined);
  }

  async #pageTargets(): Promise<{ targetId: string; url: string }[]> {
    const { targetInfos } = await this.#cdp.send<{
      targetInfos: { targetId: string; type: string; url: string }[];
    }>('Target.getTargets');
    return targetInfos.filter((target) => target.type === 'page');
  }

  /** Opens a blank tab, attaches to it and sets its viewport; resolves to its session. */
  static async #attachNewPage(
    cdp: CdpConnection,
    viewport: { width: number; height: number },
    targetId?: string,
  ): Promise<string> {
    const target =
      targetId ??
      (await cdp.send<{ targetId: string }>('Target.createTarget', { url: 'about:blank' }))
        .targetId;
    const { sessionId } = await cdp.send<{ sessionId: string }>('Target.attachToTarget', {
      targetId: target,
      flatten: true,
    });
    await cdp.send('Page.enable', {}, sessionId);
    await cdp.send(
      'Emulation.setDeviceMetricsOverride',
      { ...viewport, deviceScaleFactor: 1, mobile: false },
      sessionId,
    );
    return sessionId;
  }

  /** The page as it looks now, as a JPEG: a recording's first frame. */
  async jpeg(): Promise<Buffer> {
    const { data } = await this.#cdp.send<{ data: string }>(
      'Page.captureScreenshot',
      { format: 'jpeg', quality: 80 },
      this.#pageSession,
    );
    return Buffer.from(data, 'base64');
  }

  /**
   * Streams the page as JPEG frames (DevTools screencast) until the returned function stops it.
   * Each frame is acknowledged at once, so Chromium keeps sending.
   */
  async startScreencast(onFrame: (jpeg: Buffer) => void): Promise<() => Promise<void>> {
    const session = this.#pageSession;
    const stopListening = this.#cdp.on('Page.screencastFrame', (params, sessionId) => {
      if (sessionId !== session) return;
      const frame = params as { data: string; sessionId: number };
      onFrame(Buffer.from(frame.data, 'base64'));
      void this.#cdp
        .send('Page.screencastFrameAck', { sessionId: frame.sessionId }, session)
        .catch(() => undefined);
    });
    await this.#cdp.send(
      'Page.startScreencast',
      { format: 'jpeg', quality: 80, everyNthFrame: 1 },
      session,
    );
    return async () => {
      stopListening();
      await this.#cdp.send('Page.stopScreencast', {}, session).catch(() => undefined);
    };
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
   * Closes Chromium: politely over DevTools, by force if it lingers, and then every process it
   * started, so none outlives the session.
   */
  async close(): Promise<void> {
    if (this.process.exitCode === null && this.process.signalCode === null) {
      const exited = once(this.process, 'exit');
      await this.#cdp.send('Browser.close').catch(() => undefined);
      const timer = setTimeout(() => this.process.kill('SIGKILL'), 3_000);
      await exited;
      clearTimeout(timer);
    }
    this.#cdp.close();
    await endProcessesOf(this.process, this.#userDataDir);
    await this.#display?.close();
  }
}
