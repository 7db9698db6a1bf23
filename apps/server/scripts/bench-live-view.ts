/**
 * Figures of the live view and the recorder on the self-hosted server, from one run:
 * - frame latency: from a colour change in the session's page (its own clock) to the new colour
 *   drawn on the viewer's canvas (the viewer's clock; both are this machine's), p50 and p95 of 40;
 * - input latency: from a click on the view (its mousedown) to the mousedown in the session's
 *   page, p50 and p95 of 40;
 * - CPU of one session on an animated page with one viewer vs none: the browser's processes and
 *   the server's own, in points of a core over 8 s each;
 * - server memory per viewer: the resident memory of xb-server (a process of its own) with 8
 *   viewers on an animated page vs none, divided by 8 (the viewers are bare WebSockets that
 *   acknowledge each frame, as the page does);
 * - CPU of recording at 10 fps vs not recording (browser + ffmpeg), and of recording while one
 *   viewer watches, on the same animated page (a rotating square: every frame changes, the
 *   worst case); and of recording a still page.
 * The viewer is a separate headless Chromium (Playwright), as a person's browser would be.
 *
 * Run: pnpm --filter @x/server bench:live-view   (after a build)
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readFrameMessage } from '@x/service-kernel';
import { chromium, type Page } from 'playwright-core';
import { launchViewer } from '../src/test-support/viewer.ts';
import { apiCaller, BENCH_TOKEN, benchServer, quantile } from './bench-support.ts';

const { dataDir, server, call } = await benchServer('live');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * CPU ticks (1/100 s) of this process's descendants (the session's sandbox and Chromium, ffmpeg),
 * leaving out the viewer's Chromium, which is a person's machine's cost, not the server's.
 */
function serverChildrenTicks(): number {
  const parents = new Map<number, number>();
  const ticks = new Map<number, number>();
  for (const entry of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes('playwright_chromiumdev_profile'))
        continue;
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parents.set(Number(entry), Number(fields[1]));
      ticks.set(Number(entry), Number(fields[11]) + Number(fields[12]));
    } catch {
      // It ended while it was read.
    }
  }
  let total = 0;
  for (const [pid, used] of ticks) {
    for (let up = parents.get(pid); up !== undefined && up > 1; up = parents.get(up)) {
      if (up === process.pid) {
        total += used;
        break;
      }
    }
  }
  return total;
}

/** Points of a core used over `seconds` by the session's processes (and ffmpeg), and by the server. */
async function cpuOver(seconds: number): Promise<{ browser: number; server: number }> {
  const before = serverChildrenTicks();
  const serverBefore = process.cpuUsage();
  await sleep(seconds * 1000);
  const serverUsed = process.cpuUsage(serverBefore);
  return {
    browser: ((serverChildrenTicks() - before) / 100 / seconds) * 100,
    server: ((serverUsed.user + serverUsed.system) / 1e6 / seconds) * 100,
  };
}

/** Resident memory of a process, bytes. */
function residentBytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? 0) * 1024;
}

/**
 * xb-server as an operator runs it, with `count` viewers (bare WebSockets that acknowledge each
 * frame) on one session's animated page: its resident memory with them vs before them.
 */
async function memoryPerViewer(count: number) {
  const folder = mkdtempSync(join(tmpdir(), 'xb-bench-live-mem-'));
  const child = spawn(
    process.execPath,
    [fileURLToPath(new URL('../dist/main.js', import.meta.url))],
    {
      env: {
        ...process.env,
        XB_DATA_DIR: folder,
        XB_PORT: '0',
        XB_ALLOW_NETWORKS: '127.0.0.1/32',
        XB_TOKENS: BENCH_TOKEN,
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  try {
    let said = '';
    const url = await new Promise<string>((resolve, reject) => {
      child.stderr.on('data', (chunk) => {
        said += chunk;
        const found = /^xb-server listening at (\S+)$/m.exec(said)?.[1];
        if (found) resolve(found);
      });
      child.once('exit', () => reject(new Error(`xb-server ended: ${said}`)));
    });
    const remote = apiCaller(url, BENCH_TOKEN);
    const made = await remote<{ cdp_ws_url: string; browser_live_view_url: string }>(
      'POST',
      '/browsers',
      { viewport: { width: 1280, height: 720 } },
    );
    const driver = await chromium.connectOverCDP(made.cdp_ws_url);
    await driver
      .contexts()[0]
      ?.pages()[0]
      ?.setContent(
        '<div style="width:200px;height:200px;background:teal;animation:s 1s linear infinite"></div><style>@keyframes s{to{transform:rotate(360deg)}}</style>',
      );
    await sleep(2000);
    const idle = residentBytes(child.pid as number);
    const live = new URL(made.browser_live_view_url);
    const sockets = Array.from({ length: count }, () => {
      const socket = new WebSocket(`ws://${live.host}${live.pathname}/ws${live.search}`);
      socket.binaryType = 'arraybuffer';
      socket.addEventListener('open', () =>
        socket.send(JSON.stringify({ type: 'size', width: 800, height: 600 })),
      );
      socket.addEventListener('message', (event) => {
        if (typeof event.data === 'string') return;
        const { seq } = readFrameMessage(new Uint8Array(event.data as ArrayBuffer)).header;
        socket.send(JSON.stringify({ type: 'ack', seq }));
      });
      return socket;
    });
    await sleep(5000);
    const watched = residentBytes(child.pid as number);
    for (const socket of sockets) socket.close();
    await driver.close();
    return { idle, watched, perViewer: (watched - idle) / count };
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    rmSync(folder, { recursive: true, force: true });
  }
}

const viewer = await launchViewer();

async function openView(url: string): Promise<Page> {
  const page = await viewer.newPage({ viewport: { width: 800, height: 600 } });
  await page.goto(url);
  await page.waitForFunction(() => Number(document.getElementById('screen')?.dataset.frames) > 0);
  return page;
}

try {
  const session = await call<{
    session_id: string;
    cdp_ws_url: string;
    browser_live_view_url: string;
  }>('POST', '/browsers', { viewport: { width: 1280, height: 720 } });
  const id = session.session_id;
  const driver = await chromium.connectOverCDP(session.cdp_ws_url);
  const page = driver.contexts()[0]?.pages()[0] as Page;
  await page.setContent(
    `<body style="margin:0;background:rgb(0,0,0)"><script>
      window.downs = [];
      addEventListener('mousedown', () => downs.push(performance.timeOrigin + performance.now()));
    </script></body>`,
  );
  const view = await openView(session.browser_live_view_url);

  // Frame latency: the viewer notes when the middle of its canvas shows each new colour.
  await view.evaluate(() => {
    const canvas = document.getElementById('screen') as HTMLCanvasElement;
    const seen: Record<string, number> = {};
    (window as unknown as { seen: typeof seen }).seen = seen;
    new MutationObserver(() => {
      const ratio = window.devicePixelRatio || 1;
      const [r, g, b] =
        canvas.getContext('2d')?.getImageData(400 * ratio, 300 * ratio, 1, 1).data ?? [];
      const key = `${Math.round((r ?? 0) / 20)},${Math.round((g ?? 0) / 20)},${Math.round((b ?? 0) / 20)}`;
      seen[key] ??= performance.timeOrigin + performance.now();
    }).observe(canvas, { attributes: true, attributeFilter: ['data-seq'] });
  });
  const frameLatencies: number[] = [];
  for (let index = 0; index < 40; index++) {
    // A colour the canvas has not shown yet, distinct at the viewer's rounding.
    const rgb = [20 * (1 + (index % 12)), 20 * (1 + Math.floor(index / 12)), 120] as const;
    const key = rgb.map((value) => Math.round(value / 20)).join(',');
    const changedAt = await page.evaluate((colour) => {
      document.body.style.background = `rgb(${colour.join(',')})`;
      return performance.timeOrigin + performance.now();
    }, rgb);
    const shownAt = await view.waitForFunction(
      (wanted) => (window as unknown as { seen: Record<string, number> }).seen[wanted],
      key,
      { timeout: 10_000 },
    );
    frameLatencies.push(Number(await shownAt.jsonValue()) - changedAt);
    await sleep(100);
  }

  // Input latency: a click on the view, to the mousedown in the session's page.
  await view.evaluate(() => {
    const downs: number[] = [];
    (window as unknown as { downs: number[] }).downs = downs;
    document
      .getElementById('screen')
      ?.addEventListener(
        'mousedown',
        () => downs.push(performance.timeOrigin + performance.now()),
        {
          capture: true,
        },
      );
  });
  const inputLatencies: number[] = [];
  for (let index = 0; index < 40; index++) {
    await view.mouse.click(200 + index * 10, 300);
    await page.waitForFunction(
      (count) => (window as unknown as { downs: number[] }).downs.length > count,
      index,
    );
    const sent = await view.evaluate(
      (at) => (window as unknown as { downs: number[] }).downs[at],
      index,
    );
    const arrived = await page.evaluate(
      (at) => (window as unknown as { downs: number[] }).downs[at],
      index,
    );
    inputLatencies.push((arrived as number) - (sent as number));
    await sleep(50);
  }

  // CPU and memory: an animated page, watched by one viewer, then by none.
  await page.evaluate(() => {
    document.body.innerHTML =
      '<div style="width:200px;height:200px;background:teal;animation:s 1s linear infinite"></div><style>@keyframes s{to{transform:rotate(360deg)}}</style>';
  });
  await sleep(1000);
  const watched = await cpuOver(8);
  await view.close();
  await sleep(1000);
  const unwatched = await cpuOver(8);

  // Recording at 10 fps: not recording, recording, recording with one viewer.
  await sleep(1000);
  const notRecording = await cpuOver(8);
  const { replay_id } = await call<{ replay_id: string }>('POST', `/browsers/${id}/replays`, {
    framerate: 10,
  });
  // Its first two seconds tell the recorder the page animates (see recordScreen): the steady
  // state after is what recording costs.
  await sleep(3000);
  const recording = await cpuOver(8);
  const recordingView = await openView(session.browser_live_view_url);
  await sleep(1000);
  const recordingWatched = await cpuOver(8);
  await recordingView.close();
  await call('POST', `/browsers/${id}/replays/${replay_id}/stop`);
  // The same on a still page: a screen that does not change costs nothing to record.
  await page.setContent('<h1 style="font: 48px sans-serif">A still page</h1>');
  await sleep(1000);
  const stillNotRecording = await cpuOver(8);
  const still = await call<{ replay_id: string }>('POST', `/browsers/${id}/replays`, {
    framerate: 10,
  });
  await sleep(1000);
  const stillRecording = await cpuOver(8);
  await call('POST', `/browsers/${id}/replays/${still.replay_id}/stop`);
  await driver.close();
  await call('DELETE', `/browsers/${id}`);

  const ms = (value: number) => `${value.toFixed(1)} ms`;
  const points = (value: number) => `${value.toFixed(0)}`;
  console.log(`server on ${process.version}, Debian Chromium, loopback; viewer: headless Chromium`);
  console.log(
    `frame latency (page change → viewer canvas, 40): p50 ${ms(quantile(frameLatencies, 0.5))}, p95 ${ms(quantile(frameLatencies, 0.95))} (target p50 ≤ 100 ms)`,
  );
  console.log(
    `input latency (click on view → event in page, 40): p50 ${ms(quantile(inputLatencies, 0.5))}, p95 ${ms(quantile(inputLatencies, 0.95))} (target p50 ≤ 50 ms)`,
  );
  console.log(
    `animated page, one viewer vs none: browser ${points(watched.browser)} vs ${points(unwatched.browser)} points of a core (+${points(watched.browser - unwatched.browser)}), server ${points(watched.server)} vs ${points(unwatched.server)} (+${points(watched.server - unwatched.server)})`,
  );
  const memory = await memoryPerViewer(8);
  console.log(
    `server memory per viewer (8 viewers vs none, xb-server resident): ${(memory.perViewer / 1024).toFixed(0)} KiB (${(memory.idle / 1024 / 1024).toFixed(0)} MiB → ${(memory.watched / 1024 / 1024).toFixed(0)} MiB)`,
  );
  console.log(
    `recording at 10 fps, animated page: browser + ffmpeg ${points(recording.browser)} vs ${points(notRecording.browser)} points not recording (+${points(recording.browser - notRecording.browser)}; target ≤ +40), server +${points(recording.server - notRecording.server)}`,
  );
  console.log(
    `recording at 10 fps, animated page, one viewer: browser + ffmpeg ${points(recordingWatched.browser)} (+${points(recordingWatched.browser - notRecording.browser)} over not recording), server +${points(recordingWatched.server - notRecording.server)}`,
  );
  console.log(
    `recording at 10 fps, still page: browser + ffmpeg ${points(stillRecording.browser)} vs ${points(stillNotRecording.browser)} points not recording (+${points(stillRecording.browser - stillNotRecording.browser)})`,
  );
} finally {
  await viewer.close();
  await server.close();
  rmSync(dataDir, { recursive: true, force: true });
}
