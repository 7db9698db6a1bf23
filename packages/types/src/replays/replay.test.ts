import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { InvocationSchema, UpdateInvocationBodySchema } from '../invocations/invocation.js';
import { ReplaySchema, StartReplayBodySchema } from './replay.js';

describe('replays', () => {
  it('reads a replay while recording and once finished', () => {
    expect(v.is(ReplaySchema, { replay_id: 'r1', started_at: '2026-11-22T10:00:00.000Z' })).toBe(
      true,
    );
    expect(
      v.is(ReplaySchema, {
        replay_id: 'r1',
        started_at: '2026-11-22T10:00:00.000Z',
        finished_at: '2026-11-22T10:00:05.000Z',
        replay_view_url: 'http://127.0.0.1:8080/browsers/b/replays/r1',
      }),
    ).toBe(true);
    expect(v.is(ReplaySchema, { replay_id: 'r1', started_at: 'now' })).toBe(false);
  });

  it('defaults the frame rate to 10 and bounds it to 1–30', () => {
    expect(v.parse(StartReplayBodySchema, undefined)).toEqual({ framerate: 10 });
    expect(v.is(StartReplayBodySchema, { framerate: 31 })).toBe(false);
    expect(v.is(StartReplayBodySchema, { framerate: 0 })).toBe(false);
    expect(v.is(StartReplayBodySchema, { max_duration_in_seconds: 0 })).toBe(false);
  });
});

describe('invocations', () => {
  it('reads an invocation and accepts only an ending status on update', () => {
    expect(
      v.is(InvocationSchema, {
        id: 'inv_1',
        action_name: 'checkout',
        app_name: 'shop',
        version: 'latest',
        status: 'running',
        started_at: '2026-11-22T10:00:00.000Z',
      }),
    ).toBe(true);
    expect(v.is(UpdateInvocationBodySchema, { status: 'succeeded' })).toBe(true);
    expect(v.is(UpdateInvocationBodySchema, { status: 'running' })).toBe(false);
  });
});
