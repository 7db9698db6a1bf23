import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { poolRecord } from '../__fixtures__/records.js';
import { BrowserPoolSchema } from './browser-pool.js';
import {
  AcquireBrowserBodySchema,
  CreateBrowserPoolBodySchema,
  DeleteBrowserPoolQuerySchema,
  ReleaseBrowserBodySchema,
  UpdateBrowserPoolBodySchema,
} from './pool-requests.js';

describe('BrowserPoolSchema', () => {
  it('accepts a full pool record', () => {
    expect(v.parse(BrowserPoolSchema, poolRecord)).toEqual(poolRecord);
  });

  it('needs only the always-present fields, and tolerates unknown ones', () => {
    const minimal = {
      id: 'pool_2',
      available_count: 0,
      acquired_count: 0,
      created_at: '2026-11-22T10:00:00.000Z',
      browser_pool_config: { size: 1, future_field: true },
      region: 'local',
    };
    expect(v.is(BrowserPoolSchema, minimal)).toBe(true);
  });

  it.each([
    ['a missing id', { id: undefined }],
    ['a missing config', { browser_pool_config: undefined }],
    ['a config without size', { browser_pool_config: { name: 'x' } }],
    ['a negative count', { available_count: -1 }],
    ['a fractional count', { acquired_count: 0.5 }],
    ['a count as a string', { acquired_count: '1' }],
    ['a malformed timestamp', { created_at: 'yesterday' }],
    ['chrome_policy as an array', { browser_pool_config: { size: 1, chrome_policy: [] } }],
  ])('rejects %s', (_, change) => {
    expect(v.is(BrowserPoolSchema, { ...poolRecord, ...change })).toBe(false);
  });
});

describe('pool requests', () => {
  it('creates with size alone, filling the defaults', () => {
    expect(v.parse(CreateBrowserPoolBodySchema, { size: 2 })).toEqual({
      size: 2,
      fill_rate_per_minute: 10,
      timeout_seconds: 600,
      stealth: false,
      headless: true,
      kiosk_mode: false,
    });
  });

  it('rejects a create without size, out of bounds, or with a typo', () => {
    expect(v.is(CreateBrowserPoolBodySchema, {})).toBe(false);
    expect(v.is(CreateBrowserPoolBodySchema, { size: 0 })).toBe(false);
    expect(v.is(CreateBrowserPoolBodySchema, { size: 501 })).toBe(false);
    expect(v.is(CreateBrowserPoolBodySchema, { size: 1, fill_rate_per_minute: 0 })).toBe(false);
    expect(v.is(CreateBrowserPoolBodySchema, { size: 1, name: 'has space' })).toBe(false);
    expect(v.is(CreateBrowserPoolBodySchema, { size: 1, sise: 2 })).toBe(false);
  });

  it('updates any subset but nothing unknown', () => {
    expect(v.parse(UpdateBrowserPoolBodySchema, {})).toEqual({});
    expect(v.parse(UpdateBrowserPoolBodySchema, { size: 3 })).toEqual({ size: 3 });
    expect(v.is(UpdateBrowserPoolBodySchema, { force: true })).toBe(false);
  });

  it('reads force from a query string or a boolean', () => {
    expect(v.parse(DeleteBrowserPoolQuerySchema, {})).toEqual({ force: false });
    expect(v.parse(DeleteBrowserPoolQuerySchema, { force: 'true' })).toEqual({ force: true });
    expect(v.parse(DeleteBrowserPoolQuerySchema, { force: false })).toEqual({ force: false });
    expect(v.is(DeleteBrowserPoolQuerySchema, { force: 'yes' })).toBe(false);
  });

  it('defaults acquire timeout and release reuse', () => {
    expect(v.parse(AcquireBrowserBodySchema, undefined)).toEqual({ acquire_timeout_seconds: 30 });
    expect(v.is(AcquireBrowserBodySchema, { acquire_timeout_seconds: -1 })).toBe(false);
    expect(v.parse(ReleaseBrowserBodySchema, { session_id: 's1' })).toEqual({
      session_id: 's1',
      reuse: true,
    });
    expect(v.is(ReleaseBrowserBodySchema, {})).toBe(false);
  });
});
