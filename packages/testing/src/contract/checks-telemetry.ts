import { type ContractCheck, defineChecks } from './check.js';
import { expect } from './context.js';
import { createBrowser } from './resources.js';

interface Envelope {
  readonly seq: number;
  readonly event: {
    readonly category: string;
    readonly type: string;
    readonly ts: number;
    readonly data?: Record<string, unknown>;
  };
}

/** Telemetry: the events a session keeps, paged by sequence number and streamed. */
export const telemetryChecks: readonly ContractCheck[] = defineChecks('telemetry', {
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
