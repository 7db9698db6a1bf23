import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { sessionRecord } from '../__fixtures__/records.js';
import { BrowserSessionSchema } from './browser-session.js';
import { CreateBrowserBodySchema } from './create-browser.js';

describe('BrowserSessionSchema', () => {
  it('accepts a full session record', () => {
    expect(v.parse(BrowserSessionSchema, sessionRecord)).toEqual(sessionRecord);
  });

  it('accepts a minimal session and tolerates unknown fields', () => {
    const minimal = {
      session_id: 's1',
      created_at: '2026-11-22T10:00:00Z',
      cdp_ws_url: 'ws://127.0.0.1:8080/cdp/s1?jwt=t',
      headless: true,
      stealth: false,
      timeout_seconds: 60,
      region: 'local',
    };
    expect(v.is(BrowserSessionSchema, minimal)).toBe(true);
  });

  it('accepts a cdp_ws_url without its jwt, as a read-only token receives it', () => {
    const withoutKey = { ...sessionRecord, cdp_ws_url: 'wss://x.test/browsers/s1/cdp' };
    expect(v.is(BrowserSessionSchema, withoutKey)).toBe(true);
  });

  it.each([
    ['a missing session_id', { session_id: undefined }],
    ['a malformed created_at', { created_at: '22/11/2026 10:00' }],
    ['an impossible created_at', { created_at: '2026-13-40T10:00:00Z' }],
    ['a cdp_ws_url of the wrong scheme', { cdp_ws_url: 'https://x.test/cdp?jwt=t' }],
    ['a live view URL that is not http', { browser_live_view_url: 'wss://x.test/?jwt=t' }],
    ['headless as a string', { headless: 'yes' }],
    ['a fractional timeout', { timeout_seconds: 1.5 }],
    ['a negative uptime', { usage: { uptime_ms: -1 } }],
  ])('rejects %s', (_, change) => {
    expect(v.is(BrowserSessionSchema, { ...sessionRecord, ...change })).toBe(false);
  });
});

describe('CreateBrowserBodySchema', () => {
  it('fills the defaults for an absent or empty body', () => {
    const defaults = { headless: true, stealth: false, kiosk_mode: false, timeout_seconds: 60 };
    expect(v.parse(CreateBrowserBodySchema, undefined)).toEqual(defaults);
    expect(v.parse(CreateBrowserBodySchema, {})).toEqual(defaults);
  });

  it('accepts extensions by id or name, a viewport and an invocation', () => {
    const body = {
      extensions: [{ id: 'ext_1' }, { name: 'adblock.v2' }],
      viewport: { width: 1920, height: 1080 },
      invocation_id: 'inv_1',
      profile: { name: 'shopper', save_changes: true },
    };
    expect(v.parse(CreateBrowserBodySchema, body)).toMatchObject(body);
  });

  it.each([
    ['a timeout under 10 s', { timeout_seconds: 9 }],
    ['a timeout over 3 days', { timeout_seconds: 259_201 }],
    ['an extension with both id and name', { extensions: [{ id: 'a', name: 'b' }] }],
    ['an extension id with a slash', { extensions: [{ id: 'a/b' }] }],
    ['a viewport too small', { viewport: { width: 100, height: 100 } }],
    ['a profile without id or name', { profile: { save_changes: true } }],
    ['an unknown field', { headles: true }],
  ])('rejects %s', (_, body) => {
    expect(v.is(CreateBrowserBodySchema, body)).toBe(false);
  });
});
