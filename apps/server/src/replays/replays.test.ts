import { spawnSync } from 'node:child_process';
import { mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ContractContext } from '@x/testing';
import type { Replay } from '@x/types';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../server.js';
import { processesNaming } from '../test-support/processes.js';
import { TEST_TOKEN, testConfig, useTestServer } from '../test-support/servers.js';

const test = useTestServer();

/** Duration of an MP4 in seconds, as ffprobe reads it. */
function probedDuration(video: Uint8Array): number {
  const file = join(mkdtempSync(join(tmpdir(), 'xb-probe-')), 'replay.mp4');
  writeFileSync(file, video);
  const result = spawnSync(
    'ffprobe',
    ['-v', 'error', '-show_entries', 'format=duration:stream=codec_name', '-of', 'json', file],
    { encoding: 'utf8' },
  );
  const probe = JSON.parse(result.stdout) as {
    format: { duration: string };
    streams: { codec_name: string }[];
  };
  expect(probe.streams[0]?.codec_name).toBe('h264');
  return Number(probe.format.duration);
}

describe('replays on the server', () => {
  it('record a playable H.264 MP4 whose duration is within 10% of the time recorded', async () => {
    const id = (
      (
        await test.api.call('POST', '/browsers', {
          json: { viewport: { width: 640, height: 360 } },
        })
      ).json as { session_id: string }
    ).session_id;
    const replay = (
      await test.api.call('POST', `/browsers/${id}/replays`, { json: { framerate: 10 } })
    ).json as Replay;
    // Eight seconds or so: the first frame's start-up (a few tenths of a second on a busy
    // machine) stays well inside the 10%.
    for (let index = 0; index < 8; index++) {
      await test.api.call('POST', `/browsers/${id}/computer/type`, {
        json: { text: `line ${index}\n` },
      });
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
    const stopped = (
      await test.api.call('POST', `/browsers/${id}/replays/${replay.replay_id}/stop`)
    ).json as Replay;
    // The time recorded as the replay says it: from its start to the stop (the stop's answer also
    // waits for the video to be finalized, which is not recorded time).
    const recorded = (Date.parse(stopped.finished_at ?? '') - Date.parse(replay.started_at)) / 1000;
    expect(recorded).toBeGreaterThan(8);
    const download = await test.api.call('GET', `/browsers/${id}/replays/${replay.replay_id}`);
    expect(download.status).toBe(200);
    expect(Math.abs(probedDuration(download.bytes) - recorded) / recorded).toBeLessThan(0.1);
    await test.api.call('DELETE', `/browsers/${id}`);
  });

  it('stop with the browser and keep the video; max_duration_in_seconds stops a recording', async () => {
    const id = (
      (await test.api.call('POST', '/browsers', { json: {} })).json as { session_id: string }
    ).session_id;
    const short = (
      await test.api.call('POST', `/browsers/${id}/replays`, {
        json: { max_duration_in_seconds: 1 },
      })
    ).json as Replay;
    // It stops by itself after its second (ffmpeg's start and its finish take longer on a busy
    // host: looked at until it has, for longer than the browser's 60 s never comes to it).
    let listed: Replay | undefined;
    for (let look = 0; look < 150 && !listed?.finished_at; look++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      [listed] = (await test.api.call('GET', `/browsers/${id}/replays`)).json as Replay[];
    }
    expect(listed?.finished_at).toBeDefined();
    const lasted =
      (Date.parse(listed?.finished_at ?? '') - Date.parse(listed?.started_at ?? '')) / 1000;
    expect(lasted).toBeGreaterThanOrEqual(1);
    expect(lasted).toBeLessThan(10);
    const kept = (await test.api.call('POST', `/browsers/${id}/replays`, { json: {} }))
      .json as Replay;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    await test.api.call('DELETE', `/browsers/${id}`);
    for (let attempt = 0; attempt < 50; attempt++) {
      const answer = await test.api.call('GET', `/browsers/${id}/replays/${kept.replay_id}`);
      if (answer.status === 200) {
        expect(probedDuration(answer.bytes)).toBeGreaterThan(0.5);
        expect(short.replay_id).not.toBe(kept.replay_id);
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('the replay of a deleted browser never became downloadable');
  });

  it('without ffmpeg: warn at start, and answer a replay with 503 naming what to install', async () => {
    const warnings: string[] = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => warnings.push(line) });
    const path = process.env.PATH;
    // Only a folder without ffmpeg on the PATH while the server starts (Chromium has its own path).
    // A PATH with the sandbox on it, but no ffmpeg.
    const bare = mkdtempSync(join(tmpdir(), 'xb-no-ffmpeg-'));
    symlinkSync('/usr/bin/bwrap', join(bare, 'bwrap'));
    process.env.PATH = bare;
    let server: RunningServer;
    try {
      server = await startServer(
        testConfig({
          XB_ALLOW_NETWORKS: '127.0.0.1/32',
          XB_DATA_DIR: mkdtempSync(join(tmpdir(), 'xb-no-ffmpeg-data-')),
          XB_PORT: '0',
          XB_TOKENS: TEST_TOKEN,
        }),
        logger,
      );
    } finally {
      process.env.PATH = path;
    }
    const api = new ContractContext({
      baseUrl: server.url,
      token: TEST_TOKEN,
      readOnlyToken: TEST_TOKEN,
      timeoutMs: 30_000,
    });
    try {
      expect(warnings.join('')).toContain('apt-get install ffmpeg');
      const id = (
        (await api.call('POST', '/browsers', { json: {} })).json as { session_id: string }
      ).session_id;
      const answer = await api.call('POST', `/browsers/${id}/replays`, { json: {} });
      expect(answer.status).toBe(503);
      expect((answer.json as { message: string }).message).toContain('apt-get install ffmpeg');
    } finally {
      await server.close();
    }
  });

  it('end a replay whose ffmpeg died with the video it has, and record again at once', async () => {
    const id = (
      (
        await test.api.call('POST', '/browsers', {
          json: { viewport: { width: 640, height: 360 } },
        })
      ).json as { session_id: string }
    ).session_id;
    const replay = (await test.api.call('POST', `/browsers/${id}/replays`, { json: {} }))
      .json as Replay;
    await new Promise((resolve) => setTimeout(resolve, 3_500));
    const [ffmpeg] = processesNaming(`${replay.replay_id}.mp4`);
    expect(ffmpeg?.name).toBe('ffmpeg');
    process.kill(ffmpeg?.pid as number, 'SIGKILL');
    // The replay ends by itself: stop answers at once, as for any finished replay.
    let listed: Replay | undefined;
    for (let attempt = 0; attempt < 50 && !listed?.finished_at; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      [listed] = (await test.api.call('GET', `/browsers/${id}/replays`)).json as Replay[];
    }
    expect(listed?.finished_at).toBeDefined();
    const stopped = await test.api.call('POST', `/browsers/${id}/replays/${replay.replay_id}/stop`);
    expect(stopped.status).toBe(200);
    const download = await test.api.call('GET', `/browsers/${id}/replays/${replay.replay_id}`);
    expect(download.status).toBe(200);
    expect(probedDuration(download.bytes)).toBeGreaterThan(0.5);
    // The browser's recording slot is free again.
    const next = await test.api.call('POST', `/browsers/${id}/replays`, { json: {} });
    expect(next.status).toBe(201);
    await test.api.call('DELETE', `/browsers/${id}`);
  });
});
