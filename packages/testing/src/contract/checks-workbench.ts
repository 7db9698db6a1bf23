import { type ContractCheck, defineChecks } from './check.js';
import { expect } from './context.js';
import { createBrowser } from './resources.js';

interface Outcome {
  readonly success: boolean;
  readonly result?: unknown;
  readonly error?: string;
}

interface Envelope {
  readonly seq: number;
  readonly event: {
    readonly category: string;
    readonly type: string;
    readonly ts: number;
    readonly data?: Record<string, unknown>;
  };
}

interface Line {
  readonly event: string;
  readonly message: string;
  readonly timestamp: string;
}

/** The instance as a workbench: Playwright code beside the browser, its logs, curl, telemetry. */
export const workbenchChecks: readonly ContractCheck[] = defineChecks('workbench', {
  'playwright execute returns what the code returns': async (context) => {
    const { session_id: id } = await createBrowser(context);
    const outcome = context.expectSuccess<Outcome>(
      await context.call('POST', `/browsers/${id}/playwright/execute`, {
        json: { code: 'return {"answer": 42}' },
      }),
      'browsers.playwright.execute',
      200,
    );
    expect(
      outcome.success === true && JSON.stringify(outcome.result) === '{"answer":42}',
      `return {"answer": 42} came back as ${JSON.stringify(outcome)}`,
    );
  },
  'playwright execute answers a thrown error as 200 with success false': async (context) => {
    const { session_id: id } = await createBrowser(context);
    const outcome = context.expectSuccess<Outcome>(
      await context.call('POST', `/browsers/${id}/playwright/execute`, {
        json: { code: 'throw new Error("contract failure")' },
      }),
      'browsers.playwright.execute',
      200,
    );
    expect(
      outcome.success === false && outcome.error === 'contract failure',
      `a thrown error came back as ${JSON.stringify(outcome)}`,
    );
  },
  'playwright execute refuses a time-out out of bounds and an unknown browser': async (context) => {
    const { session_id: id } = await createBrowser(context);
    context.expectError(
      await context.call('POST', `/browsers/${id}/playwright/execute`, {
        json: { code: 'return 1', timeout_sec: 301 },
      }),
      400,
      'bad_request',
    );
    context.expectError(
      await context.call('POST', '/browsers/br_contract_missing/playwright/execute', {
        json: { code: 'return 1' },
      }),
      404,
      'not_found',
    );
  },
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
  'curl refuses what is not http, answers 502 for a host that is not there': async (context) => {
    const { session_id: id } = await createBrowser(context);
    for (const json of [
      { url: 'ftp://example.com/' },
      { url: 'not a url' },
      { url: 'https://example.com/', method: 'TRACE' },
      { url: 'https://example.com/', timeout_ms: 0 },
      { url: 'https://example.com/', headers: { 'bad name': 'x' } },
    ]) {
      context.expectError(
        await context.call('POST', `/browsers/${id}/curl`, { json }),
        400,
        'bad_request',
      );
    }
    const nowhere = await context.call('POST', `/browsers/${id}/curl`, {
      json: { url: 'http://xb-contract.invalid/', timeout_ms: 20_000 },
    });
    context.expectError(nowhere, 502, 'bad_gateway');
    expect(
      nowhere.text.includes('xb-contract.invalid'),
      `a failed curl does not name its URL: ${nowhere.text.slice(0, 300)}`,
    );
    context.expectError(
      await context.call('POST', '/browsers/br_contract_missing/curl', {
        json: { url: 'https://example.com/' },
      }),
      404,
      'not_found',
    );
  },
  'telemetry keeps the calls on a session, pages them by sequence number and streams them with resume':
    async (context) => {
      const { session_id: id, telemetry } = await createBrowser(context, { telemetry: {} });
      expect(
        telemetry !== undefined && telemetry.browser.control?.enabled === true,
        `telemetry: {} made ${JSON.stringify(telemetry)}, not the operational categories`,
      );
      for (let step = 0; step < 3; step++) {
        context.expectSuccess(
          await context.call('POST', `/browsers/${id}/computer/move_mouse`, {
            json: { x: 10 + step, y: 10 },
          }),
          'browsers.computer.moveMouse',
          204,
        );
      }
      const path = `/browsers/${id}/telemetry/events?category=control`;
      const first = await context.call('GET', `${path}&limit=2`);
      const page = context.expectSuccess<Envelope[]>(first, 'browsers.telemetry.events', 200);
      expect(
        page.map((envelope) => envelope.seq).join(',') === '1,2' &&
          page.every(
            ({ event }) =>
              event.type === 'api_call' &&
              event.data?.operation_id === 'browsers.computer.moveMouse',
          ),
        `the first page of control events is ${JSON.stringify(page)}, not api_calls 1 and 2`,
      );
      const next = first.headers.get('x-next-offset');
      expect(
        first.headers.get('x-has-more') === 'true' && next === '3',
        `after events 1 and 2 X-Has-More is ${first.headers.get('x-has-more')} and X-Next-Offset ${next}, not true and 3`,
      );
      const rest = context.expectSuccess<Envelope[]>(
        await context.call('GET', `${path}&limit=2&offset=${next}`),
        'browsers.telemetry.events',
        200,
      );
      expect(
        rest.map((envelope) => envelope.seq).join(',') === '3',
        `the page at offset 3 is ${JSON.stringify(rest.map((envelope) => envelope.seq))}, not [3]`,
      );
      const replayed = await context.stream(`/browsers/${id}/telemetry/stream?replay=all`);
      const oldest = (await replayed.next()) as Envelope | undefined;
      replayed.close();
      expect(oldest?.seq === 1, `replay=all began with ${JSON.stringify(oldest)}, not event 1`);
      const resumed = await context.stream(`/browsers/${id}/telemetry/stream`, {
        'last-event-id': '2',
      });
      const after = (await resumed.next()) as Envelope | undefined;
      resumed.close();
      expect(
        after?.seq === 3,
        `Last-Event-ID: 2 went on with ${JSON.stringify(after)}, not event 3`,
      );
      context.expectError(
        await context.call('GET', `/browsers/${id}/telemetry/events?order=sideways`),
        400,
        'bad_request',
      );
      context.expectError(
        await context.call('GET', '/browsers/br_contract_missing/telemetry/events'),
        404,
        'not_found',
      );
    },
});
