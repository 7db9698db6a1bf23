/** Realistic records for the client's tests, as a server sends them. */

export const session = {
  session_id: 'br_1',
  created_at: '2026-11-22T10:00:00.000Z',
  cdp_ws_url: 'ws://127.0.0.1:8080/cdp/br_1?jwt=abc',
  headless: true,
  stealth: false,
  timeout_seconds: 60,
};

export const pool = {
  id: 'pool_1',
  name: 'checkout',
  available_count: 2,
  acquired_count: 0,
  created_at: '2026-11-22T10:00:00.000Z',
  browser_pool_config: { size: 2, name: 'checkout' },
};

export const extension = {
  id: 'ext_1',
  created_at: '2026-11-22T10:00:00.000Z',
  size_bytes: 4,
  name: 'adblock',
};

export const liveView = {
  url: 'http://127.0.0.1:8080/browsers/br_1/live?jwt=a.b.c',
  mode: 'read',
  expires_at: '2026-11-22T10:10:00.000Z',
} as const;
export const replay = { replay_id: 'rp_1', started_at: '2026-11-22T10:00:00.000Z' };

export const telemetryEnvelope = {
  seq: 3,
  event: {
    category: 'network',
    type: 'network_loading_failed',
    ts: 1_795_000_000_000_000,
    source: { kind: 'cdp', event: 'Network.loadingFailed' },
    data: { url: 'http://127.0.0.1:9/', error_text: 'net::ERR_CONNECTION_REFUSED' },
  },
};

export const invocation = {
  id: 'inv_1',
  action_name: 'checkout',
  app_name: 'shop',
  version: 'latest',
  status: 'running',
  started_at: '2026-11-22T10:00:00.000Z',
};

export const processStatus = { state: 'running', exit_code: null, cpu_pct: 3.5, mem_bytes: 1024 };

/** A one-pixel PNG. */
export const pngBytes = Uint8Array.from(
  Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
    'base64',
  ),
);

export const fileEntry = {
  name: 'report.pdf',
  path: '/home/browser/Downloads/report.pdf',
  is_dir: false,
  size_bytes: 1024,
  mode: '644',
  mod_time: '2026-11-22T10:00:00.000Z',
};

export const profile = {
  id: 'prof_1',
  name: 'shop',
  created_at: '2026-11-22T10:00:00.000Z',
};

export const proxy = {
  id: 'px_1',
  type: 'custom',
  protocol: 'http',
  config: { host: 'proxy.example.com', port: 3128, username: 'agent', has_password: true },
  bypass_hosts: ['localhost'],
};

export const credential = {
  id: 'cred_1',
  name: 'shop-login',
  domain: 'shop.example.com',
  created_at: '2026-11-22T10:00:00.000Z',
  updated_at: '2026-11-22T10:00:00.000Z',
  has_values: true,
  has_totp_secret: false,
  value_keys: ['password', 'username'],
};

export const credentialProvider = {
  id: 'cp_1',
  name: 'team-1p',
  provider_type: 'onepassword',
  url: 'https://connect.example.com',
  enabled: true,
  priority: 0,
  cache_ttl_seconds: 300,
  allowed_projects: [],
  created_at: '2026-11-22T10:00:00.000Z',
  updated_at: '2026-11-22T10:00:00.000Z',
};

export const authConnection = {
  id: 'auth_1',
  domain: 'shop.example.com',
  profile_name: 'agent',
  status: 'NEEDS_AUTH',
  save_credentials: true,
  record_session: false,
  health_checks: true,
  health_check_interval: 3600,
  can_reauth: false,
  can_reauth_reason: 'no_credential',
  created_at: '2026-11-22T10:00:00.000Z',
  updated_at: '2026-11-22T10:00:00.000Z',
};

export const authTimelineEvent = {
  id: 'ev_1',
  type: 'login',
  status: 'SUCCESS',
  step: 'COMPLETED',
  timestamp: '2026-11-22T10:00:00.000Z',
};

export const deployment = {
  id: 'dep_1',
  created_at: '2026-11-22T10:00:00.000Z',
  updated_at: '2026-11-22T10:00:01.000Z',
  status: 'running',
  app_name: 'greeter',
  version: 'v1',
  entrypoint_rel_path: 'app.ts',
  env_vars: { API_TOKEN: '' },
  source_type: 'file',
  source_checksum: 'a'.repeat(64),
};

export const appVersion = {
  id: 'apv_1',
  app_name: 'greeter',
  version: 'v1',
  deployment: 'dep_1',
  actions: [{ name: 'hello' }],
  env_vars: { API_TOKEN: '' },
};
