import * as samples from '../../test-support/samples.js';
import { type MethodCase, ok } from './method-case.js';

/** One realistic call of every operation of `processes`. */
export const cases: Record<string, MethodCase> = {
  'browsers.process.status': {
    input: { id: 'br_1', process_id: 'pr_1' },
    method: 'GET',
    url: '/browsers/br_1/process/pr_1/status',
    respond: ok(samples.processStatus),
    result: samples.processStatus,
  },
  'browsers.process.spawn': {
    input: { id: 'br_1', command: 'sleep', args: ['5'] },
    method: 'POST',
    url: '/browsers/br_1/process/spawn',
    body: { command: 'sleep', args: ['5'] },
    respond: ok({ process_id: 'pr_1', pid: 42, started_at: '2026-11-22T10:00:00.000Z' }),
    result: { process_id: 'pr_1', pid: 42, started_at: '2026-11-22T10:00:00.000Z' },
  },
  'browsers.process.exec': {
    input: { id: 'br_1', command: 'echo', args: ['hi'] },
    method: 'POST',
    url: '/browsers/br_1/process/exec',
    body: { command: 'echo', args: ['hi'] },
    respond: ok({ exit_code: 0, stdout_b64: 'aGkK', stderr_b64: '', duration_ms: 4 }),
    result: { exit_code: 0, stdout_b64: 'aGkK', stderr_b64: '', duration_ms: 4 },
  },
  'browsers.process.stdin': {
    input: { id: 'br_1', process_id: 'pr_1', data_b64: 'aGkK' },
    method: 'POST',
    url: '/browsers/br_1/process/pr_1/stdin',
    body: { data_b64: 'aGkK' },
    respond: ok({ written_bytes: 3 }),
    result: { written_bytes: 3 },
  },
  'browsers.process.resize': {
    input: { id: 'br_1', process_id: 'pr_1', rows: 40, cols: 120 },
    method: 'POST',
    url: '/browsers/br_1/process/pr_1/resize',
    body: { rows: 40, cols: 120 },
    respond: ok({ ok: true }),
    result: { ok: true },
  },
  'browsers.process.kill': {
    input: { id: 'br_1', process_id: 'pr_1', signal: 'KILL' },
    method: 'POST',
    url: '/browsers/br_1/process/pr_1/kill',
    body: { signal: 'KILL' },
    respond: ok({ ok: true }),
    result: { ok: true },
  },
};
