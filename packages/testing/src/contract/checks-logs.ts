import { type ContractCheck, defineChecks } from './check.js';
import { expect } from './context.js';
import { createBrowser } from './resources.js';

interface Line {
  readonly event: string;
  readonly message: string;
  readonly timestamp: string;
}

/** Logs: the lines of a file on the instance, and the session's own service log. */
export const logChecks: readonly ContractCheck[] = defineChecks('logs', {
  'a log file is streamed line by line, then followed, a file written anew from its start': async (
    context,
  ) => {
    const { session_id: id } = await createBrowser(context);
    const file = '/home/browser/contract.log';
    const write = async (text: string) =>
      context.expectSuccess(
        await context.call(
          'PUT',
          `/browsers/${id}/fs/write_file?path=${encodeURIComponent(file)}`,
          {
            body: new TextEncoder().encode(text),
            headers: { 'content-type': 'application/octet-stream' },
          },
        ),
        'browsers.fs.writeFile',
        201,
      );
    await write('first\n\nsecond\n');
    const whole = await context.stream(
      `/browsers/${id}/logs/stream?source=path&follow=false&path=${encodeURIComponent(file)}`,
    );
    const lines = [(await whole.next()) as Line, (await whole.next()) as Line];
    const end = await whole.next();
    whole.close();
    expect(
      lines.map((line) => line.message).join(',') === 'first,second' && end === undefined,
      `follow=false sent ${JSON.stringify(lines)} then ${JSON.stringify(end)}, not first, second and the end`,
    );
    expect(
      lines.every((line) => line.event === 'log' && !Number.isNaN(Date.parse(line.timestamp))),
      `a log line is ${JSON.stringify(lines[0])}: no event "log" and a timestamp`,
    );
    const followed = await context.stream(
      `/browsers/${id}/logs/stream?source=path&path=${encodeURIComponent(file)}`,
    );
    try {
      // write_file makes a new file: followed as tail -F follows a name, from its start.
      await write('third\nfourth\n');
      const next = [(await followed.next()) as Line, (await followed.next()) as Line];
      expect(
        next.map((line) => line?.message).join(',') === 'third,fourth',
        `a followed file written anew sent ${JSON.stringify(next)}, not third and fourth`,
      );
    } finally {
      followed.close();
    }
  },
  'a log stream refuses what read_file refuses, and an unknown browser': async (context) => {
    const { session_id: id } = await createBrowser(context);
    const open = async (query: string) => {
      const stream = await context.stream(`/browsers/${id}/logs/stream?${query}`);
      stream.close();
      return stream.status;
    };
    for (const [query, status] of [
      ['source=path&path=/home/browser/missing.log', 404],
      ['source=path&path=/home/browser', 400],
      ['source=path&path=/etc/passwd', 400],
      ['source=path&path=relative.log', 400],
      ['source=path', 400],
      ['source=journal', 400],
    ] as const) {
      const answer = await open(query);
      expect(answer === status, `logs/stream?${query} answered ${answer}, not ${status}`);
    }
    context.expectError(
      await context.call('GET', '/browsers/br_contract_missing/logs/stream?source=supervisor'),
      404,
      'not_found',
    );
  },
  'the session log holds the service’s lines about the session': async (context) => {
    const { session_id: id } = await createBrowser(context);
    const stream = await context.stream(
      `/browsers/${id}/logs/stream?source=supervisor&supervisor_process=service&follow=false`,
    );
    const first = (await stream.next()) as Line | undefined;
    stream.close();
    expect(
      first?.event === 'log' && first.message.includes(id),
      `the session's service log began with ${JSON.stringify(first)}, not a line naming ${id}`,
    );
  },
});
