/**
 * Figures of the self-hosted server on real Chromium, from one run, for browsers in their
 * sandbox (bubblewrap, a user of their own, DevTools over a pipe: as the server runs them) and,
 * as the baseline, for Chromium started straight on the host (as the server did before):
 * - a cold POST /browsers, and acquire from a warm pool: p50 and p95 (target: acquire p50 at most
 *   50 ms on loopback);
 * - how long a pool takes to be whole again after a release (the lease's browser is replaced);
 * - create → connect (Playwright over the session's cdp_ws_url) → goto a loopback page → close;
 * - idle headless browsers: memory per browser (proportional set size of all its processes, so
 *   shared pages count once);
 * - typing 1,000 characters at delay 0 (sandboxed): characters per second;
 * - where a cold start's time goes: the mean of each step the server times
 *   (`xb_browser_start_phase_seconds`), next to the whole create;
 * - against Playwright launching the same Chromium straight on the host (launch, `newPage`, `goto`
 *   a loopback page, close), each as a ratio of it: a session's create → connect → goto → delete;
 *   a pool lease (acquire → connect → goto → release) with the pool refilled between leases, and
 *   back to back on a pool of 2 once its warm browsers are used up (each lease then waits for a
 *   released browser's replacement: the steady state of a fleet); a screenshot of the same
 *   1280×720 page through the session's CDP URL and direct, and a small and a 1 MiB DevTools
 *   answer through it and direct, taken in turn (one direct, one through the session) so both
 *   see the same load. The direct launch is measured at the run's start and again at its end.
 *
 * Run: pnpm --filter @x/server bench   (after a build)
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { chromium, type Page } from 'playwright-core';
import { type RunningServer, readConfig, startServer } from '../dist/index.js';
import { apiCaller, BENCH_TOKEN, benchServer } from './bench-support.ts';

const COLD_RUNS = 10;
const LIFECYCLES = 10;
/** Leases counted back to back on a pool of 2, after its warm browsers were used up. */
const BACK_TO_BACK_LEASES = 20;
const SHOTS = 50;
const EVALUATIONS = 200;
const WARM_RUNS = 20;
const ROUND_TRIPS = 10;
const TYPED = 1_000;
const IDLE_BROWSERS = 5;
const POOL_SIZE = 3;
const TOKEN = 'bench-token';
// The baseline launches the Chromium the servers run.
const CHROMIUM = readConfig({ CHROME_PATH: process.env.CHROME_PATH }).chromePath;

const timed = async (work: () => Promise<unknown>) => {
  const started = performance.now();
  await work();
  return performance.now() - started;
};
const quantile = (values: number[], q: number) =>
  [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) * q)] ?? 0;

/** The page every figure loads: text and a gradient, so a screenshot has something to encode. */
const PAGE = `<!doctype html><body style="margin:0;background:linear-gradient(45deg,#123,#9ab)">${'<p>The quick brown fox jumps over the lazy dog.</p>'.repeat(20)}</body>`;
const site = createServer((_request, response) =>
  response.writeHead(200, { 'content-type': 'text/html' }).end(PAGE),
);
await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
const siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;

/** Proportional set size of every process of one browser, in bytes. */
function browserMemory(server: RunningServer, sessionId: string): number {
  const { home, user } = server.instance(sessionId);
  let total = 0;
  for (const entry of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const status = readFileSync(`/proc/${entry}/status`, 'utf8');
      const uid = Number(/^Uid:\s+(\d+)/m.exec(status)?.[1]);
      const commandLine = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      // Its user's processes and bubblewrap's own, or (unsandboxed) those naming its profile.
      const isOfBrowser = user
        ? uid === user.uid || commandLine.includes(home)
        : commandLine.includes(home);
      if (!isOfBrowser) continue;
      const pss = /^Pss:\s+(\d+) kB/m.exec(
        readFileSync(`/proc/${entry}/smaps_rollup`, 'utf8'),
      )?.[1];
      total += Number(pss ?? 0) * 1024;
    } catch {
      // The process ended while it was read.
    }
  }
  return total;
}

interface Figures {
  cold: number[];
  warm: number[];
  refill: number[];
  roundTrip: number[];
  memory: number[];
  typing: number[];
  /** Mean milliseconds of each step of the cold starts, as the server timed them. */
  phases: Record<string, number>;
}

/** The figures of one way to get a browser, the direct launch's and a session's alike. */
interface SpeedFigures {
  /** Launch (create) → connect → goto → close (delete). */
  lifecycle: number[];
  screenshot: number[];
  smallAnswer: number[];
  largeAnswer: number[];
}

/** Chromium's flags as the server gives them, for the direct launch (Playwright adds its own). */
const DIRECT_ARGS = [
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** A page and what is measured on it. */
interface MeasuredPage {
  readonly page: Page;
  readonly figures: SpeedFigures;
}

/**
 * Screenshots and DevTools answers of the same page reached two ways (the direct launch's and a
 * session's), taken in turn, one of each after the other: both see the same load of the machine.
 */
async function pageFigures(ways: readonly MeasuredPage[]): Promise<void> {
  const prepared = await Promise.all(
    ways.map(async ({ page, figures }) => {
      await page.goto(siteUrl);
      const devtools = await page.context().newCDPSession(page);
      const evaluate = (expression: string) =>
        devtools.send('Runtime.evaluate', { expression, returnByValue: true });
      return { page, figures, evaluate };
    }),
  );
  const inTurn = async (
    count: number,
    take: (way: (typeof prepared)[number]) => Promise<unknown>,
    keep?: (figures: SpeedFigures) => number[],
  ) => {
    for (let run = 0; run < count; run++)
      for (const way of prepared) {
        const took = await timed(() => take(way));
        keep?.(way.figures).push(took);
      }
  };
  await inTurn(3, (way) => way.page.screenshot());
  await inTurn(
    SHOTS,
    (way) => way.page.screenshot(),
    (figures) => figures.screenshot,
  );
  await inTurn(20, (way) => way.evaluate('1'));
  await inTurn(
    EVALUATIONS,
    (way) => way.evaluate('1'),
    (figures) => figures.smallAnswer,
  );
  const large = `'x'.repeat(${1024 * 1024})`;
  await inTurn(
    20,
    (way) => way.evaluate(large),
    (figures) => figures.largeAnswer,
  );
}

const launchDirect = () =>
  chromium.launch({ executablePath: CHROMIUM, args: DIRECT_ARGS, chromiumSandbox: false });

/**
 * Playwright launching Chromium itself, `LIFECYCLES` times: the figure every other is a ratio of.
 * The run measures it at its start and again at its end, so that a machine whose load moved
 * during the run weighs on the baseline as on what is compared with it.
 */
async function directLifecycles(figures: SpeedFigures): Promise<void> {
  for (let run = 0; run <= LIFECYCLES; run++) {
    const took = await timed(async () => {
      const browser = await launchDirect();
      const page = await browser.newPage();
      await page.goto(siteUrl);
      await browser.close();
    });
    // The first of each pass warms up (the page cache, after the servers' runs).
    if (run > 0) figures.lifecycle.push(took);
  }
}

/** A session's figures, as a ratio of the direct launch's, and a pool lease's. */
interface SessionFigures extends SpeedFigures {
  /** Acquire → connect → goto → release, the pool whole again before each (not timed). */
  refilled: number[];
  /** The same back to back on a pool of 2: each lease waits for a browser when none is left. */
  backToBack: number[];
}

/** Connects Playwright to a session, loads the page and disconnects. */
async function drive(cdpUrl: string): Promise<void> {
  const browser = await chromium.connectOverCDP(cdpUrl);
  await browser.contexts()[0]?.pages()[0]?.goto(siteUrl);
  await browser.close();
}

async function sessionFigures(
  call: ReturnType<typeof apiCaller>,
  poolWhole: (name: string, size: number) => Promise<void>,
  quiet: () => Promise<void>,
  direct: SpeedFigures,
): Promise<SessionFigures> {
  type Session = { session_id: string; cdp_ws_url: string };
  const figures: SessionFigures = {
    lifecycle: [],
    screenshot: [],
    smallAnswer: [],
    largeAnswer: [],
    refilled: [],
    backToBack: [],
  };
  for (let run = 0; run <= LIFECYCLES; run++) {
    const took = await timed(async () => {
      const session = await call<Session>('POST', '/browsers', {});
      await drive(session.cdp_ws_url);
      await call('DELETE', `/browsers/${session.session_id}`);
    });
    if (run > 0) figures.lifecycle.push(took);
  }
  const lease = (pool: string) => async () => {
    const session = await call<Session>('POST', `/browser_pools/${pool}/acquire`, {
      acquire_timeout_seconds: 60,
    });
    await drive(session.cdp_ws_url);
    await call('POST', `/browser_pools/${pool}/release`, { session_id: session.session_id });
  };
  for (const [name, size] of [
    ['refilled', 1],
    ['pair', 2],
  ] as const) {
    await call('POST', '/browser_pools', { name, size, fill_rate_per_minute: 100 });
    await poolWhole(name, size);
    if (name === 'refilled') {
      for (let run = 0; run < LIFECYCLES; run++) {
        await poolWhole(name, size);
        figures.refilled.push(await timed(lease(name)));
      }
    } else {
      // The steady state only: the leases of the browsers the pool held warm at the start (and
      // as many again, while the replacements catch up) are not counted.
      for (let run = 0; run < 2 * size; run++) await lease(name)();
      for (let run = 0; run < BACK_TO_BACK_LEASES; run++)
        figures.backToBack.push(await timed(lease(name)));
    }
    await call('DELETE', `/browser_pools/${name}?force=true`);
  }
  const shot = await call<Session>('POST', '/browsers', {
    viewport: { width: 1280, height: 720 },
  });
  const browser = await chromium.connectOverCDP(shot.cdp_ws_url);
  const directBrowser = await launchDirect();
  try {
    const page = browser.contexts()[0]?.pages()[0];
    if (!page) throw new Error('the session has no page');
    const directPage = await directBrowser.newPage({ viewport: { width: 1280, height: 720 } });
    // The spare started behind this create would take the same two cores as the screenshots.
    await quiet();
    await pageFigures([
      { page: directPage, figures: direct },
      { page, figures },
    ]);
  } finally {
    await directBrowser.close();
    await browser.close();
    await call('DELETE', `/browsers/${shot.session_id}`);
  }
  return figures;
}

/** Resolves once a pool of the server has `size` browsers warm. */
function poolWholeOn(call: ReturnType<typeof apiCaller>) {
  return async (name = 'bench', size = POOL_SIZE) => {
    for (let attempt = 0; attempt < 3000; attempt++) {
      const pool = await call<{ available_count: number }>('GET', `/browser_pools/${name}`);
      if (pool.available_count === size) return;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error('the pool never filled');
  };
}

/**
 * Resolves once the server has started no browser for two seconds (a browser's own work goes on
 * for about that long after its start), or after half a minute.
 */
function quietOn(url: string) {
  const starts = async () => {
    const text = await fetch(`${url}/metrics`, {
      headers: { authorization: `Bearer ${BENCH_TOKEN}` },
    }).then((response) => response.text());
    const count = /^xb_browser_start_phase_seconds_count\{phase="chromium"\} (\S+)$/m.exec(text);
    return Number(count?.[1] ?? 0);
  };
  return async () => {
    for (let attempt = 0; attempt < 15; attempt++) {
      const before = await starts();
      await new Promise((resolve) => setTimeout(resolve, 2000));
      if ((await starts()) === before) return;
    }
  };
}

/** A server with the defaults (sandboxed, a spare browser), as the figures against the direct launch take it. */
async function measureSessions(direct: SpeedFigures): Promise<SessionFigures> {
  const { dataDir, server, call } = await benchServer('sessions', { XB_MAX_BROWSERS: '12' });
  try {
    return await sessionFigures(call, poolWholeOn(call), quietOn(server.url), direct);
  } finally {
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * Every figure but those against the direct launch, against one server whose browsers are
 * sandboxed or not, without spare browsers: each create starts its browser.
 */
async function measure(isBrowserSandboxed: boolean): Promise<Figures> {
  const dataDir = mkdtempSync(join(tmpdir(), 'xb-bench-'));
  const server = await startServer(
    {
      ...readConfig({
        XB_ALLOW_NETWORKS: '127.0.0.1/32',
        XB_DATA_DIR: dataDir,
        XB_PORT: '0',
        XB_TOKENS: TOKEN,
        XB_MAX_BROWSERS: '12',
        XB_SPARE_BROWSERS: '0',
      }),
      isBrowserSandboxed,
    },
    pino({ level: 'silent' }),
  );
  const call = apiCaller(server.url, TOKEN);
  const create = async () =>
    await call<{ session_id: string; cdp_ws_url: string }>('POST', '/browsers', {});
  const poolWhole = poolWholeOn(call);
  const figures: Figures = {
    cold: [],
    warm: [],
    refill: [],
    roundTrip: [],
    memory: [],
    typing: [],
    phases: {},
  };
  try {
    for (let run = 0; run < COLD_RUNS; run++) {
      let id = '';
      figures.cold.push(await timed(async () => ({ session_id: id } = await create())));
      await call('DELETE', `/browsers/${id}`);
    }
    const metrics = await fetch(`${server.url}/metrics`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    }).then((response) => response.text());
    for (const [, phase = '', sum = '0'] of metrics.matchAll(
      /^xb_browser_start_phase_seconds_sum\{phase="(\w+)"\} (\S+)$/gm,
    )) {
      const count = new RegExp(
        `^xb_browser_start_phase_seconds_count\\{phase="${phase}"\\} (\\d+)$`,
        'm',
      ).exec(metrics)?.[1];
      if (count) figures.phases[phase] = (Number(sum) * 1000) / Number(count);
    }

    // Warm: each acquire finds the pool whole; each release ends the lease, and the time until
    // the replacement is ready is the refill.
    await call('POST', '/browser_pools', {
      name: 'bench',
      size: POOL_SIZE,
      fill_rate_per_minute: 100,
    });
    await poolWhole();
    for (let run = 0; run < WARM_RUNS; run++) {
      let id = '';
      figures.warm.push(
        await timed(async () => {
          ({ session_id: id } = await call<{ session_id: string }>(
            'POST',
            '/browser_pools/bench/acquire',
            {},
          ));
        }),
      );
      figures.refill.push(
        await timed(async () => {
          await call('POST', '/browser_pools/bench/release', { session_id: id });
          await poolWhole();
        }),
      );
    }
    await call('DELETE', '/browser_pools/bench?force=true');

    for (let run = 0; run < ROUND_TRIPS; run++) {
      figures.roundTrip.push(
        await timed(async () => {
          const session = await create();
          const browser = await chromium.connectOverCDP(session.cdp_ws_url);
          const page = browser.contexts()[0]?.pages()[0];
          await page?.goto(siteUrl);
          await browser.close();
          await call('DELETE', `/browsers/${session.session_id}`);
        }),
      );
    }

    const idle: string[] = [];
    for (let index = 0; index < IDLE_BROWSERS; index++) idle.push((await create()).session_id);
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    figures.memory = idle.map((id) => browserMemory(server, id));
    for (const id of idle) await call('DELETE', `/browsers/${id}`);

    const typist = (await create()).session_id;
    const text = 'The quick brown fox jumps over the lazy dog. '.repeat(30).slice(0, TYPED);
    for (let run = 0; run < 3; run++)
      figures.typing.push(
        await timed(() => call('POST', `/browsers/${typist}/computer/type`, { text })),
      );
    await call('DELETE', `/browsers/${typist}`);
  } finally {
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return figures;
}

try {
  const direct: SpeedFigures = { lifecycle: [], screenshot: [], smallAnswer: [], largeAnswer: [] };
  await directLifecycles(direct);
  const bare = await measure(false);
  const sandboxed = await measure(true);
  const session = await measureSessions(direct);
  await directLifecycles(direct);
  const ms = (value: number) => `${value.toFixed(1)} ms`.padStart(10);
  const row = (label: string, of: (figures: Figures) => number[]) => {
    const [p50, p95] = [quantile(of(sandboxed), 0.5), quantile(of(sandboxed), 0.95)];
    const base = quantile(of(bare), 0.5);
    console.log(
      `${label.padEnd(44)} ${ms(p50)} ${ms(p95)} ${ms(base)}   ${(p50 / base).toFixed(2)}x`,
    );
  };
  console.log(`server on ${process.version}, Debian Chromium, loopback; one run`);
  console.log(`${''.padEnd(44)}  sandboxed p50      p95   on-host p50   ratio`);
  row(`cold POST /browsers (${COLD_RUNS} runs)`, (figures) => figures.cold);
  row(`warm pool acquire (${WARM_RUNS} runs)`, (figures) => figures.warm);
  row('release until the pool is whole again', (figures) => figures.refill);
  row(`create, connect, goto, close (${ROUND_TRIPS} runs)`, (figures) => figures.roundTrip);
  const warmP50 = quantile(sandboxed.warm, 0.5);
  console.log(
    `target: warm acquire p50 <= 50 ms (sandboxed): ${warmP50 <= 50 ? 'OK' : 'OVER TARGET'} (${warmP50.toFixed(1)} ms)`,
  );
  const mean = (values: number[]) =>
    values.reduce((sum, value) => sum + value, 0) / values.length / 1024 / 1024;
  console.log(
    `idle headless browser, PSS of all its processes (mean of ${IDLE_BROWSERS}): sandboxed ${mean(sandboxed.memory).toFixed(0)} MB, on host ${mean(bare.memory).toFixed(0)} MB (${(mean(sandboxed.memory) / mean(bare.memory)).toFixed(2)}x); ${Math.floor(4096 / mean(sandboxed.memory))} sandboxed fit in 4 GiB`,
  );
  const coldMean = sandboxed.cold.reduce((sum, value) => sum + value, 0) / sandboxed.cold.length;
  console.log(
    `where a cold create's time goes (sandboxed, mean of ${COLD_RUNS}; the whole create ${coldMean.toFixed(1)} ms):`,
  );
  for (const [phase, value] of Object.entries(sandboxed.phases))
    console.log(
      `  ${phase.padEnd(12)} ${ms(value)}  ${((value / coldMean) * 100).toFixed(0).padStart(3)}%`,
    );
  const timedSum = Object.values(sandboxed.phases).reduce((sum, value) => sum + value, 0);
  console.log(
    `  ${'the rest'.padEnd(12)} ${ms(coldMean - timedSum)}  ${(((coldMean - timedSum) / coldMean) * 100).toFixed(0).padStart(3)}%  (the API, the record, the answer)`,
  );
  const launch = quantile(direct.lifecycle, 0.5);
  console.log(
    `against Playwright launching Chromium itself (launch, newPage, goto, close, ${direct.lifecycle.length} runs at the run's start and end: p50 ${launch.toFixed(1)} ms), a server with the defaults (sandboxed, one spare browser):`,
  );
  const against = (label: string, values: number[], base: number, target: number) => {
    const p50 = quantile(values, 0.5);
    const ratio = p50 / base;
    console.log(
      `  ${label.padEnd(54)} ${ms(p50)} ${ms(quantile(values, 0.95))}  ${ratio.toFixed(2)}x  target <= ${target.toFixed(2)}x ${ratio <= target ? 'OK' : 'OVER'}`,
    );
  };
  against('create, connect, goto, delete', session.lifecycle, launch, 1.1);
  against(
    '  the same, each create starting its browser (no spare)',
    sandboxed.roundTrip,
    launch,
    1.1,
  );
  against('pool lease refilled: acquire, connect, goto, release', session.refilled, launch, 0.25);
  against(
    'pool of 2 back to back: acquire, connect, goto, release',
    session.backToBack,
    launch,
    0.6,
  );
  // Leases back to back come in two kinds (a replacement ready in time, or one waited for), so
  // their p50 lands on either; the mean is the rate a fleet gets.
  const backToBackMean =
    session.backToBack.reduce((sum, value) => sum + value, 0) / session.backToBack.length;
  console.log(
    `    their mean: ${backToBackMean.toFixed(1)} ms, ${(backToBackMean / launch).toFixed(2)}x (a lease every ${backToBackMean.toFixed(0)} ms)`,
  );
  against(
    `screenshot 1280x720 through the CDP URL (direct ${quantile(direct.screenshot, 0.5).toFixed(1)} ms)`,
    session.screenshot,
    quantile(direct.screenshot, 0.5),
    1.15,
  );
  for (const [label, of, target] of [
    ['small DevTools answer', (figures: SpeedFigures) => figures.smallAnswer, 0.5],
    ['1 MiB DevTools answer', (figures: SpeedFigures) => figures.largeAnswer, undefined],
  ] as const) {
    const added = quantile(of(session), 0.5) - quantile(of(direct), 0.5);
    console.log(
      `  ${label.padEnd(54)} ${ms(quantile(of(session), 0.5))}  direct ${quantile(of(direct), 0.5).toFixed(2)} ms: ${added >= 0 ? '+' : ''}${added.toFixed(2)} ms${target === undefined ? '' : `  target <= +${target} ms ${added <= target ? 'OK' : 'OVER'}`}`,
    );
  }
  const best = Math.min(...sandboxed.typing);
  console.log(
    `typing ${TYPED} characters at delay 0 (sandboxed): ${best.toFixed(0)} ms, ${((TYPED / best) * 1000).toFixed(0)} characters/s (best of 3; on host ${((TYPED / Math.min(...bare.typing)) * 1000).toFixed(0)})`,
  );
} finally {
  site.close();
}
