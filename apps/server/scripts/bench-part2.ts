/**
 * Figures of watches and uploads on the self-hosted server, from one run:
 * - watch event latency, from a file written in the instance to its event on the SSE stream:
 *   p50 and p99 of 100 writes;
 * - upload of a 50 MiB extension archive (and a 5 MiB one, to see memory stay flat) to xb-server
 *   in a child process: throughput, and growth of its peak resident memory (VmHWM, reset before
 *   each upload); the baseline is a bare node:http server piping the request body to a file.
 *
 * Run: pnpm --filter @x/server bench:part2   (after a build)
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, openAsBlob, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { zipSync } from 'fflate';
import { BENCH_TOKEN, benchServer, quantile } from './bench-support.ts';

const { dataDir, server, call } = await benchServer('2');
const headers = { authorization: `Bearer ${BENCH_TOKEN}` };

try {
  // Watch latency: files written into the instance's Downloads, timed to their events. (What
  // recording costs is measured by bench-live-view.ts, with the live view it shares its screen with.)
  const { session_id: id } = await call<{ session_id: string }>('POST', '/browsers', {});
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

  // Uploads, to a server of its own in a child process whose memory is read from /proc.
  const uploads = await measureUploads();
  const [big, small] = [uploads.xb[50], uploads.xb[5]];
  const bare = uploads.bare[50];
  const smallYoung = uploads.xbSmallYoung[50];

  console.log(`server on ${process.version}, Debian Chromium, loopback`);
  console.log(
    `watch event latency, write to event (100 writes): p50 ${quantile(latencies, 0.5).toFixed(1)} ms, p99 ${quantile(latencies, 0.99).toFixed(1)} ms`,
  );
  console.log(
    `upload of 50 MiB (median of 3): xb-server ${big.throughput.toFixed(0)} MiB/s, peak RSS growth ${big.growth.toFixed(1)} MiB (${small.growth.toFixed(1)} MiB for 5 MiB); bare node:http piping the body to a file ${bare.throughput.toFixed(0)} MiB/s, ${bare.growth.toFixed(1)} MiB: ${(bare.throughput / big.throughput).toFixed(2)}x the time`,
  );
  console.log(
    `  the same with --max-semi-space-size=1 (V8's young generation kept to 1 MiB): ${smallYoung.throughput.toFixed(0)} MiB/s, peak RSS growth ${smallYoung.growth.toFixed(1)} MiB`,
  );
} finally {
  await server.close();
  rmSync(dataDir, { recursive: true, force: true });
}

/** A child process serving on loopback; resolves once it prints its URL. */
async function serveFrom(args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, args, {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const found = /(http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];
      if (found) resolve(found);
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}: ${output}`)));
  });
  return { url, pid: child.pid as number, stop: () => child.kill('SIGTERM') };
}

/** Resident memory of a process now and at its peak since the last reset, in MiB. */
function residentMemory(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kilobytes = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1]);
  return { rss: kilobytes('VmRSS') / 1024, peak: kilobytes('VmHWM') / 1024 };
}

/** Uploads of 5 and 50 MiB archives to xb-server and to a bare server: throughput and peak growth. */
async function measureUploads() {
  const folder = mkdtempSync(join(tmpdir(), 'xb-bench-upload-'));
  const sizes = [1, 5, 50] as const;
  const rounds = 3;
  /** A zip of random, so incompressible, bytes: as large as its content, and new every time. */
  const archive = (mebibytes: number, round: number) => {
    const path = join(folder, `${mebibytes}-${round}.zip`);
    writeFileSync(
      path,
      zipSync(
        {
          'manifest.json': new TextEncoder().encode(
            '{"manifest_version":3,"name":"big","version":"1"}',
          ),
          'blob.bin': randomBytes(mebibytes * 1024 * 1024 - 4096),
        },
        { level: 0 },
      ),
    );
    return path;
  };
  const bareScript = `
    const { createServer } = require('node:http');
    const { createWriteStream } = require('node:fs');
    const { pipeline } = require('node:stream/promises');
    let count = 0;
    const server = createServer(async (request, response) => {
      await pipeline(request, createWriteStream(process.env.TARGET + '/upload-' + count++));
      response.writeHead(201, { 'content-type': 'application/json' }).end('{}');
    });
    server.listen(0, '127.0.0.1', () => console.log('http://127.0.0.1:' + server.address().port));`;
  const xbServer = (data: string, nodeOptions: string) =>
    serveFrom([join(import.meta.dirname, '../dist/main.js')], {
      XB_DATA_DIR: join(folder, data),
      XB_PORT: '0',
      XB_ALLOW_NETWORKS: '127.0.0.1/32',
      XB_HOST: '127.0.0.1',
      XB_TOKENS: BENCH_TOKEN,
      XB_LOG_LEVEL: 'silent',
      NODE_OPTIONS: nodeOptions,
    });
  const targets = {
    xb: await xbServer('data', ''),
    // The same server with a 1 MiB young generation: what V8 keeps of short-lived garbage.
    xbSmallYoung: await xbServer('data-small-young', '--max-semi-space-size=1'),
    bare: await serveFrom(['-e', bareScript], { TARGET: folder }),
  };
  type Name = keyof typeof targets;
  const names = Object.keys(targets) as Name[];
  type Figures = { throughput: number; growth: number };
  const results = Object.fromEntries(names.map((name) => [name, {}])) as Record<
    Name,
    Record<number, Figures>
  >;
  try {
    for (const mebibytes of sizes) {
      const samples = Object.fromEntries(names.map((name) => [name, [] as Figures[]])) as Record<
        Name,
        Figures[]
      >;
      for (let round = 0; round < rounds; round++) {
        const path = archive(mebibytes, round);
        for (const name of names) {
          const target = targets[name];
          const form = new FormData();
          // A File backed by disk: the client streams it and holds none of it.
          form.set('file', await openAsBlob(path), 'extension.zip');
          const before = residentMemory(target.pid);
          writeFileSync(`/proc/${target.pid}/clear_refs`, '5'); // Resets the peak to the RSS now.
          const started = performance.now();
          const answer = await fetch(`${target.url}/extensions`, {
            method: 'POST',
            headers,
            body: form,
          });
          const seconds = (performance.now() - started) / 1000;
          if (answer.status !== 201)
            throw new Error(`upload: ${answer.status} ${await answer.text()}`);
          samples[name].push({
            throughput: mebibytes / seconds,
            growth: residentMemory(target.pid).peak - before.rss,
          });
        }
        rmSync(path);
      }
      // The median of the rounds; the 1 MiB uploads warm the servers up and are not reported.
      for (const name of names) {
        results[name][mebibytes] = {
          throughput: quantile(
            samples[name].map((sample) => sample.throughput),
            0.5,
          ),
          growth: quantile(
            samples[name].map((sample) => sample.growth),
            0.5,
          ),
        };
      }
    }
  } finally {
    for (const target of Object.values(targets)) target.stop();
    rmSync(folder, { recursive: true, force: true });
  }
  return results as Record<Name, Record<1 | 5 | 50, Figures>>;
}
