import { errorStatus } from '@x/testing';
import { useFakeService } from '@x/testing/vitest';
import { ExecResultSchema, ProcessStatusSchema, SpawnedProcessSchema } from '@x/types';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { onlyJson, TRANSPORTS, xbAgainst } from '../test-support/run-xb.js';

const fake = useFakeService({ listen: true });

describe.each(TRANSPORTS)('process and fs commands (%s)', (_, overHttp) => {
  const { run, newBrowser } = xbAgainst(fake, overHttp);

  it('process exec prints the command’s output; --json the whole result', async () => {
    const id = await newBrowser();
    expect(await run(['process', 'exec', id, 'echo', 'hello', 'world'])).toMatchObject({
      code: 0,
      stdout: 'hello world\n',
      stderr: '',
    });
    const failed = await run(['process', 'exec', id, 'false']);
    expect(failed).toMatchObject({ code: 0, stdout: '', stderr: 'exit code 1\n' });
    const json = v.parse(
      ExecResultSchema,
      onlyJson((await run(['process', 'exec', id, 'echo', 'x', '--json'])).stdout),
    );
    expect(Buffer.from(json.stdout_b64, 'base64').toString()).toBe('x\n');
    // Arguments that look like flags go after --.
    expect((await run(['process', 'exec', id, 'echo', '--', '-n', 'dash'])).stdout).toBe(
      '-n dash\n',
    );
  });

  it('process spawn, status, kill and status --watch', async () => {
    const id = await newBrowser();
    const spawned = await run(['process', 'spawn', id, 'sleep', '30', '--timeout-sec', '60']);
    expect(spawned.stdout).toMatch(/^✓ Started process proc_\w+ \(pid \d+\)\.\n$/);
    const { process_id } = v.parse(
      SpawnedProcessSchema,
      onlyJson((await run(['process', 'spawn', id, 'sleep', '30', '--json'])).stdout),
    );
    expect((await run(['process', 'status', id, process_id])).stdout).toMatch(
      /^running {2}cpu 0\.5% {2}mem 4\.0 MiB\n$/,
    );
    const watching = run(['process', 'status', id, process_id, '--watch', '--json']);
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect(await run(['process', 'kill', id, process_id, '--signal', 'KILL'])).toMatchObject({
      code: 0,
      stdout: `✓ Sent KILL to process ${process_id}.\n`,
    });
    const watched = await watching;
    const lines = watched.stdout
      .trim()
      .split('\n')
      .map((line) => v.parse(ProcessStatusSchema, JSON.parse(line)));
    expect(lines.length).toBeGreaterThanOrEqual(2);
    expect(lines.at(0)?.state).toBe('running');
    expect(lines.at(-1)).toMatchObject({ state: 'exited', exit_code: 137 });
  });

  it('process output streams stdout and stderr, then the exit; --json one event per line', async () => {
    const id = await newBrowser();
    fake.scriptProcess('job', { stdout: 'out\n', stderr: 'err\n', exitCode: 4 });
    const { process_id } = onlyJson(
      (await run(['process', 'spawn', id, 'job', '--json'])).stdout,
    ) as { process_id: string };
    expect(await run(['process', 'output', id, process_id])).toMatchObject({
      code: 0,
      stdout: 'out\n',
      stderr: 'err\nexited 4\n',
    });
    const json = await run(['process', 'output', id, process_id, '--json']);
    expect(
      json.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line).type),
    ).toEqual(['stdout', 'stderr', 'exit']);
  });

  it('fs watch prints changes until Ctrl-C, then stops the watch; fs unwatch stops one', async () => {
    const id = await newBrowser();
    const controller = new AbortController();
    const opened = fake.journal.count('browsers.fs.watch.events');
    const watching = run(['fs', 'watch', id, '/home/browser/Downloads', '--json'], {
      signal: controller.signal,
    });
    // The events are emitted once it reads the watch's stream (by the journal, not the clock).
    await expect
      .poll(() => fake.journal.count('browsers.fs.watch.events'), { timeout: 10_000 })
      .toBeGreaterThan(opened);
    fake.emitFsEvent(id, { type: 'CREATE', path: '/home/browser/Downloads/a.pdf' });
    fake.emitFsEvent(id, { type: 'DELETE', path: '/home/browser/Downloads/a.pdf' });
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    controller.abort();
    const watched = await watching;
    expect(watched.code).toBe(130);
    expect(
      watched.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line)),
    ).toEqual([
      { type: 'CREATE', path: '/home/browser/Downloads/a.pdf', name: 'a.pdf' },
      { type: 'DELETE', path: '/home/browser/Downloads/a.pdf', name: 'a.pdf' },
    ]);
    expect(watched.stderr).toBe('error: Interrupted.\n');
    fake.journal.assertCalled('browsers.fs.watch.stop', { times: 1 });
    expect(
      [...(fake.state.browsers.get(id)?.watches.values() ?? [])].every(
        (watch) => watch.events.isClosed,
      ),
    ).toBe(true);

    const started = await fake.fetch(`${fake.url}/browsers/${id}/fs/watch`, {
      method: 'POST',
      headers: { authorization: `Bearer ${fake.tokens.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ path: '/home/browser' }),
    });
    const { watch_id } = (await started.json()) as { watch_id: string };
    expect(await run(['fs', 'unwatch', id, watch_id])).toMatchObject({
      code: 0,
      stdout: `✓ Stopped watch ${watch_id}.\n`,
    });
    expect((await run(['fs', 'unwatch', id, watch_id])).code).toBe(5);
  });

  it('fs watch of a path outside /home/browser is exit 3 with the service’s reason', async () => {
    const id = await newBrowser();
    const outside = await run(['fs', 'watch', id, '/etc']);
    expect(outside.code).toBe(3);
    expect(outside.stderr).toMatch(
      /path must be inside \/home\/browser.*bad_request, request req_/,
    );
  });
});

describe('process attach', () => {
  it('sends what is typed to the process, prints what it writes, follows the size, and ends with it', async () => {
    const { run, newBrowser } = xbAgainst(fake, true);
    const id = await newBrowser();
    const { process_id } = v.parse(
      SpawnedProcessSchema,
      onlyJson((await run(['process', 'spawn', id, 'cat', '--allocate-tty', '--json'])).stdout),
    );
    const modes: boolean[] = [];
    const attached = run(['process', 'attach', id, process_id], {
      stdin: 'hello\n',
      terminal: {
        setRawMode: (isRaw: boolean) => modes.push(isRaw),
        size: () => ({ rows: 33, cols: 99 }),
        onResize: () => () => undefined,
      },
    });
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    await run(['process', 'kill', id, process_id, '--signal', 'KILL']);
    const result = await attached;
    expect(result.stdout).toBe('hello\n');
    expect(result.stderr).toBe('exited 137\n');
    expect(modes).toEqual([true, false]);
  });

  it('fails, saying why, when what is typed cannot be sent', async () => {
    const { run, newBrowser } = xbAgainst(fake, true);
    const id = await newBrowser();
    const { process_id } = v.parse(
      SpawnedProcessSchema,
      onlyJson((await run(['process', 'spawn', id, 'cat', '--allocate-tty', '--json'])).stdout),
    );
    const refused = fake.inject(
      errorStatus(403, { code: 'forbidden', message: 'This token may only read.' }),
      { operation: 'browsers.process.stdin' },
    );
    try {
      const result = await run(['process', 'attach', id, process_id], {
        stdin: 'hello\n',
        terminal: {
          setRawMode: () => undefined,
          size: () => ({ rows: 24, cols: 80 }),
          onResize: () => () => undefined,
        },
      });
      expect(result.code).not.toBe(0);
      expect(result.stderr).toMatch(/This token may only read/);
    } finally {
      refused.remove();
      await run(['process', 'kill', id, process_id, '--signal', 'KILL']);
    }
  });
});
