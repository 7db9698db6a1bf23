import type { Replay } from '@x/types';
import { describe, expect, it, vi } from 'vitest';
import { apiOf, manualClock } from '../test-support/api.js';
import { fakeService, newBrowser } from '../test-support/fakes.js';
import { replayVideo } from './replays/replay-video.js';

/** The top-level boxes of an MP4 (ISO BMFF), by type. */
function boxes(bytes: Uint8Array): Map<string, Uint8Array> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const found = new Map<string, Uint8Array>();
  for (let offset = 0; offset + 8 <= bytes.byteLength; ) {
    const size = view.getUint32(offset);
    const type = new TextDecoder().decode(bytes.subarray(offset + 4, offset + 8));
    if (size < 8 || offset + size > bytes.byteLength)
      throw new Error(`box ${type} at ${offset} has a bad size ${size}`);
    found.set(type, bytes.subarray(offset + 8, offset + size));
    offset += size;
  }
  return found;
}

/** Duration in seconds from the movie header (mvhd version 0) inside moov. */
function movieDuration(moov: Uint8Array): number {
  const inner = boxes(moov);
  const mvhd = inner.get('mvhd') as Uint8Array;
  const view = new DataView(mvhd.buffer, mvhd.byteOffset, mvhd.byteLength);
  expect(view.getUint8(0)).toBe(0);
  return view.getUint32(16) / view.getUint32(12);
}

describe('replays', () => {
  it('serve a small, valid H.264 MP4 of one second', () => {
    const video = replayVideo();
    const top = boxes(video);
    expect([...top.keys()]).toEqual(['ftyp', 'moov', 'free', 'mdat']);
    expect(movieDuration(top.get('moov') as Uint8Array)).toBeCloseTo(1, 1);
    expect(new TextDecoder().decode(top.get('moov'))).toContain('avc1');
    expect(video.byteLength).toBeLessThan(4096);
  });

  it('stop by themselves at max_duration_in_seconds', async () => {
    const time = manualClock();
    const fake = fakeService({ clock: time.clock });
    const { session_id: id } = await newBrowser(fake, { timeout_seconds: 600 });
    const api = apiOf(fake);
    const replay = (
      await api.call('POST', `/browsers/${id}/replays`, { json: { max_duration_in_seconds: 5 } })
    ).json as Replay;
    time.advance(6_000);
    const [listed] = (await api.call('GET', `/browsers/${id}/replays`)).json as Replay[];
    expect(listed?.finished_at).toBe(new Date(Date.parse(replay.started_at) + 5_000).toISOString());
    expect((await api.call('POST', `/browsers/${id}/replays`, { json: {} })).status).toBe(201);
  });

  it('stopped by their timer, say they lasted their whole duration though it fires early', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const time = manualClock();
      const fake = fakeService({ clock: time.clock });
      const { session_id: id } = await newBrowser(fake, { timeout_seconds: 600 });
      const api = apiOf(fake);
      const replay = (
        await api.call('POST', `/browsers/${id}/replays`, { json: { max_duration_in_seconds: 1 } })
      ).json as Replay;
      // The timer fires while the clock is still a millisecond short of its time.
      time.advance(999);
      await vi.advanceTimersByTimeAsync(1_000);
      const [listed] = (await api.call('GET', `/browsers/${id}/replays`)).json as Replay[];
      expect(listed?.finished_at).toBe(
        new Date(Date.parse(replay.started_at) + 1_000).toISOString(),
      );
    } finally {
      vi.useRealTimers();
    }
  });

  it('outlive their browser: deleting it stops the recording and keeps the video', async () => {
    const fake = fakeService();
    const { session_id: id } = await newBrowser(fake);
    const api = apiOf(fake);
    const replay = (await api.call('POST', `/browsers/${id}/replays`)).json as Replay;
    await api.call('DELETE', `/browsers/${id}`);
    const download = await api.call('GET', `/browsers/${id}/replays/${replay.replay_id}`);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('video/mp4');
    expect(download.bytes).toEqual(replayVideo());
  });
});
