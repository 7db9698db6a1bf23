import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { CdpConnection } from './cdp-connection.js';

const run = promisify(execFile);

/**
 * `stealth: true`: a browser whose pages see the Chromium a person runs, not an automated
 * headless one. What Chromium can be told by switches is told at launch (`stealthArgs`): no
 * webdriver flag, a person's screen, and the user agent of Chromium with a window (headless
 * Chromium names itself `HeadlessChrome`), which every context it makes takes, workers shared
 * between pages and service workers included. A user agent set so costs Chromium its
 * high-entropy client hints, so they are given back, the browser's own, to every page, frame and
 * worker over DevTools (`Stealth.start`). Nothing is claimed that the browser is not: the user
 * agent and hints are its own but for `Headless`, the screen is one a window of its size sits
 * on, WebGL is the software renderer it really draws with. What cannot be hidden so is written
 * in docs/decisions/stealth.md.
 */

/** The browser as Chromium reports it (`Browser.getVersion`). */
export interface ChromiumVersion {
  /** `HeadlessChrome/156.0.8078.108` */
  readonly product: string;
}

/** User-agent client hints as `Emulation.setUserAgentOverride` takes them. */
export interface UserAgentMetadata {
  readonly brands: readonly { brand: string; version: string }[];
  readonly fullVersionList: readonly { brand: string; version: string }[];
  readonly fullVersion: string;
  readonly platform: string;
  readonly platformVersion: string;
  readonly architecture: string;
  readonly model: string;
  readonly mobile: boolean;
  readonly bitness: string;
  readonly wow64: boolean;
  readonly formFactors: readonly string[];
}

/** What every target of a stealth browser is given: the user agent and its client hints. */
export interface UserAgentOverride {
  readonly userAgent: string;
  readonly userAgentMetadata: UserAgentMetadata;
}

/**
 * Screens people have, smallest first: a stealth browser's screen is the smallest of them that
 * its window (the viewport and Chromium's toolbars) and a desktop's task bar fit on.
 */
const COMMON_SCREENS: readonly (readonly [number, number])[] = [
  [1366, 768],
  [1440, 900],
  [1536, 864],
  [1600, 900],
  [1680, 1050],
  [1920, 1080],
  [1920, 1200],
  [2560, 1440],
  [2560, 1600],
  [3440, 1440],
  [3840, 2160],
];

/** What Chromium's window takes besides the page (its toolbars), and a task bar, in pixels. */
const WINDOW_FRAME_HEIGHT = 150;
const TASK_BAR_HEIGHT = 40;

/** The screen a stealth browser reports for a viewport: one its window fits on. */
export function stealthScreen(viewport: { readonly width: number; readonly height: number }): {
  width: number;
  height: number;
} {
  const needed = viewport.height + WINDOW_FRAME_HEIGHT + TASK_BAR_HEIGHT;
  const common = COMMON_SCREENS.find(
    ([width, height]) => width >= viewport.width && height >= needed,
  );
  return common
    ? { width: common[0], height: common[1] }
    : { width: viewport.width, height: needed };
}

/**
 * The switches of a stealth browser: no `navigator.webdriver` (Blink sets it for any browser
 * DevTools drives), a screen as large as a person's, with a task bar, instead of headless
 * Chromium's 800×600 under a window larger than it, and `userAgent` (see `stealthUserAgent`).
 */
export function stealthArgs(
  viewport: { readonly width: number; readonly height: number },
  userAgent: string,
): string[] {
  const screen = stealthScreen(viewport);
  return [
    `--user-agent=${userAgent}`,
    '--disable-blink-features=AutomationControlled',
    // Nor the warning bar Chromium then shows on its first tab, which would take its height.
    '--disable-infobars',
    `--screen-info={${screen.width}x${screen.height} workAreaBottom=${TASK_BAR_HEIGHT}}`,
  ];
}

/** Stealth user agents by Chromium binary: its version is read once per server. */
const userAgentByPath = new Map<string, Promise<string>>();

/**
 * The user agent Chromium at `chromePath` gives with a window, on Linux: the reduced one every
 * Chromium sends since user-agent reduction (a frozen platform, and `MAJOR.0.0.0`), of its major
 * version as `chromium --version` tells it. Read before the browser starts, for its switch.
 */
export function stealthUserAgent(chromePath: string): Promise<string> {
  let userAgent = userAgentByPath.get(chromePath);
  if (!userAgent) {
    userAgent = run(chromePath, ['--version'], { timeout: 10_000 }).then(({ stdout }) =>
      reducedUserAgent(stdout),
    );
    userAgentByPath.set(chromePath, userAgent);
    // A failed read is tried again by the next stealth browser.
    userAgent.catch(() => userAgentByPath.delete(chromePath));
  }
  return userAgent;
}

/** The reduced user agent of Chromium on Linux, for what `chromium --version` printed. */
export function reducedUserAgent(versionOutput: string): string {
  const major = /(\d+)\.\d+\.\d+\.\d+/.exec(versionOutput)?.[1];
  if (!major) throw new Error(`Chromium named no version: ${versionOutput.trim()}`);
  return `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${major}.0.0.0 Safari/537.36`;
}

/** A brand of the client hints, and its version. */
interface Brand {
  readonly brand: string;
  readonly version: string;
}

/** The page the brands are read in: a secure one of Chromium's own, with no network. */
const BRANDS_PAGE = 'chrome://version';

/**
 * The browser's own brands (`navigator.userAgentData.brands`: the GREASE brand included, in its
 * order), read in a hidden tab: the one part of the client hints the user-agent switch leaves.
 */
async function readBrands(cdp: CdpConnection): Promise<Brand[]> {
  const { targetId } = await cdp.send<{ targetId: string }>('Target.createTarget', {
    url: BRANDS_PAGE,
    background: true,
    hidden: true,
  });
  try {
    const { sessionId } = await cdp.send<{ sessionId: string }>('Target.attachToTarget', {
      targetId,
      flatten: true,
    });
    // The page may not have its document yet right after it opened: a few tries.
    for (let attempt = 0; attempt < 50; attempt++) {
      const { result } = await cdp.send<{ result: { value?: Brand[] } }>(
        'Runtime.evaluate',
        {
          expression: `location.href.startsWith('${BRANDS_PAGE}') && navigator.userAgentData
            ? navigator.userAgentData.brands.map(({ brand, version }) => ({ brand, version }))
            : undefined`,
          returnByValue: true,
        },
        sessionId,
      );
      if (result.value) return result.value;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error(`the browser gave no user-agent client hints in ${BRANDS_PAGE}`);
  } finally {
    // Best effort: a hidden tab that does not close goes with its browser.
    await cdp.send('Target.closeTarget', { targetId }).catch(() => undefined);
  }
}

/** The CPU as client hints name it, for Node's `process.arch`. */
function architectureOf(arch: string): { architecture: string; bitness: string } {
  if (arch === 'arm64') return { architecture: 'arm', bitness: '64' };
  if (arch === 'arm') return { architecture: 'arm', bitness: '32' };
  if (arch === 'ia32') return { architecture: 'x86', bitness: '32' };
  return { architecture: 'x86', bitness: '64' };
}

/**
 * The client hints of the browser `version` as Chromium with a window gives them on Linux: its
 * own brands (never `HeadlessChrome`), each with its full version (the browser's for its own,
 * `N.0.0.0` for GREASE), the machine's architecture, and the empty platform version and model
 * Chromium gives on Linux.
 */
export function userAgentMetadata(
  brands: readonly Brand[],
  version: ChromiumVersion,
  arch: string = process.arch,
): UserAgentMetadata {
  const fullVersion = version.product.split('/')[1] ?? '';
  const major = fullVersion.split('.')[0];
  const kept = brands.filter((entry) => !/headless/i.test(entry.brand));
  return {
    brands: kept,
    fullVersionList: kept.map((entry) => ({
      brand: entry.brand,
      version: entry.version === major ? fullVersion : `${entry.version}.0.0.0`,
    })),
    fullVersion,
    platform: 'Linux',
    platformVersion: '',
    ...architectureOf(arch),
    model: '',
    mobile: false,
    wow64: false,
    formFactors: ['Desktop'],
  };
}

/** Brands by browser version: read once per server. */
const brandsByVersion = new Map<string, Promise<Brand[]>>();

/** The override every target of a stealth browser gets: `userAgent`, and its client hints. */
export async function userAgentOverride(
  cdp: CdpConnection,
  version: ChromiumVersion,
  userAgent: string,
): Promise<UserAgentOverride> {
  let brands = brandsByVersion.get(version.product);
  if (!brands) {
    brands = readBrands(cdp);
    brandsByVersion.set(version.product, brands);
    // A failed read is tried again by the next stealth browser.
    brands.catch(() => brandsByVersion.delete(version.product));
  }
  return { userAgent, userAgentMetadata: userAgentMetadata(await brands, version) };
}

/** A target as `Target.attachedToTarget` describes it. */
interface AttachedTarget {
  readonly sessionId: string;
  readonly targetInfo: { readonly targetId: string; readonly type: string };
  readonly waitingForDebugger: boolean;
}

/**
 * Targets that run a page's scripts: pages, frames of another process, and workers, each with a
 * navigator of its own. Each is given the override by `Network.setUserAgentOverride`, which
 * every one of them has (a worker has no Emulation domain); on a page, Emulation's variant, set
 * before its first document, also took `chrome.app` from it.
 */
const SCRIPT_TARGETS = new Set(['page', 'iframe', 'worker', 'shared_worker', 'service_worker']);

/**
 * Keeps every target of one browser stealthy: a DevTools session of its own on the browser
 * (`Target.attachToBrowserTarget`, apart from the server's and its clients'), which attaches
 * to every page, frame of another process and worker as it is created, paused before its
 * first script (`waitForDebuggerOnStart`), gives it the user-agent override, and lets it run.
 * A tab a client opens over CDP, or a page opens, is so before anything in it runs; the
 * overrides last as long as this session stays attached, which is the browser's life.
 */
export class Stealth {
  readonly #cdp: CdpConnection;
  readonly #override: UserAgentOverride;
  /** Its browser session and every target session it attached, the parents of what it follows. */
  readonly #sessions = new Set<string>();
  readonly #stops: (() => void)[] = [];

  private constructor(cdp: CdpConnection, override: UserAgentOverride) {
    this.#cdp = cdp;
    this.#override = override;
  }

  /** Starts following the browser's targets (those open now too) with the override. */
  static async start(
    cdp: CdpConnection,
    version: ChromiumVersion,
    userAgent: string,
  ): Promise<Stealth> {
    const stealth = new Stealth(cdp, await userAgentOverride(cdp, version, userAgent));
    const { sessionId } = await cdp.send<{ sessionId: string }>('Target.attachToBrowserTarget');
    stealth.#sessions.add(sessionId);
    stealth.#stops.push(
      cdp.on('Target.attachedToTarget', (params, parent) => {
        if (parent !== undefined && stealth.#sessions.has(parent))
          void stealth.#attached(params as AttachedTarget);
      }),
      cdp.on('Target.detachedFromTarget', (params, parent) => {
        if (parent !== undefined && stealth.#sessions.has(parent))
          stealth.#sessions.delete((params as { sessionId: string }).sessionId);
      }),
    );
    await stealth.#followChildren(sessionId);
    return stealth;
  }

  /** Stops hearing the browser's targets (the browser closes). */
  stop(): void {
    for (const stop of this.#stops.splice(0)) stop();
  }

  /** Follows what a session's target starts: new pages for the browser, frames and workers for a page. */
  #followChildren(sessionId: string): Promise<unknown> {
    return this.#cdp.send(
      'Target.setAutoAttach',
      { autoAttach: true, waitForDebuggerOnStart: true, flatten: true },
      sessionId,
    );
  }

  async #attached({ sessionId, targetInfo, waitingForDebugger }: AttachedTarget): Promise<void> {
    this.#sessions.add(sessionId);
    try {
      if (SCRIPT_TARGETS.has(targetInfo.type)) {
        await this.#cdp.send('Network.setUserAgentOverride', { ...this.#override }, sessionId);
        // Its frames and workers, and theirs, are followed the same way.
        await this.#followChildren(sessionId);
      }
    } catch {
      // The target closed meanwhile: it is let go all the same.
    } finally {
      if (waitingForDebugger)
        await this.#cdp
          .send('Runtime.runIfWaitingForDebugger', {}, sessionId)
          .catch(() => undefined); // a target closed meanwhile waits for nothing
    }
  }
}
