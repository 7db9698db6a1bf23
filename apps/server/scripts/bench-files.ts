/**
 * Throughput of files through the self-hosted server, from one run on loopback:
 * - `write_file` and `read_file` of one 200 MiB file (the best of 3 each), with curl as the client
 *   in a process of its own;
 * - the floor, in the same run with the same client and the same bytes: a bare `node:http` server
 *   that streams a PUT into a file and a GET out of it, on the same disk (the server's data dir);
 * - the ratio of the two (1.0 = the bare stream), and the server's live memory at its peak above
 *   where it started (sampled after each garbage collection), to show nothing is held.
 * What the server adds: authentication, routing, the session's sandbox (bubblewrap) and the file
 * written under a temporary name and renamed.
 *
 * Run: pnpm --filter @x/server bench:files   (after a build)
 */
import { execFile } from 'node:child_process';
import { createReadStream, createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import pino from 'pino';
import { readConfig, startServer } from '../dist/index.js';
import { apiCaller } from './bench-support.ts';

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;
const run = promisify(execFile);
const sh = async (script: string) => (await run('sh', ['-c', script])).stdout.trim();

const TOKEN = 'bench-token';
const SIZE = 200 * 1024 * 1024;
const ROUNDS = 3;
const dataDir = mkdtempSync(join(tmpdir(), 'xb-bench-files-'));
const source = join(dataDir, 'source.bin');
const bareFile = join(dataDir, 'bare.bin');
await sh(`head -c ${SIZE} /dev/urandom > '${source}'`);

const server = await startServer(
  readConfig({
    XB_ALLOW_NETWORKS: '127.0.0.1/32',
    XB_DATA_DIR: dataDir,
    XB_PORT: '0',
    XB_TOKENS: TOKEN,
  }),
  pino({ level: 'silent' }),
);
const call = apiCaller(server.url, TOKEN);

// The floor: a PUT streamed into a file, a GET streamed out of it.
const bare = createServer((request, response) => {
  if (request.method === 'PUT') {
    void pipeline(request, createWriteStream(bareFile)).then(() => {
      response.writeHead(201).end();
    });
  } else {
    response.writeHead(200, { 'content-length': String(statSync(bareFile).size) });
    createReadStream(bareFile).pipe(response);
  }
});
await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
const bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}/file`;

let peak = 0;
const sampler = setInterval(() => {
  collectGarbage();
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  peak = Math.max(peak, heapUsed + arrayBuffers);
}, 200);

/** The best of ROUNDS timings of a shell command, in seconds. */
async function best(script: string): Promise<number> {
  let fastest = Number.POSITIVE_INFINITY;
  for (let round = 0; round < ROUNDS; round++) {
    const started = performance.now();
    await sh(script);
    fastest = Math.min(fastest, (performance.now() - started) / 1000);
  }
  return fastest;
}

try {
  const { session_id: id } = await call<{ session_id: string }>('POST', '/browsers', {});
  const fileUrl = (operation: string) =>
    `${server.url}/browsers/${id}/fs/${operation}?path=%2Fhome%2Fbrowser%2Fbench.bin`;
  const auth = `-H 'authorization: Bearer ${TOKEN}'`;
  const put = (url: string) => `curl -sSf -o /dev/null -T '${source}' -X PUT ${auth} '${url}'`;
  const get = (url: string) => `curl -sSf -o /dev/null ${auth} '${url}'`;

  collectGarbage();
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  const baseline = heapUsed + arrayBuffers;
  peak = baseline;
  const bareWrite = await best(put(bareUrl));
  const bareRead = await best(get(bareUrl));
  const write = await best(put(fileUrl('write_file')));
  const read = await best(get(fileUrl('read_file')));
  const check = await sh(
    `curl -sSf ${auth} '${fileUrl('read_file')}' | cmp - '${source}' && echo same`,
  );

  const mbps = (seconds: number) => SIZE / 1024 / 1024 / seconds;
  const line = (name: string, seconds: number, floor: number) =>
    `${name.padEnd(34)} ${mbps(seconds).toFixed(0).padStart(6)} MiB/s   bare node:http ${mbps(floor).toFixed(0).padStart(6)} MiB/s   ratio ${(mbps(seconds) / mbps(floor)).toFixed(2)}`;
  console.log(`200 MiB through one session, best of ${ROUNDS}, curl as the client`);
  console.log(line('write_file (PUT)', write, bareWrite));
  console.log(line('read_file (GET)', read, bareRead));
  console.log(`read back equals what was written: ${check === 'same' ? 'yes' : 'NO'}`);
  console.log(
    `server live memory at its peak above its start: ${((peak - baseline) / 1024 / 1024).toFixed(1)} MiB`,
  );
  await call('DELETE', `/browsers/${id}`);
} finally {
  clearInterval(sampler);
  bare.close();
  await server.close();
  rmSync(dataDir, { recursive: true, force: true });
}
