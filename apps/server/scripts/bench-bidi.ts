/**
 * WebDriver BiDi against CDP on the same browser, from one run on loopback: p50 and p99 of 200
 * `script.evaluate` round trips over `webdriver_ws_url` against 200 `Runtime.evaluate` round
 * trips over `cdp_ws_url` (the same expression, the same tab), and how long a BiDi connection
 * takes to be ready (its mapper starts in the session's sandbox) against a CDP connection.
 * Target: BiDi p50 ≤ 1.5× CDP.
 *
 * Run: pnpm --filter @x/server bench:bidi   (after a build)
 */
import { rmSync } from 'node:fs';
import { WebSocket } from 'ws';
import { benchServer, quantile, timingLine, timings } from './bench-support.ts';

const { dataDir, server, call } = await benchServer('bidi');

/** A WebSocket that answers commands by id (CDP's and BiDi's messages both carry one). */
async function commander(url: string) {
  const socket = new WebSocket(url);
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  const waiting = new Map<number, (message: Record<string, unknown>) => void>();
  socket.on('message', (data) => {
    const message = JSON.parse(data.toString()) as Record<string, unknown>;
    const id = message.id as number;
    waiting.get(id)?.(message);
    waiting.delete(id);
  });
  let nextId = 1;
  return {
    send(method: string, params: Record<string, unknown>, sessionId?: string) {
      const id = nextId++;
      socket.send(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }));
      return new Promise<Record<string, unknown>>((resolve) => waiting.set(id, resolve));
    },
    close: () => socket.close(),
  };
}

const line = (name: string, times: number[]) => timingLine(name, times, 44);

try {
  const session = await call<{ session_id: string; cdp_ws_url: string; webdriver_ws_url: string }>(
    'POST',
    '/browsers',
    {},
  );
  let started = performance.now();
  const cdp = await commander(session.cdp_ws_url);
  const { result: targets } = (await cdp.send('Target.getTargets', {})) as {
    result: { targetInfos: { targetId: string; type: string }[] };
  };
  const page = targets.targetInfos.find((target) => target.type === 'page');
  const { result: attached } = (await cdp.send('Target.attachToTarget', {
    targetId: page?.targetId,
    flatten: true,
  })) as { result: { sessionId: string } };
  const cdpReadyMs = performance.now() - started;
  started = performance.now();
  const bidi = await commander(session.webdriver_ws_url);
  await bidi.send('session.new', { capabilities: {} });
  const { result: tree } = (await bidi.send('browsingContext.getTree', {})) as {
    result: { contexts: { context: string }[] };
  };
  const bidiReadyMs = performance.now() - started;
  const context = tree.contexts[0]?.context;
  const overCdp = await timings(200, () =>
    cdp.send('Runtime.evaluate', { expression: '6 * 7', returnByValue: true }, attached.sessionId),
  );
  const overBidi = await timings(200, () =>
    bidi.send('script.evaluate', { expression: '6 * 7', target: { context }, awaitPromise: false }),
  );
  console.log(
    `connection ready: CDP (connect, attach) ${cdpReadyMs.toFixed(0)} ms, BiDi (connect, session.new, getTree) ${bidiReadyMs.toFixed(0)} ms`,
  );
  console.log(line('CDP Runtime.evaluate over cdp_ws_url', overCdp));
  console.log(line('BiDi script.evaluate over webdriver_ws_url', overBidi));
  console.log(
    `ratio BiDi / CDP (p50)`.padEnd(44) +
      ` ${(quantile(overBidi, 0.5) / quantile(overCdp, 0.5)).toFixed(2)}x   target: <= 1.5x`,
  );
  cdp.close();
  bidi.close();
} finally {
  await server.close();
  rmSync(dataDir, { recursive: true, force: true });
}
