import { MAX_TELEMETRY_EVENT_BYTES, resolveTelemetry, TELEMETRY_RETAINED_EVENTS } from '@x/types';
import { describe, expect, it } from 'vitest';
import { BROWSER, testModel } from '../test-support/memory-engines.js';
import { boundedData, TelemetryLog } from './telemetry-log.js';

const console = (text: string) =>
  ({
    category: 'console',
    type: 'console_log',
    source: { kind: 'cdp', event: 'Runtime.consoleAPICalled' },
    data: { text },
  }) as const;

const firstPage = { offset: 0, limit: 100 };

describe('a telemetry configuration', () => {
  it('captures nothing unless asked, the operational categories by default, more by name', () => {
    expect(resolveTelemetry(undefined)).toBeUndefined();
    expect(resolveTelemetry(null)).toBeUndefined();
    expect(resolveTelemetry({ enabled: false })).toBeUndefined();
    const defaults = resolveTelemetry({});
    expect(defaults?.browser.control).toEqual({ enabled: true });
    expect(defaults?.browser.console).toEqual({ enabled: false });
    const more = resolveTelemetry({
      browser: { console: { enabled: true }, control: { enabled: false } },
    });
    expect(more?.browser.console).toEqual({ enabled: true });
    expect(more?.browser.control).toEqual({ enabled: false });
    // Resolving again changes nothing: a pool keeps it resolved and its browsers resolve it again.
    expect(resolveTelemetry(more)).toEqual(more);
    const none = Object.fromEntries(
      ['control', 'connection', 'system', 'captcha'].map((name) => [name, { enabled: false }]),
    );
    expect(resolveTelemetry({ browser: none })).toBeUndefined();
  });
});

describe('a telemetry log', () => {
  it('keeps the categories it captures, numbered from 1, monitor with a page category', () => {
    const log = new TelemetryLog(['control', 'console'], () => new Date(1_000));
    log.record(console('kept'));
    log.record({ category: 'network', type: 'network_request', source: { kind: 'cdp' } });
    log.record({ category: 'monitor', type: 'monitor_init_failed', source: { kind: 'cdp' } });
    const { items } = log.page(firstPage);
    expect(items.map((item) => [item.seq, item.event.type])).toEqual([
      [1, 'console_log'],
      [2, 'monitor_init_failed'],
    ]);
    expect(items[0]?.event.ts).toBe(1_000_000);
  });

  it(`keeps the newest ${TELEMETRY_RETAINED_EVENTS} events of a flood and bounds each one`, () => {
    const log = new TelemetryLog(['console'], () => new Date());
    for (let index = 0; index < 5_000; index++) log.record(console(`line ${index}`));
    const huge = 'x'.repeat(1_000_000);
    log.record(console(huge));
    expect(log.lastSeq).toBe(5_001);
    expect(log.beforeOldest).toBe(5_001 - TELEMETRY_RETAINED_EVENTS);
    const newest = log.page({ ...firstPage, order: 'desc', limit: 1 }).items[0];
    expect(newest?.event.truncated).toBe(true);
    expect(JSON.stringify(newest?.event.data).length).toBeLessThanOrEqual(
      MAX_TELEMETRY_EVENT_BYTES,
    );
    expect(boundedData({ text: 'short' })).toEqual({ data: { text: 'short' } });
  });

  it('pages by sequence number, either way, filtered before it is cut', () => {
    let now = 0;
    const log = new TelemetryLog(['control', 'console'], () => new Date(now));
    for (let index = 1; index <= 10; index++) {
      now = index * 1_000;
      log.record(
        index % 2 === 0
          ? console(`${index}`)
          : { category: 'control', type: 'api_call', source: { kind: 'kernel_api' } },
      );
    }
    const first = log.page({ offset: 0, limit: 3, category: ['console'] });
    expect(first.items.map((item) => item.seq)).toEqual([2, 4, 6]);
    expect(first.headers).toEqual({ 'x-has-more': 'true', 'x-next-offset': '7' });
    const second = log.page({ offset: 7, limit: 3, category: ['console'] });
    expect(second.items.map((item) => item.seq)).toEqual([8, 10]);
    expect(second.headers).toEqual({ 'x-has-more': 'false' });
    const back = log.page({ offset: 0, limit: 4, order: 'desc' });
    expect(back.items.map((item) => item.seq)).toEqual([10, 9, 8, 7]);
    expect(log.page({ offset: 7, limit: 4, order: 'desc' }).items.map((item) => item.seq)).toEqual([
      6, 5, 4, 3,
    ]);
    now = 10_500;
    // 5 s ago: the events from 5.5 s on; until 2 s ago: before 8.5 s.
    const window = log.page({ offset: 0, limit: 100, since: '5s', until: '2s' });
    expect(window.items.map((item) => item.seq)).toEqual([6, 7, 8]);
    const at = log.page({ offset: 0, limit: 100, since: new Date(9_000).toISOString() });
    expect(at.items.map((item) => item.seq)).toEqual([9, 10]);
  });

  it('follows new events, resumes after a sequence number, and skips what a slow reader lost', async () => {
    const log = new TelemetryLog(['console'], () => new Date());
    const stop = new AbortController();
    const follower = log.follow(0, stop.signal);
    const first = follower.next();
    log.record(console('a'));
    expect((await first).value).toMatchObject({ seq: 1 });
    log.record(console('b'));
    log.record(console('c'));
    const resumed = log.follow(2, stop.signal);
    expect((await resumed.next()).value).toMatchObject({ seq: 3 });
    for (let index = 0; index < TELEMETRY_RETAINED_EVENTS + 10; index++) log.record(console('x'));
    // The reader was at 1: events 2..13 were dropped meanwhile; it goes on at the oldest kept.
    expect((await follower.next()).value).toMatchObject({ seq: 14 });
    const waiting = log.follow(log.lastSeq, stop.signal).next();
    stop.abort();
    expect(await waiting).toEqual({ done: true, value: undefined });
  });
});

describe('telemetry of a session', () => {
  it('is what the session was created with, and a stream counts among its streams', async () => {
    const { model } = testModel();
    const plain = await model.browsers.create(BROWSER, 'http://localhost:1');
    expect(plain.record.telemetry).toBeUndefined();
    const watched = await model.browsers.create(
      { ...BROWSER, telemetry: { browser: { console: { enabled: true } } } },
      'http://localhost:1',
    );
    const id = watched.record.session_id;
    expect(watched.record.telemetry?.browser.console).toEqual({ enabled: true });
    watched.telemetry.record(console('hello'));
    plain.telemetry.record(console('dropped'));
    expect((await model.telemetry.page(id, firstPage)).items).toHaveLength(1);
    expect((await model.telemetry.page(plain.record.session_id, firstPage)).items).toEqual([]);
    const streams = [];
    for (let index = 0; index < 16; index++) streams.push(new AbortController());
    const opened = streams.map((stop) => model.telemetry.open(id, { replay: 'all' })(stop.signal));
    expect(() => model.telemetry.open(id, {})).toThrow(/16 log and telemetry streams/);
    expect((await opened[0]?.next())?.value).toMatchObject({ seq: 1 });
    for (const stop of streams) stop.abort();
    expect(() => model.telemetry.open(id, {})).not.toThrow();
    await model.browsers.delete(id);
    expect((await model.telemetry.page(id, firstPage)).items).toEqual([]);
    await expect(model.telemetry.page('br_unknown', firstPage)).rejects.toThrow(
      /No browser session/,
    );
  });
});
