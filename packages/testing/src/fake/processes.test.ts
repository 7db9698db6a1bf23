import type { ProcessStatus } from '@x/types';
import { describe, expect, it } from 'vitest';
import { apiOf } from '../test-support/api.js';
import { fakeService, newBrowser } from '../test-support/fakes.js';

async function waitFor<T>(
  read: () => Promise<T>,
  isDone: (value: T) => boolean,
  timeoutMs = 3000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (isDone(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** A fake with one browser running `sleep seconds`. */
async function sleepingProcess(seconds: string) {
  const fake = fakeService();
  const { session_id: id } = await newBrowser(fake);
  const api = apiOf(fake);
  const answer = await api.call('POST', `/browsers/${id}/process/spawn`, {
    json: { command: 'sleep', args: [seconds] },
  });
  return { fake, api, id, process_id: (answer.json as { process_id: string }).process_id };
}

describe('processes', () => {
  it('follow the lifecycle a test scripts: running with set figures, output, then the exit code', async () => {
    const fake = fakeService({
      scripts: { worker: { runForMs: Number.POSITIVE_INFINITY, cpuPct: 42, memBytes: 1234 } },
    });
    const { session_id: id } = await newBrowser(fake);
    const api = apiOf(fake);
    const { process_id } = (
      await api.call('POST', `/browsers/${id}/process/spawn`, { json: { command: 'worker' } })
    ).json as { process_id: string };
    const status = () =>
      api
        .call('GET', `/browsers/${id}/process/${process_id}/status`)
        .then((answer) => answer.json as ProcessStatus);
    expect(await status()).toEqual({
      state: 'running',
      exit_code: null,
      cpu_pct: 42,
      mem_bytes: 1234,
    });
    fake.setProcessUsage(process_id, { cpu_pct: 99.5 });
    expect((await status()).cpu_pct).toBe(99.5);

    const stream = await api.stream(`/browsers/${id}/process/${process_id}/stdout/stream`);
    fake.writeProcessOutput(process_id, 'stdout', 'line 1\n');
    fake.writeProcessOutput(process_id, 'stderr', 'warn\n');
    fake.exitProcess(process_id, 3);
    const events = [];
    for (let event = await stream.next(); event !== undefined; event = await stream.next())
      events.push(event);
    expect(events).toEqual([
      { type: 'stdout', data_b64: Buffer.from('line 1\n').toString('base64') },
      { type: 'stderr', data_b64: Buffer.from('warn\n').toString('base64') },
      { type: 'exit', exit_code: 3 },
    ]);
    expect(await status()).toEqual({ state: 'exited', exit_code: 3, cpu_pct: 0, mem_bytes: 0 });
  });

  it('scripts may depend on the invocation', async () => {
    const fake = fakeService();
    fake.scriptProcess('greet', ({ args, cwd }) => ({
      stdout: `hi ${args[0]} from ${cwd}\n`,
      exitCode: 5,
    }));
    const { session_id: id } = await newBrowser(fake);
    const answer = await apiOf(fake).call('POST', `/browsers/${id}/process/exec`, {
      json: { command: 'greet', args: ['ana'], cwd: 'Downloads' },
    });
    const result = answer.json as { exit_code: number; stdout_b64: string };
    expect(result.exit_code).toBe(5);
    expect(Buffer.from(result.stdout_b64, 'base64').toString()).toBe(
      'hi ana from /home/browser/Downloads\n',
    );
  });

  it('enforces timeout_sec by killing the process (137)', async () => {
    const fake = fakeService();
    const { session_id: id } = await newBrowser(fake);
    const started = performance.now();
    const answer = await apiOf(fake).call('POST', `/browsers/${id}/process/exec`, {
      json: { command: 'sleep', args: ['60'], timeout_sec: 1 },
    });
    expect((answer.json as { exit_code: number }).exit_code).toBe(137);
    expect(performance.now() - started).toBeGreaterThanOrEqual(990);
  });

  it('reports 128+signal after a kill and 127 for an unknown command', async () => {
    const { api, id, process_id } = await sleepingProcess('30');
    await api.call('POST', `/browsers/${id}/process/${process_id}/kill`, {
      json: { signal: 'INT' },
    });
    const status = (await api.call('GET', `/browsers/${id}/process/${process_id}/status`))
      .json as ProcessStatus;
    expect(status.exit_code).toBe(130);
    const missing = (
      await api.call('POST', `/browsers/${id}/process/exec`, { json: { command: 'nope' } })
    ).json as { exit_code: number };
    expect(missing.exit_code).toBe(127);
  });

  it('die with their browser', async () => {
    const { fake, api, id, process_id } = await sleepingProcess('30');
    await api.call('DELETE', `/browsers/${id}`);
    const process = fake.state.browsers.get(id)?.processes.get(process_id);
    expect(process?.state).toBe('exited');
    expect(process?.exitCode).toBe(137);
  });

  it('answer 403 when process execution is turned off', async () => {
    const fake = fakeService({ processExecution: false });
    const { session_id: id } = await newBrowser(fake);
    const answer = await apiOf(fake).call('POST', `/browsers/${id}/process/exec`, {
      json: { command: 'true' },
    });
    expect(answer.status).toBe(403);
    expect(answer.json).toMatchObject({ code: 'forbidden' });
  });

  it('sleep ends by itself', async () => {
    const { api, id, process_id } = await sleepingProcess('0.1');
    const status = await waitFor(
      () =>
        api
          .call('GET', `/browsers/${id}/process/${process_id}/status`)
          .then((answer) => answer.json as ProcessStatus),
      (value) => value.state === 'exited',
    );
    expect(status).toMatchObject({ state: 'exited', exit_code: 0 });
  });
});
