/**
 * Figures of recordings, watches and uploads on the self-hosted server, from one run:
 * - CPU cost of recording at 10 fps: CPU time of the browser's processes and ffmpeg over 10 s
 *   of an animated page, recording vs the same browser not recording (in % of one core);
 * - watch event latency, from a file written in the instance to its event on the SSE stream:
 *   p50 and p99 of 100 writes;
 * - upload of a 50 MiB extension archive: throughput, and peak growth of the server's memory
 *   (heap and buffers; the server runs in this process).
 *
 * Run: pnpm --filter @x/server bench:part2   (after a build)
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { zipSync } from 'fflate';
import pino from 'pino';
import { readConfig, startServer } from '../dist/index.js';

const TOKEN = 'bench-token';
const dataDir = mkdtempSync(join(tmpdir(), 'xb-bench2-'));
const server = await startServer(
  readConfig({ XB_DATA_DIR: dataDir, XB_PORT: '0', XB_TOKENS: TOKEN }),
  pino({ level: 'silent' }),
);
const headers = { authorization: `Bearer ${TOKEN}` };
const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { ...headers, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
};
const quantile = (values: number[], q: number) =>
  [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) * q)] ?? 0;

/** CPU ticks (1/100 s) of every process whose command line mentions `text`. */
function ticksOf(text: string): number {
  let ticks = 0;
  for (const entry of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      if (!readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(text)) continue;
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // It ended while it was read.
    }
  }
  return ticks;
}

async function cpuOver(seconds: number): Promise<number> {
  const before = ticksOf(dataDir);
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  return ((ticksOf(dataDir) - before) / 100 / seconds) * 100;
}

try {
  // Recording cost: an animated page, first not recording, then recording at 10 fps.
  const { session_id: id } = await call<{ session_id: string }>('POST', '/browsers', {
    viewport: { width: 1280, height: 720 },
  });
  // An animated page, so the screencast has frames to send.
  await call('POST', `/browsers/${id}/computer/type`, { text: '' });
  const page = await fetch(`${server.url}/browsers/${id}`, { headers }).then(
    (response) => response.json() as Promise<{ cdp_ws_url: string }>,
  );
  const cdp = new WebSocket(page.cdp_ws_url);
  await new Promise((resolve) => cdp.addEventListener('open', resolve, { once: true }));
  let nextId = 1;
  const send = (method: string, params: unknown, sessionId?: string) =>
    new Promise<{ result?: Record<string, unknown> }>((resolve) => {
      const messageId = nextId++;
      const listener = (event: MessageEvent) => {
        const message = JSON.parse(String(event.data)) as {
          id?: number;
          result?: Record<string, unknown>;
        };
        if (message.id !== messageId) return;
        cdp.removeEventListener('message', listener);
        resolve(message);
      };
      cdp.addEventListener('message', listener);
      cdp.send(
        JSON.stringify({ id: messageId, method, params, ...(sessionId ? { sessionId } : {}) }),
      );
    });
  const targets = (await send('Target.getTargets', {})).result?.targetInfos as {
    targetId: string;
    type: string;
  }[];
  const target = targets.find((candidate) => candidate.type === 'page')?.targetId;
  const sessionId = (await send('Target.attachToTarget', { targetId: target, flatten: true }))
    .result?.sessionId as string;
  await send(
    'Runtime.evaluate',
    {
      expression: `document.body.innerHTML = '<div style="width:200px;height:200px;background:teal;animation:s 1s linear infinite"></div><style>@keyframes s{to{transform:rotate(360deg)}}</style>'`,
    },
    sessionId,
  );
  cdp.close();
  const idle = await cpuOver(10);
  const { replay_id } = await call<{ replay_id: string }>('POST', `/browsers/${id}/replays`, {
    framerate: 10,
  });
  const recording = await cpuOver(10);
  await call('POST', `/browsers/${id}/replays/${replay_id}/stop`);

  // Watch latency: files written into the instance's Downloads, timed to their events.
  const { watch_id } = await call<{ watch_id: string }>('POST', `/browsers/${id}/fs/watch`, {
    path: '/home/browser/Downloads',
  });
  const stream = await fetch(`${server.url}/browsers/${id}/fs/watch/${watch_id}/events`, {
    headers,
  });
  const reader = (stream.body as ReadableStream<Uint8Array>)
    .pipeThrough(new TextDecoderStream() as unknown as ReadableWritablePair<string, Uint8Array>)
    .getReader();
  const downloads = join(dataDir, 'instances', id, 'home', 'Downloads');
  const latencies: number[] = [];
  let buffer = '';
  for (let index = 0; index < 100; index++) {
    const name = `f${index}.txt`;
    const started = performance.now();
    writeFileSync(join(downloads, name), 'x');
    while (!buffer.includes(`"${name}"`)) buffer += (await reader.read()).value ?? '';
    latencies.push(performance.now() - started);
    buffer = buffer.slice(buffer.lastIndexOf(`"${name}"`));
  }
  await reader.cancel();
  await call('DELETE', `/browsers/${id}`);

  // A 50 MiB upload: an archive of random (so incompressible) bytes.
  const archive = zipSync(
    {
      'manifest.json': new TextEncoder().encode(
        '{"manifest_version":3,"name":"big","version":"1"}',
      ),
      'blob.bin': randomBytes(50 * 1024 * 1024 - 4096),
    },
    { level: 0 },
  );
  const memory = () => {
    const usage = process.memoryUsage();
    return usage.heapUsed + usage.arrayBuffers;
  };
  const form = new FormData();
  form.set('file', new Blob([archive as Uint8Array<ArrayBuffer>]), 'big.zip');
  const before = memory();
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, memory());
  }, 10);
  const started = performance.now();
  const answer = await fetch(`${server.url}/extensions`, { method: 'POST', headers, body: form });
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  if (answer.status !== 201) throw new Error(`upload: ${answer.status} ${await answer.text()}`);
  const megabytes = archive.byteLength / 1024 / 1024;

  console.log(`server on ${process.version}, Debian Chromium, loopback`);
  console.log(
    `recording at 10 fps: browser + ffmpeg ${recording.toFixed(0)}% of a core vs ${idle.toFixed(0)}% not recording (+${(recording - idle).toFixed(0)} points)`,
  );
  console.log(
    `watch event latency, write to event (100 writes): p50 ${quantile(latencies, 0.5).toFixed(1)} ms, p99 ${quantile(latencies, 0.99).toFixed(1)} ms`,
  );
  console.log(
    `upload of ${megabytes.toFixed(0)} MiB: ${(megabytes / seconds).toFixed(0)} MiB/s; peak growth of the process's heap and buffers ${((peak - before) / 1024 / 1024).toFixed(0)} MiB (the archive itself, held by this process, is ${megabytes.toFixed(0)} MiB)`,
  );
} finally {
  await server.close();
  rmSync(dataDir, { recursive: true, force: true });
}
