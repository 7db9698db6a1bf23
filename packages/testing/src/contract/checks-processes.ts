import { type ContractCheck, defineChecks } from './check.js';
import { expect } from './context.js';
import { createBrowser } from './resources.js';

const decode = (base64: string) => Buffer.from(base64, 'base64').toString('utf8');

/** Processes (4.6) and filesystem watches (4.7) on a browser's instance. */
export const processChecks: readonly ContractCheck[] = defineChecks('processes', {
  'exec runs a command to its end with its output in base64': async (context) => {
    const { session_id: id } = await createBrowser(context);
    const answer = await context.call('POST', `/browsers/${id}/process/exec`, {
      json: { command: 'echo', args: ['hello', 'contract'] },
    });
    const result = context.expectSuccess<{ exit_code: number; stdout_b64: string }>(
      answer,
      'browsers.process.exec',
      200,
    );
    expect(result.exit_code === 0, `echo exited ${result.exit_code}`);
    expect(
      decode(result.stdout_b64) === 'hello contract\n',
      `stdout is ${JSON.stringify(decode(result.stdout_b64))}`,
    );
  },
  'spawn, status (4.6) while running, kill, then status after exit': async (context) => {
    const { session_id: id } = await createBrowser(context);
    const spawned = context.expectSuccess<{ process_id: string }>(
      await context.call('POST', `/browsers/${id}/process/spawn`, {
        json: { command: 'sleep', args: ['30'] },
      }),
      'browsers.process.spawn',
      200,
    );
    const statusPath = `/browsers/${id}/process/${spawned.process_id}/status`;
    const running = context.expectSuccess<{
      state: string;
      exit_code: number | null;
      mem_bytes: number;
    }>(await context.call('GET', statusPath), 'browsers.process.status', 200);
    expect(
      running.state === 'running' && running.exit_code === null,
      `a sleeping process reads ${JSON.stringify(running)}`,
    );
    const killed = await context.call(
      'POST',
      `/browsers/${id}/process/${spawned.process_id}/kill`,
      { json: { signal: 'TERM' } },
    );
    context.expectSuccess(killed, 'browsers.process.kill', 200);
    let status = running;
    // Well short of the 30 s the command sleeps, and a loaded machine's start of its sandbox.
    const deadline = Date.now() + 15_000;
    while (status.state === 'running' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      status = context.expectSuccess(
        await context.call('GET', statusPath),
        'browsers.process.status',
        200,
      );
    }
    expect(status.state === 'exited', 'the process still runs after TERM');
    expect(
      status.exit_code === 143,
      `a TERM-killed process reports exit_code ${status.exit_code}, not 143`,
    );
    expect(status.mem_bytes === 0, `an exited process reports mem_bytes ${status.mem_bytes}`);
  },
  'the output stream carries stdout, then the exit': async (context) => {
    const { session_id: id } = await createBrowser(context);
    const spawned = context.expectSuccess<{ process_id: string }>(
      await context.call('POST', `/browsers/${id}/process/spawn`, {
        json: { command: 'echo', args: ['streamed'] },
      }),
      'browsers.process.spawn',
      200,
    );
    const stream = await context.stream(
      `/browsers/${id}/process/${spawned.process_id}/stdout/stream`,
    );
    expect(stream.status === 200, `the output stream answered ${stream.status}`);
    let stdout = '';
    let exit: { exit_code?: number } | undefined;
    try {
      for (let event = await stream.next(); event !== undefined; event = await stream.next()) {
        const typed = event as { type: string; data_b64?: string; exit_code?: number };
        if (typed.type === 'stdout') stdout += decode(typed.data_b64 ?? '');
        if (typed.type === 'exit') {
          exit = typed;
          break;
        }
      }
    } finally {
      stream.close();
    }
    expect(stdout === 'streamed\n', `the stream carried stdout ${JSON.stringify(stdout)}`);
    expect(exit?.exit_code === 0, `the stream ended with ${JSON.stringify(exit)}`);
  },
  'a cwd outside /home/browser is 400, an unknown process 404': async (context) => {
    const { session_id: id } = await createBrowser(context);
    const outside = await context.call('POST', `/browsers/${id}/process/exec`, {
      json: { command: 'true', cwd: '/home/browser/../../etc' },
    });
    context.expectError(outside, 400, 'bad_request');
    context.expectError(
      await context.call('GET', `/browsers/${id}/process/proc_nothere/status`),
      404,
      'not_found',
    );
  },
  'a watch (4.7) sees a file created in the folder, stops with 204, and a second stop is 404':
    async (context) => {
      const { session_id: id } = await createBrowser(context);
      const watch = context.expectSuccess<{ watch_id: string }>(
        await context.call('POST', `/browsers/${id}/fs/watch`, {
          json: { path: '/home/browser/Downloads' },
        }),
        'browsers.fs.watch.start',
        201,
      );
      const watchPath = `/browsers/${id}/fs/watch/${watch.watch_id}`;
      const stream = await context.stream(`${watchPath}/events`);
      try {
        expect(stream.status === 200, `the events stream answered ${stream.status}`);
        const touched = await context.call('POST', `/browsers/${id}/process/exec`, {
          json: { command: 'touch', args: ['/home/browser/Downloads/contract.txt'] },
        });
        context.expectSuccess(touched, 'browsers.process.exec', 200);
        const event = (await stream.next()) as { type?: string; path?: string } | undefined;
        expect(
          event?.type === 'CREATE' && event.path === '/home/browser/Downloads/contract.txt',
          `the first event is ${JSON.stringify(event)}`,
        );
        context.expectSuccess(
          await context.call('DELETE', watchPath),
          'browsers.fs.watch.stop',
          204,
        );
        // Events of the touch already on their way may still arrive (a WRITE after the CREATE);
        // then the stream must end.
        let rest = await stream.next().catch((error: Error) => error.message);
        for (let count = 0; count < 10 && typeof rest === 'object' && rest !== null; count++) {
          const late = rest as { path?: string };
          expect(
            late.path === '/home/browser/Downloads/contract.txt',
            `an unexpected event after the stop: ${JSON.stringify(rest)}`,
          );
          rest = await stream.next().catch((error: Error) => error.message);
        }
        expect(
          rest === undefined,
          `the stream did not end when the watch stopped: ${JSON.stringify(rest)}`,
        );
      } finally {
        stream.close();
      }
      context.expectError(await context.call('DELETE', watchPath), 404, 'not_found');
    },
  'a watch outside /home/browser is 400, a missing folder 404': async (context) => {
    const { session_id: id } = await createBrowser(context);
    const start = (path: string) =>
      context.call('POST', `/browsers/${id}/fs/watch`, { json: { path } });
    context.expectError(await start('/etc'), 400, 'bad_request');
    context.expectError(await start('/home/browser/../../etc'), 400, 'bad_request');
    context.expectError(await start('/home/browser/no-such-folder'), 404, 'not_found');
  },
  'stdin reaches a spawned process, and resize is refused without a terminal': async (context) => {
    const { session_id: id } = await createBrowser(context);
    const spawned = context.expectSuccess<{ process_id: string }>(
      await context.call('POST', `/browsers/${id}/process/spawn`, {
        json: { command: 'cat' },
      }),
      'browsers.process.spawn',
      200,
    );
    const where = `/browsers/${id}/process/${spawned.process_id}`;
    const written = context.expectSuccess<{ written_bytes: number }>(
      await context.call('POST', `${where}/stdin`, {
        json: { data_b64: Buffer.from('contract\n').toString('base64') },
      }),
      'browsers.process.stdin',
      200,
    );
    expect(written.written_bytes === 9, `stdin took ${written.written_bytes} bytes, not 9`);
    context.expectError(
      await context.call('POST', `${where}/resize`, { json: { rows: 10, cols: 10 } }),
      400,
      'bad_request',
    );
    context.expectSuccess(
      await context.call('POST', `${where}/kill`, { json: { signal: 'KILL' } }),
      'browsers.process.kill',
      200,
    );
  },
  'a process on a terminal can be resized': async (context) => {
    const { session_id: id } = await createBrowser(context);
    const spawned = context.expectSuccess<{ process_id: string }>(
      await context.call('POST', `/browsers/${id}/process/spawn`, {
        json: { command: 'cat', allocate_tty: true, rows: 24, cols: 80 },
      }),
      'browsers.process.spawn',
      200,
    );
    const where = `/browsers/${id}/process/${spawned.process_id}`;
    context.expectSuccess(
      await context.call('POST', `${where}/resize`, { json: { rows: 40, cols: 132 } }),
      'browsers.process.resize',
      200,
    );
    context.expectSuccess(
      await context.call('POST', `${where}/kill`, { json: { signal: 'KILL' } }),
      'browsers.process.kill',
      200,
    );
  },
});
