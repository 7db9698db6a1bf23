import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { shellRunner, useTestServer } from '../test-support/servers.js';

// Small budgets so the bounds show with trees of a few dozen folders.
const test = useTestServer({ XB_WATCH_ENTRIES_PER_BROWSER: '100', XB_WATCH_ENTRIES: '150' });
const shell = shellRunner(() => test.server.url);
type OpenStream = Awaited<ReturnType<typeof test.api.stream>>;

/** A folder of the host the sessions' links point at: nothing of it may reach a session. */
const canary = mkdtempSync(join(tmpdir(), 'xb-watch-canary-'));
mkdirSync(join(canary, 'sub'));
afterAll(() => rmSync(canary, { recursive: true, force: true }));

async function newBrowser(): Promise<string> {
  return ((await test.api.call('POST', '/browsers', { json: {} })).json as { session_id: string })
    .session_id;
}

function startWatch(id: string, path: string, recursive = false) {
  return test.api.call('POST', `/browsers/${id}/fs/watch`, { json: { path, recursive } });
}

/** The next event of a stream within `ms`, undefined when none came (or the stream ended). */
async function nextWithin(stream: OpenStream, ms: number): Promise<unknown> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  try {
    return await Promise.race([stream.next(), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Inotify watches this process (the server runs in it) holds. */
function serverInotifyWatches(): number {
  let count = 0;
  for (const fd of readdirSync('/proc/self/fdinfo')) {
    try {
      const info = readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8');
      count += info.split('\n').filter((line) => line.startsWith('inotify wd:')).length;
    } catch {
      // closed meanwhile
    }
  }
  return count;
}

describe('a watch or a process start looks at the session, never at the host', () => {
  it('answers a link to a host folder the same whether that folder exists or not', async () => {
    const id = await newBrowser();
    try {
      await shell(
        id,
        `ln -s /etc there && ln -s /no-such-host-folder-xb nothere && ln -s /home/browser/Downloads inside`,
      );
      for (const path of ['/home/browser/there', '/home/browser/nothere']) {
        const watch = await startWatch(id, path);
        expect(watch.status, path).toBe(400);
        expect((watch.json as { message: string }).message).toMatch(/inside \/home\/browser/);
        const spawn = await test.api.call('POST', `/browsers/${id}/process/exec`, {
          json: { command: 'true', cwd: path },
        });
        expect(spawn.status, path).toBe(400);
      }
      // Control: a link that stays in the home is followed.
      expect((await startWatch(id, '/home/browser/inside')).status).toBe(201);
      const inside = await test.api.call('POST', `/browsers/${id}/process/exec`, {
        json: { command: 'pwd', cwd: '/home/browser/inside' },
      });
      expect(inside.status).toBe(200);
    } finally {
      await test.api.call('DELETE', `/browsers/${id}`);
    }
  });

  it('never watches a host folder while the session swaps a folder of the path for a link', async () => {
    const id = await newBrowser();
    const started: OpenStream[] = [];
    try {
      // The attack: real and fake (a link to the host's canary) trade names atomically in a tight
      // loop (renameat2 RENAME_EXCHANGE, from perl, which every Debian has), so real/sub is a
      // folder of the home one moment and the host's canary/sub the next.
      await shell(id, `mkdir -p real/sub && ln -s ${canary} fake`);
      const renameat2 = process.arch === 'arm64' ? 276 : 316;
      const swapper = await test.api.call('POST', `/browsers/${id}/process/spawn`, {
        json: {
          command: 'perl',
          args: [
            '-e',
            'my ($a, $b, $n) = ("real", "fake", $ARGV[0] + 0); while (1) { syscall($n, -100, $a, -100, $b, 2) }',
            String(renameat2),
          ],
        },
      });
      expect(swapper.status).toBe(200);
      const answers = new Map<number, number>();
      // Most starts land mid-swap and are refused; enough attempts that some land between swaps
      // (a busy host makes those rarer), so the check below watches something.
      for (let attempt = 0; attempt < 400 && started.length < 15; attempt++) {
        const watch = await startWatch(id, '/home/browser/real/sub');
        answers.set(watch.status, (answers.get(watch.status) ?? 0) + 1);
        if (watch.status !== 201) continue;
        const { watch_id } = watch.json as { watch_id: string };
        started.push(await test.api.stream(`/browsers/${id}/fs/watch/${watch_id}/events`));
      }
      expect([...answers.keys()].filter((status) => ![201, 400, 404].includes(status))).toEqual([]);
      expect(started.length, JSON.stringify([...answers])).toBeGreaterThan(0);
      writeFileSync(join(canary, 'sub', 'host-secret.txt'), 'x');
      for (const stream of started) {
        for (let event = await nextWithin(stream, 300); event; event = await nextWithin(stream, 50))
          expect(JSON.stringify(event)).not.toContain('host-secret');
      }
    } finally {
      for (const stream of started) stream.close();
      await test.api.call('DELETE', `/browsers/${id}`);
    }
  });

  it('watches from the sandbox: the server itself holds no inotify watch for a recursive one', async () => {
    const id = await newBrowser();
    try {
      await shell(id, 'mkdir -p tree && cd tree && seq 30 | xargs mkdir');
      const before = serverInotifyWatches();
      const watch = await startWatch(id, '/home/browser/tree', true);
      expect(watch.status).toBe(201);
      expect(serverInotifyWatches()).toBe(before);
    } finally {
      await test.api.call('DELETE', `/browsers/${id}`);
    }
  });
});

describe('watches are bounded in inotify entries, per browser and in all', () => {
  it('refuses a tree larger than a browser may watch (413), and takes it not recursively', async () => {
    const id = await newBrowser();
    try {
      await shell(id, 'mkdir big && cd big && seq 120 | xargs mkdir');
      const watch = await startWatch(id, '/home/browser/big', true);
      expect(watch.status).toBe(413);
      expect((watch.json as { message: string }).message).toMatch(/more than 100 directories/);
      expect((await startWatch(id, '/home/browser/big', false)).status).toBe(201);
    } finally {
      await test.api.call('DELETE', `/browsers/${id}`);
    }
  });

  it("refuses a watch the browser's other watches leave no room for (409), until one stops", async () => {
    const id = await newBrowser();
    try {
      await shell(id, 'mkdir tree && cd tree && seq 39 | xargs mkdir');
      const first = await startWatch(id, '/home/browser/tree', true); // 40 folders: holds 80
      expect(first.status).toBe(201);
      const second = await startWatch(id, '/home/browser/tree', true);
      expect(second.status).toBe(409);
      expect((second.json as { message: string }).message).toMatch(/needs 40 inotify entries/);
      const { watch_id } = first.json as { watch_id: string };
      await test.api.call('DELETE', `/browsers/${id}/fs/watch/${watch_id}`);
      expect((await startWatch(id, '/home/browser/tree', true)).status).toBe(201);
    } finally {
      await test.api.call('DELETE', `/browsers/${id}`);
    }
  });

  it('ends a watch that outgrows what it reserved, and still reports what came before', async () => {
    const id = await newBrowser();
    try {
      await shell(id, 'mkdir tree');
      const watch = await startWatch(id, '/home/browser/tree', true); // 1 folder: holds 65
      expect(watch.status).toBe(201);
      const { watch_id } = watch.json as { watch_id: string };
      const stream = await test.api.stream(`/browsers/${id}/fs/watch/${watch_id}/events`);
      try {
        await shell(id, 'cd tree && seq 80 | xargs mkdir');
        // The stream ends (next() would throw after the time-out if it did not).
        const paths: string[] = [];
        for (let event = await stream.next(); event; event = await stream.next())
          paths.push((event as { path: string }).path);
        expect(paths).toContain('/home/browser/tree/1');
        const stop = await test.api.call('DELETE', `/browsers/${id}/fs/watch/${watch_id}`);
        expect(stop.status).toBe(404);
      } finally {
        stream.close();
      }
    } finally {
      await test.api.call('DELETE', `/browsers/${id}`);
    }
  });

  it('refuses a watch past what every browser may hold together (503), and frees it at the end', async () => {
    const [a, b] = [await newBrowser(), await newBrowser()];
    try {
      for (const id of [a, b]) await shell(id, 'mkdir tree && cd tree && seq 39 | xargs mkdir');
      expect((await startWatch(a, '/home/browser/tree', true)).status).toBe(201); // holds 80
      expect((await startWatch(b, '/home/browser/tree', true)).status).toBe(201); // holds the 70 left
      const past = await startWatch(b, '/home/browser', false);
      expect(past.status).toBe(503);
      expect(past.headers.get('retry-after')).toBe('5');
      await test.api.call('DELETE', `/browsers/${a}`);
      expect((await startWatch(b, '/home/browser', false)).status).toBe(201);
    } finally {
      await test.api.call('DELETE', `/browsers/${a}`);
      await test.api.call('DELETE', `/browsers/${b}`);
    }
  });
});
