/** Realistic records as a server sends them, shared by the schema tests. */

export const sessionRecord = {
  session_id: 'br_7Hq2xK9mN4pL',
  created_at: '2026-11-22T10:00:00.000Z',
  cdp_ws_url: 'wss://browsers.example.test/cdp/br_7Hq2xK9mN4pL?jwt=eyJhbGciOiJIUzI1NiJ9.e30.sig',
  webdriver_ws_url: 'wss://browsers.example.test/wd/br_7Hq2xK9mN4pL?jwt=eyJ.e30.sig',
  browser_live_view_url: 'https://live.example.test/br_7Hq2xK9mN4pL?jwt=eyJ.e30.sig',
  base_url: 'https://instance.example.test',
  headless: true,
  stealth: false,
  gpu: false,
  kiosk_mode: false,
  timeout_seconds: 60,
  persistence: { id: 'persist-1' },
  profile: {
    id: 'prof_1',
    name: 'shopper',
    created_at: '2026-11-01T09:00:00.000Z',
    updated_at: '2026-11-20T09:00:00.000Z',
    last_used_at: '2026-11-22T09:59:00.000Z',
  },
  proxy_id: 'px_1',
  pool: { id: 'pool_1', name: 'checkout' },
  viewport: { width: 1280, height: 800, refresh_rate: 60 },
  usage: { uptime_ms: 1500 },
};

export const poolRecord = {
  id: 'pool_1',
  name: 'checkout',
  available_count: 3,
  acquired_count: 1,
  created_at: '2026-11-22T10:00:00.000Z',
  browser_pool_config: {
    size: 4,
    name: 'checkout',
    fill_rate_per_minute: 10,
    timeout_seconds: 600,
    stealth: true,
    headless: true,
    profile: { id: 'prof_1', name: 'shopper', save_changes: false },
    extensions: [{ id: 'ext_1', name: 'adblock' }],
    proxy_id: 'px_1',
    viewport: { width: 1280, height: 800, refresh_rate: 60 },
    kiosk_mode: false,
    chrome_policy: { PasswordManagerEnabled: false, URLBlocklist: ['example.com'] },
  },
};

export const extensionRecord = {
  id: 'ext_1',
  created_at: '2026-11-22T10:00:00.000Z',
  size_bytes: 2048,
  name: 'adblock',
  last_used_at: '2026-11-22T10:05:00.000Z',
};
