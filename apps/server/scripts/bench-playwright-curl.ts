/**
 * Code and requests run beside a browser (Playwright, curl), from one run on loopback:
 * - Playwright execute of `return 1`: the first call (which starts the session's worker) and then
 *   p50 and p99 of 100 warm calls, against the floor in the same run: an API call that does no
 *   work beyond finding the browser (`get_mouse_position`).
 * - curl through the browser of a small page and of a 1 MiB body on a loopback site, against
 *   the same requests made with Node's `fetch` on the host, in the same run.
 *
 * Run: pnpm --filter @x/server bench:playwright-curl   (after a build)
 */
import { rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { benchServer, quantile, timingLine, timings } from './bench-support.ts';

const { dataDir, server, call } = await benchServer('playwright-curl');

// A loopback site: a small page, and a 1 MiB body.
const MEBIBYTE = Buffer.alloc(1024 * 1024, 120);
const site = createServer((request, response) => {
  response.setHeader('content-type', 'text/plain');
  response.end(request.url === '/big' ? MEBIBYTE : 'hello');
});
await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;

const line = (name: string, times: number[]) => timingLine(name, times, 48);

try {
  const { session_id: id } = await call<{ session_id: string }>('POST', '/browsers', {});
  const execute = () =>
    call<{ success: boolean }>('POST', `/browsers/${id}/playwright/execute`, { code: 'return 1' });
  const first = performance.now();
  if (!(await execute()).success) throw new Error('return 1 failed');
  const firstMs = performance.now() - first;
  const warm = await timings(100, execute);
  const floor = await timings(100, () =>
    call('POST', `/browsers/${id}/computer/get_mouse_position`),
  );
  console.log(`Playwright execute, first call (starts the worker)   ${firstMs.toFixed(0)} ms`);
  console.log(line('Playwright execute `return 1`, warm', warm));
  console.log(line('floor: an API call that does no work', floor));
  console.log(
    `ratio warm execute / floor (p50)                      ${(quantile(warm, 0.5) / quantile(floor, 0.5)).toFixed(2)}x   target: p50 <= 50 ms`,
  );
  for (const [name, path] of [
    ['small page', '/'],
    ['1 MiB body', '/big'],
  ] as const) {
    const curl = await timings(30, () =>
      call('POST', `/browsers/${id}/curl`, { url: `${origin}${path}` }),
    );
    const direct = await timings(30, async () => (await fetch(`${origin}${path}`)).arrayBuffer());
    console.log(line(`curl through the browser, ${name}`, curl));
    console.log(line(`Node fetch on the host, ${name}`, direct));
    console.log(
      `ratio curl / fetch, ${name} (p50)`.padEnd(55) +
        `${(quantile(curl, 0.5) / quantile(direct, 0.5)).toFixed(2)}x`,
    );
  }
} finally {
  await server.close();
  site.closeAllConnections();
  site.close();
  rmSync(dataDir, { recursive: true, force: true });
}
