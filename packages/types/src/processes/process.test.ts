import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import {
  ExecResultSchema,
  KillProcessBodySchema,
  ProcessCommandBodySchema,
  ProcessOutputEventSchema,
} from './process-commands.js';
import { ProcessStatusSchema } from './process-status.js';

describe('ProcessStatusSchema', () => {
  it('accepts a running process with a null exit code and an exited one', () => {
    const running = { state: 'running', exit_code: null, cpu_pct: 12.5, mem_bytes: 10_485_760 };
    const exited = { state: 'exited', exit_code: 137, cpu_pct: 0, mem_bytes: 0 };
    expect(v.parse(ProcessStatusSchema, running)).toEqual(running);
    expect(v.parse(ProcessStatusSchema, exited)).toEqual(exited);
  });

  it.each([
    ['a missing state', { exit_code: 0, cpu_pct: 0, mem_bytes: 0 }],
    ['an unknown state', { state: 'zombie', exit_code: 0, cpu_pct: 0, mem_bytes: 0 }],
    ['a missing exit_code', { state: 'running', cpu_pct: 0, mem_bytes: 0 }],
    ['negative cpu', { state: 'running', exit_code: null, cpu_pct: -1, mem_bytes: 0 }],
    ['fractional memory', { state: 'running', exit_code: null, cpu_pct: 1, mem_bytes: 1.5 }],
  ])('rejects %s', (_, status) => {
    expect(v.is(ProcessStatusSchema, status)).toBe(false);
  });
});

describe('process commands', () => {
  it('fills args and env for a bare command', () => {
    expect(v.parse(ProcessCommandBodySchema, { command: 'ls' })).toEqual({
      command: 'ls',
      args: [],
      env: {},
    });
  });

  it('rejects an empty command, a bad env name, a zero timeout and unknown fields', () => {
    expect(v.is(ProcessCommandBodySchema, { command: '' })).toBe(false);
    expect(v.is(ProcessCommandBodySchema, { command: 'ls', env: { 'A-B': '1' } })).toBe(false);
    expect(v.is(ProcessCommandBodySchema, { command: 'ls', timeout_sec: 0 })).toBe(false);
    expect(v.is(ProcessCommandBodySchema, { command: 'ls', argv: [] })).toBe(false);
  });

  it('defaults kill to TERM and rejects other signals', () => {
    expect(v.parse(KillProcessBodySchema, undefined)).toEqual({ signal: 'TERM' });
    expect(v.parse(KillProcessBodySchema, { signal: 'KILL' })).toEqual({ signal: 'KILL' });
    expect(v.is(KillProcessBodySchema, { signal: 'STOP' })).toBe(false);
  });

  it('reads exec results and output events', () => {
    expect(
      v.is(ExecResultSchema, { exit_code: 0, stdout_b64: 'aGk=', stderr_b64: '', duration_ms: 3 }),
    ).toBe(true);
    expect(v.is(ProcessOutputEventSchema, { type: 'stdout', data_b64: 'aGk=' })).toBe(true);
    expect(v.is(ProcessOutputEventSchema, { type: 'exit', exit_code: 143 })).toBe(true);
    expect(v.is(ProcessOutputEventSchema, { type: 'exit' })).toBe(false);
    expect(v.is(ProcessOutputEventSchema, { type: 'stdin', data_b64: '' })).toBe(false);
  });
});
