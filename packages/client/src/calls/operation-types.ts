/**
 * The API's records, every operation's input and answer, and the client's methods, as named
 * types with the descriptions of the catalog.
 *
 * Generated from the catalog of @x/types by `pnpm --filter @x/client generate`; a test fails
 * when it falls behind, and another proves each type equal to what the schemas infer. Do not
 * edit.
 */
import type { CallPromise } from '../client/call-promise.js';
import type { CallOptions } from '../client/options.js';
import type { BinaryBody } from '../streams/binary-body.js';
import type { EventStream } from '../streams/event-stream.js';
import type { UploadSource } from '../uploads/upload-source.js';
import type { PagePromise } from './list-page.js';

export type { ErrorBody, ErrorDetail } from './error-body.js';

// Records

export interface Replay {
  /** the replay's id */
  replay_id: string;
  /** when recording started (ISO 8601 UTC) */
  started_at: string;
  /** when recording stopped (ISO 8601 UTC); absent while recording */
  finished_at?: string | undefined;
  /** web page that plays the video */
  replay_view_url?: string | undefined;
}

export interface SessionNetwork {
  /** networks (a.b.c.d/n) and address:port entries opened for it */
  allow: string[];
}

export interface Viewport {
  /** width in CSS pixels */
  width: number;
  /** height in CSS pixels */
  height: number;
  /** refresh rate in Hz */
  refresh_rate?: number | undefined;
}

export interface TelemetryConfig {
  /** its categories */
  browser: {
    /** one category of events */
    control?:
      | {
          /** whether it is captured */
          enabled: boolean;
        }
      | undefined;
    /** one category of events */
    connection?:
      | {
          /** whether it is captured */
          enabled: boolean;
        }
      | undefined;
    /** one category of events */
    system?:
      | {
          /** whether it is captured */
          enabled: boolean;
        }
      | undefined;
    /** one category of events */
    captcha?:
      | {
          /** whether it is captured */
          enabled: boolean;
        }
      | undefined;
    /** one category of events */
    console?:
      | {
          /** whether it is captured */
          enabled: boolean;
        }
      | undefined;
    /** one category of events */
    network?:
      | {
          /** whether it is captured */
          enabled: boolean;
        }
      | undefined;
    /** one category of events */
    page?:
      | {
          /** whether it is captured */
          enabled: boolean;
        }
      | undefined;
    /** one category of events */
    interaction?:
      | {
          /** whether it is captured */
          enabled: boolean;
        }
      | undefined;
    /** one category of events */
    screenshot?:
      | {
          /** whether it is captured */
          enabled: boolean;
        }
      | undefined;
  };
}

export interface BrowserPoolConfig {
  /** browsers the pool keeps warm, 1–500 */
  size: number;
  /** the pool's name */
  name?: string | undefined;
  /** percent of the size started per minute while filling, 1–100 */
  fill_rate_per_minute?: number | undefined;
  /** idle time-out of the pool's acquired browsers, in seconds */
  timeout_seconds?: number | undefined;
  /** whether its browsers hide automation signals */
  stealth?: boolean | undefined;
  /** whether its browsers run without a display */
  headless?: boolean | undefined;
  /** the profile its browsers load, read-only */
  profile?:
    | {
        /** profile id */
        id?: string | undefined;
        /** profile name */
        name?: string | undefined;
        /** always false for a pool */
        save_changes?: boolean | undefined;
      }
    | undefined;
  /** extensions its browsers load, by id or name */
  extensions?:
    | {
        /** extension id */
        id?: string | undefined;
        /** extension name */
        name?: string | undefined;
      }[]
    | undefined;
  /** proxy its browsers route through */
  proxy_id?: string | undefined;
  /** private destinations its browsers may reach */
  network?: SessionNetwork | undefined;
  /** its browsers' window size */
  viewport?: Viewport | undefined;
  /** whether its browsers show no browser UI */
  kiosk_mode?: boolean | undefined;
  /** Chromium enterprise policies its browsers start with, as JSON */
  chrome_policy?: Record<string, unknown> | undefined;
  /** what its browsers’ telemetry captures */
  telemetry?: TelemetryConfig | undefined;
}

export interface BrowserPool {
  /** the pool's id */
  id: string;
  /** the pool's unique name */
  name?: string | undefined;
  /** warm browsers ready to acquire, ≥ 0 */
  available_count: number;
  /** browsers handed out and not released, ≥ 0 */
  acquired_count: number;
  /** when the pool was made (ISO 8601 UTC) */
  created_at: string;
  /** the pool's configuration */
  browser_pool_config: BrowserPoolConfig;
}

export interface Extension {
  /** the extension's id */
  id: string;
  /** when it was uploaded (ISO 8601 UTC) */
  created_at: string;
  /** size of the archive as uploaded, in bytes */
  size_bytes: number;
  /** the extension's unique name */
  name?: string | undefined;
  /** SHA-256 of the archive exactly as uploaded, lowercase hex */
  checksum?: string | undefined;
  /** when a browser last loaded it (ISO 8601 UTC) */
  last_used_at?: string | undefined;
}

export interface SessionProfile {
  /** profile id */
  id?: string | undefined;
  /** profile name */
  name?: string | undefined;
  /** whether the session saves its state into the profile when it ends */
  save_changes?: boolean | undefined;
  /** when the profile was made (ISO 8601 UTC) */
  created_at?: string | undefined;
  /** when a session last saved into it (ISO 8601 UTC) */
  updated_at?: string | undefined;
  /** when a browser last loaded it (ISO 8601 UTC) */
  last_used_at?: string | undefined;
}

export interface BrowserSession {
  /** the session's id */
  session_id: string;
  /** the session's name, unique among the project's running browsers */
  name?: string | undefined;
  /** key-value tags of the session, at most 50 */
  tags?: { [key: string]: string } | undefined;
  /** when the session started (ISO 8601 UTC) */
  created_at: string;
  /** when the session ended (ISO 8601 UTC); absent while it runs */
  deleted_at?: string | undefined;
  /** why the session ended (deleted, timed_out, released, pool_changed, invocation_ended, crashed, server_stopped, server_restarted, node_lost); absent while it runs */
  end_reason?:
    | 'deleted'
    | 'timed_out'
    | 'released'
    | 'pool_changed'
    | 'invocation_ended'
    | 'crashed'
    | 'server_stopped'
    | 'server_restarted'
    | 'node_lost'
    | undefined;
  /** DevTools WebSocket of the browser, with its jwt; absent key for read-only tokens */
  cdp_ws_url: string;
  /** WebDriver BiDi WebSocket of the browser */
  webdriver_ws_url?: string | undefined;
  /** web page that shows the browser live and lets a person drive it (control link) */
  browser_live_view_url?: string | undefined;
  /** people watching its live view now; absent once it ended */
  viewers?: number | undefined;
  /** base URL of the session's own endpoints */
  base_url?: string | undefined;
  /** whether the browser runs without a display */
  headless: boolean;
  /** whether the browser hides automation signals */
  stealth: boolean;
  /** whether the browser has a GPU (never, self-hosted) */
  gpu?: boolean | undefined;
  /** the page it was asked to open when created (what was asked, not what loaded) */
  start_url?: string | undefined;
  /** the Chrome enterprise policies it started with */
  chrome_policy?: { [key: string]: unknown } | undefined;
  /** whether the browser shows no browser UI */
  kiosk_mode?: boolean | undefined;
  /** idle time-out, in seconds: deleted after this long with no API call on it, no DevTools or BiDi client connected and nobody in its live view */
  timeout_seconds: number;
  /** persistence the session was created with */
  persistence?:
    | {
        /** id the session was kept under */
        id: string;
      }
    | undefined;
  /** the profile the session loaded */
  profile?: SessionProfile | undefined;
  /** the proxy the browser routes through */
  proxy_id?: string | undefined;
  /** the private destinations its network may reach besides the public internet */
  network?: SessionNetwork | undefined;
  /** the pool the browser belongs to */
  pool?:
    | {
        /** pool id */
        id: string;
        /** pool name */
        name?: string | undefined;
      }
    | undefined;
  /** the invocation the session belongs to */
  invocation_id?: string | undefined;
  /** the browser's window size */
  viewport?: Viewport | undefined;
  /** what its telemetry captures; absent when it captures nothing */
  telemetry?: TelemetryConfig | undefined;
  /** what the session used */
  usage?:
    | {
        /** how long it ran, in milliseconds, ≥ 0 */
        uptime_ms: number;
      }
    | undefined;
}

export interface InvocationBrowsers {
  /** the invocation's active sessions, oldest first */
  browsers: BrowserSession[];
}

export type ProcessState = 'running' | 'exited';

export interface ProcessStatus {
  /** running or exited */
  state: ProcessState;
  /** exit code, null while running */
  exit_code: number | null;
  /** share of one core over the last sampling window, percent, ≥ 0 */
  cpu_pct: number;
  /** resident memory in bytes, 0 after exit */
  mem_bytes: number;
}

export interface ViewportInput {
  /** width in CSS pixels, 320–7680 */
  width: number;
  /** height in CSS pixels, 240–4320 */
  height: number;
  /** refresh rate in Hz */
  refresh_rate?: number | undefined;
}

export interface ProfileReferenceInput {
  /** profile id */
  id?: string | undefined;
  /** profile name */
  name?: string | undefined;
  /** save the browser's state into the profile when it ends, default false */
  save_changes?: boolean | undefined;
}

export interface NetworkInput {
  /** private networks and host:port the browser may reach, each within what the operator allows */
  allow: string[];
}

export interface ScreenshotRegion {
  /** left edge, CSS pixels, from 0 */
  x: number;
  /** top edge, CSS pixels, from 0 */
  y: number;
  /** width in CSS pixels, 1–16384 */
  width: number;
  /** height in CSS pixels, 1–16384 */
  height: number;
}

export interface MousePosition {
  /** x in CSS pixels of the viewport */
  x: number;
  /** y in CSS pixels of the viewport */
  y: number;
}

export interface CursorResult {
  /** true once the cursor changed */
  ok: true;
}

export interface ClipboardText {
  /** the clipboard's text */
  text: string;
}

export type BatchActionInput =
  | {
      /** the kind of action */
      type: 'click_mouse';
      /** the action, as its own call takes it */
      click_mouse: {
        /** x in CSS pixels of the viewport, from 0 */
        x: number;
        /** y in CSS pixels of the viewport, from 0 */
        y: number;
        /** left, right, middle, back or forward, default left */
        button?: 'left' | 'right' | 'middle' | 'back' | 'forward' | undefined;
        /** down, up or click (both), default click */
        click_type?: 'down' | 'up' | 'click' | undefined;
        /** clicks, 1–10 (2 is a double click), default 1 */
        num_clicks?: number | undefined;
        /** keys held through the click, at most 8, default none */
        hold_keys?: string[] | undefined;
      };
    }
  | {
      /** the kind of action */
      type: 'move_mouse';
      /** the action, as its own call takes it */
      move_mouse: {
        /** x in CSS pixels of the viewport, from 0 */
        x: number;
        /** y in CSS pixels of the viewport, from 0 */
        y: number;
        /** keys held through the move, at most 8, default none */
        hold_keys?: string[] | undefined;
        /** move along a human-like path, default false */
        smooth?: boolean | undefined;
        /** how long a smooth move takes, ms, 50–5000 */
        duration_ms?: number | undefined;
      };
    }
  | {
      /** the kind of action */
      type: 'type_text';
      /** the action, as its own call takes it */
      type_text: {
        /** text typed key by key, any Unicode, at most 100000 characters */
        text: string;
        /** pause between keystrokes, ms, ≥ 0, default 0 */
        delay?: number | undefined;
      };
    }
  | {
      /** the kind of action */
      type: 'press_key';
      /** the action, as its own call takes it */
      press_key: {
        /** keys or combos pressed in order (Return, ctrl+a), 1–64 */
        keys: string[];
        /** how long each key is held down, ms, 0–10000, default 0 */
        duration?: number | undefined;
        /** keys held through the presses, at most 8, default none */
        hold_keys?: string[] | undefined;
      };
    }
  | {
      /** the kind of action */
      type: 'scroll';
      /** the action, as its own call takes it */
      scroll: {
        /** x where the wheel turns, CSS pixels, from 0 */
        x: number;
        /** y where the wheel turns, CSS pixels, from 0 */
        y: number;
        /** wheel notches sideways (right positive), ±100, default 0 */
        delta_x?: number | undefined;
        /** wheel notches down (positive) or up, ±100, default 0 */
        delta_y?: number | undefined;
        /** keys held through the scroll, at most 8, default none */
        hold_keys?: string[] | undefined;
      };
    }
  | {
      /** the kind of action */
      type: 'drag_mouse';
      /** the action, as its own call takes it */
      drag_mouse: {
        /** points [x, y] to drag through, 2–1000 */
        path: [number, number][];
        /** left, middle or right, default left */
        button?: 'left' | 'middle' | 'right' | undefined;
        /** pause after pressing, before moving, ms, 0–10000, default 0 */
        delay?: number | undefined;
        /** moves between two points, 1–100, default 10 */
        steps_per_segment?: number | undefined;
        /** pause between two moves, ms, 0–1000, default 50 */
        step_delay_ms?: number | undefined;
        /** move along a human-like path, default false */
        smooth?: boolean | undefined;
        /** how long a smooth drag takes, ms, 50–5000 */
        duration_ms?: number | undefined;
        /** keys held through the drag, at most 8, default none */
        hold_keys?: string[] | undefined;
      };
    }
  | {
      /** the kind of action */
      type: 'set_cursor';
      /** the action, as its own call takes it */
      set_cursor: {
        /** hide the mouse cursor (true) or show it */
        hidden: boolean;
      };
    }
  | {
      /** the kind of action */
      type: 'sleep';
      /** the action, as its own call takes it */
      sleep: {
        /** pause, ms, 0–10000 */
        duration_ms: number;
      };
    };

export interface LiveView {
  /** the live view page, with a jwt for this session and mode */
  url: string;
  /** control (watch and drive) or read (watch only) */
  mode: 'control' | 'read';
  /** when the link stops working (ISO 8601 UTC); it also stops when the session ends */
  expires_at: string;
}

export interface SpawnedProcess {
  /** the process's id */
  process_id: string;
  /** its operating-system pid */
  pid: number;
  /** when it started (ISO 8601 UTC) */
  started_at: string;
}

export interface ExecResult {
  /** its exit code (128+signal when a signal ended it) */
  exit_code: number;
  /** its standard output, base64 */
  stdout_b64: string;
  /** its standard error, base64 */
  stderr_b64: string;
  /** how long it ran, in milliseconds */
  duration_ms: number;
  /** output bytes left out past the kept limit */
  dropped_bytes?: number | undefined;
}

export type ProcessSignal = 'TERM' | 'KILL' | 'INT' | 'HUP';

export interface KillResult {
  /** true once the signal was sent */
  ok: true;
}

export type ProcessOutputEvent =
  | {
      /** a chunk of standard output */
      type: 'stdout';
      /** the bytes, base64 */
      data_b64: string;
    }
  | {
      /** a chunk of standard error */
      type: 'stderr';
      /** the bytes, base64 */
      data_b64: string;
    }
  | {
      /** the process ended */
      type: 'exit';
      /** its exit code */
      exit_code: number;
    }
  | {
      /** output was lost: the reader was too slow */
      type: 'overflow';
      /** how many bytes were lost */
      lost_bytes: number;
    };

export interface Watch {
  /** the watch's id */
  watch_id: string;
}

export type WatchChangeType = 'CREATE' | 'WRITE' | 'DELETE' | 'RENAME';

export type WatchEvent =
  | {
      /** CREATE, WRITE, DELETE or RENAME */
      type: WatchChangeType;
      /** absolute path of what changed */
      path: string;
      /** its name */
      name?: string | undefined;
      /** whether it is a directory */
      is_dir?: boolean | undefined;
    }
  | {
      /** events were lost: the reader was too slow */
      type: 'OVERFLOW';
      /** how many events were lost, ≥ 1 */
      lost: number;
    };

export interface FileEntry {
  /** the entry's name */
  name: string;
  /** the entry's absolute path */
  path: string;
  /** whether it is a directory */
  is_dir: boolean;
  /** size in bytes */
  size_bytes: number;
  /** permissions, octal (644) */
  mode: string;
  /** last modified (ISO 8601 UTC) */
  mod_time: string;
}

export interface UploadFileInput {
  /** absolute path to write the file at */
  dest_path: string;
  /** the file */
  file: UploadSource;
}

export interface PoolProfileReferenceInput {
  /** profile id */
  id?: string | undefined;
  /** profile name */
  name?: string | undefined;
  /** save the browser's state into the profile when it ends, default false */
  save_changes?: boolean | undefined;
}

export type InvocationStatus = 'queued' | 'running' | 'succeeded' | 'failed';

export interface Invocation {
  /** the invocation's id */
  id: string;
  /** the action run */
  action_name: string;
  /** the app whose action it is */
  app_name: string;
  /** the app's version */
  version: string;
  /** queued, running, succeeded or failed */
  status: InvocationStatus;
  /** when it started (ISO 8601 UTC) */
  started_at: string;
  /** when it ended (ISO 8601 UTC) */
  finished_at?: string | undefined;
  /** the action's input, usually JSON text */
  payload?: string | undefined;
  /** the action's result, usually JSON text */
  output?: string | undefined;
  /** why it failed: the error the code threw, its time-out, a cancel */
  status_reason?: string | undefined;
}

export interface Profile {
  /** the profile's id */
  id: string;
  /** the profile's unique name */
  name?: string | undefined;
  /** when it was made (ISO 8601 UTC) */
  created_at: string;
  /** when a session last saved into it (ISO 8601 UTC) */
  updated_at?: string | undefined;
  /** when a browser last loaded it (ISO 8601 UTC) */
  last_used_at?: string | undefined;
}

export interface ProxyConfig {
  /** the proxy's id */
  id: string;
  /** the proxy's unique name */
  name?: string | undefined;
  /** kind of proxy (custom on a self-hosted server) */
  type: 'custom' | 'datacenter' | 'isp' | 'residential' | 'mobile';
  /** http, or https (TLS to the proxy) */
  protocol: 'http' | 'https';
  /** where the proxy is and who to say you are */
  config: {
    /** host name or IP address */
    host: string;
    /** port */
    port: number;
    /** username the proxy asks for */
    username?: string | undefined;
    /** whether a password is set (it is never shown) */
    has_password: boolean;
  };
  /** hosts reached directly, not through the proxy */
  bypass_hosts?: string[] | undefined;
  /** available or unavailable, by the last check */
  status?: 'available' | 'unavailable' | undefined;
  /** when it was last checked (ISO 8601 UTC) */
  last_checked?: string | undefined;
  /** the address sites saw through it at the last check */
  ip_address?: string | undefined;
}

export interface Project {
  /** the project's id */
  id: string;
  /** the project's unique name */
  name: string;
  /** active, or archived (no request reaches it) */
  status: 'active' | 'archived';
  /** when it was created (ISO 8601 UTC) */
  created_at: string;
  /** when it last changed (ISO 8601 UTC) */
  updated_at: string;
}

export interface ProjectLimits {
  /** most browsers at once, pools' sizes included; null: the organization's default */
  max_concurrent_sessions: number | null;
  /** most running invocations at once; null: the organization's default */
  max_concurrent_invocations: number | null;
}

export interface OrgLimits {
  /** most browsers the server runs at once, all projects together (read-only) */
  max_concurrent_sessions: number;
  /** the cap of a project that sets none; null: none */
  default_project_max_concurrent_sessions: number | null;
  /** the invocation cap of a project that sets none; null: none */
  default_project_max_concurrent_invocations: number | null;
}

export interface CreatedApiKey {
  /** the key's id */
  id: string;
  /** its label (not unique) */
  name: string;
  /** the key with all but its prefix and last four characters hidden */
  masked_key: string;
  /** the one project it reaches; null: every project */
  project_id: string | null;
  /** that project's name; null for an organization-wide key */
  project_name: string | null;
  /** whether it may only read records and metrics */
  read_only: boolean;
  /** when it was made (ISO 8601 UTC) */
  created_at: string;
  /** when it stops working; null: never */
  expires_at: string | null;
  /** when it was deleted or rotated away; null while it works */
  deleted_at: string | null;
  /** the key: shown only now, kept only as a hash */
  key: string;
}

export interface ApiKey {
  /** the key's id */
  id: string;
  /** its label (not unique) */
  name: string;
  /** the key with all but its prefix and last four characters hidden */
  masked_key: string;
  /** the one project it reaches; null: every project */
  project_id: string | null;
  /** that project's name; null for an organization-wide key */
  project_name: string | null;
  /** whether it may only read records and metrics */
  read_only: boolean;
  /** when it was made (ISO 8601 UTC) */
  created_at: string;
  /** when it stops working; null: never */
  expires_at: string | null;
  /** when it was deleted or rotated away; null while it works */
  deleted_at: string | null;
}

export interface AuditLogEntry {
  /** the entry's id */
  id: string;
  /** when the request arrived (UTC) */
  timestamp: string;
  /** the id of the key that called */
  key_id: string;
  /** that key's name */
  key_name: string;
  /** operator_token, api_key, or session_jwt (a session URL’s jwt, on the calls that take it) */
  auth_strategy: 'operator_token' | 'api_key' | 'session_jwt';
  /** the project it acted in; null for an organization operation */
  project_id: string | null;
  /** the HTTP method */
  method: string;
  /** the path, without its query */
  path: string;
  /** the operation it was */
  route: string;
  /** the status answered */
  status: number;
  /** where it came from */
  client_ip: string;
  /** its User-Agent */
  user_agent: string;
  /** how long it took, in ms */
  duration_ms: number;
  /** for a refused call (403): how many refused calls of this key the entry stands for, this one and those since the last entry of the key (at most one a minute) */
  count?: number | undefined;
}

export interface Node {
  /** the node's id (the tag its ids carry); `local` for a server alone */
  id: string;
  /** where the other nodes reach it (XB_NODE_URL); null for a server alone */
  url: string | null;
  /** up; draining (no new browser starts on it, its sessions go on); lost (its heartbeat lapsed) */
  state: 'up' | 'draining' | 'lost';
  /** whether it is the node that answered this call */
  is_self: boolean;
  /** the browsers it runs at most (its XB_MAX_BROWSERS) */
  max_browsers: number;
  /** the browsers it runs, pools' idle ones included (another node's as of its last heartbeat, at most 2 s old) */
  browsers: number;
}

export interface DrainedNode {
  /** the node, draining */
  node: Node;
  /** browsers still in use on it when the call answered (pools' idle ones left out): 0 means it can stop without ending a session */
  browsers_in_use: number;
}

export interface PlaywrightExecuteResult {
  /** whether the code ran to its end and returned a JSON value */
  success: boolean;
  /** what the code returned, as JSON (null for undefined); only on success */
  result?: unknown;
  /** why it failed: the thrown message, a time-out, a syntax error */
  error?: string | undefined;
  /** what the code's console.log and console.info wrote */
  stdout?: string | undefined;
  /** what its console.error and console.warn wrote, then the error's stack on failure */
  stderr?: string | undefined;
}

export interface LogEvent {
  /** always log */
  event: 'log';
  /** when the line was written (service log) or read (a file), RFC 3339 */
  timestamp: string;
  /** the line, without its newline */
  message: string;
  /** true when the line was longer than 65536 bytes and only its start is sent */
  truncated?: boolean | undefined;
}

export interface CurlResult {
  /** the status the target answered with (after redirects) */
  status: number;
  /** its headers, names in lower case, each with every value it came with */
  headers: { [key: string]: string[] };
  /** its body, decoded by the browser (gzip, br), as UTF-8 text or base64 */
  body: string;
  /** ms from the start of the request to the end of the body */
  duration_ms: number;
}

export interface TelemetryEvent {
  /** what kind of event: control, connection, console, network, page, … */
  category:
    | 'control'
    | 'connection'
    | 'system'
    | 'captcha'
    | 'console'
    | 'network'
    | 'page'
    | 'interaction'
    | 'screenshot'
    | 'monitor';
  /** the event: api_call, cdp_connect, console_log, network_loading_failed, page_load, … */
  type: string;
  /** when it happened, Unix microseconds */
  ts: number;
  /** who produced it */
  source: {
    /** cdp: the browser; kernel_api: the service API */
    kind: 'cdp' | 'kernel_api' | 'extension' | 'local_process';
    /** the producer’s own name of the event (Runtime.consoleAPICalled, …) */
    event?: string | undefined;
    /** the producer’s own context */
    metadata?: { [key: string]: string } | undefined;
  };
  /** what the event says; its fields depend on `type` */
  data?: { [key: string]: unknown } | undefined;
  /** true when data was longer than 8 KiB of JSON and was cut */
  truncated?: boolean | undefined;
}

export interface TelemetryEnvelope {
  /** its sequence number in the session, from 1; a gap means events were dropped */
  seq: number;
  /** the event */
  event: TelemetryEvent;
}

export interface ProcessStdinResult {
  /** how many bytes were written */
  written_bytes: number;
}

export interface ViewportUpdateInput {
  /** width in CSS pixels, 320–7680 */
  width: number;
  /** height in CSS pixels, 240–4320 */
  height: number;
  /** refresh rate in Hz */
  refresh_rate?: number | undefined;
  /** apply it while the browser is recorded: each recording ends and a new one starts at the new size; default false (409 instead) */
  force?: boolean | undefined;
}

export interface LoadedExtensions {
  /** the extensions loaded, in the order sent */
  extensions: {
    /** its folder name, as sent */
    name: string;
    /** the id Chromium gave it (its chrome-extension:// host) */
    extension_id: string;
  }[];
}

export interface Credential {
  /** the credential's id */
  id: string;
  /** the credential's name, unique in its project */
  name: string;
  /** the site it signs in to */
  domain: string;
  /** when it was made (ISO 8601 UTC) */
  created_at: string;
  /** when it last changed (ISO 8601 UTC) */
  updated_at: string;
  /** whether it holds any value */
  has_values?: boolean | undefined;
  /** whether it holds a TOTP secret */
  has_totp_secret?: boolean | undefined;
  /** the identity provider its sign-in goes through, if any */
  sso_provider?: string | null | undefined;
  /** the names of its values (never the values); on single credentials, not in lists */
  value_keys?: string[] | undefined;
  /** the current TOTP code, only in the answer to a call that just set the secret */
  totp_code?: string | undefined;
  /** when that code stops being valid (ISO 8601 UTC) */
  totp_code_expires_at?: string | undefined;
}

export interface TotpCode {
  /** the current code, 6 digits */
  code: string;
  /** when it stops being valid: the end of its 30-second step (ISO 8601 UTC) */
  expires_at: string;
}

export interface CredentialProvider {
  /** the provider's id */
  id: string;
  /** the provider's name, unique in the organization */
  name: string;
  /** what kind of store it is: onepassword */
  provider_type: 'onepassword';
  /** where its server answers (the 1Password Connect server) */
  url: string;
  /** whether sign-ins look items up in it */
  enabled: boolean;
  /** its place when several providers are asked for a site: lower first */
  priority: number;
  /** how long its lists of vaults and items are kept before it is asked again */
  cache_ttl_seconds: number;
  /** the projects whose own keys may sign in with its items (by id); organization-wide keys always may */
  allowed_projects: string[];
  /** when it was made (ISO 8601 UTC) */
  created_at: string;
  /** when it last changed (ISO 8601 UTC) */
  updated_at: string;
}

export interface ProviderVault {
  /** the vault's id in the provider */
  id: string;
  /** the vault's name */
  name: string;
}

export interface CredentialProviderTestResult {
  /** whether the provider answered and took the token */
  success: boolean;
  /** the vaults the token reaches (empty when it failed) */
  vaults: ProviderVault[];
  /** why it failed: refused, unreachable, the token not accepted */
  error?: string | undefined;
}

export interface CredentialProviderItem {
  /** the item's id in the provider */
  id: string;
  /** how a sign-in names it: "<vault name>/<item title>" */
  path: string;
  /** the item's title */
  title: string;
  /** its vault's id */
  vault_id: string;
  /** its vault's name */
  vault_name: string;
  /** the sites it is for, as the item lists them */
  urls?: string[] | undefined;
}

export interface CredentialProviderItems {
  /** the login items of every vault the token reaches */
  items: CredentialProviderItem[];
}

export interface AuthField {
  /** what `submit` names its value by (field_values) */
  id: string;
  /** the same, as the page names it */
  ref: string;
  /** what it asks for: identifier, password, code, totp_code, totp_secret, text */
  type: 'identifier' | 'password' | 'code' | 'totp_code' | 'totp_secret' | 'text';
  /** its label on the page */
  label?: string | undefined;
  /** a CSS selector of it on the page */
  observed_selector?: string | null | undefined;
  /** whether the form needs it */
  required?: boolean | undefined;
}

export interface DiscoveredField {
  /** its label on the page */
  label: string;
  /** what `submit` names it by (fields) */
  name: string;
  /** a CSS selector of it on the page */
  selector: string;
  /** its kind of input */
  type: 'text' | 'email' | 'password' | 'tel' | 'number' | 'url' | 'code' | 'totp';
  /** its placeholder text */
  placeholder?: string | undefined;
  /** whether the form needs it */
  required?: boolean | undefined;
}

export interface AuthConnection {
  /** the connection's id */
  id: string;
  /** the site it signs in to */
  domain: string;
  /** the profile it keeps signed in */
  profile_name: string;
  /** AUTHENTICATED or NEEDS_AUTH, as the last sign-in or health check found it */
  status: 'AUTHENTICATED' | 'NEEDS_AUTH';
  /** whether values typed in a flow are kept for the next (one-time codes never) */
  save_credentials: boolean;
  /** whether its flows' browsers are recorded */
  record_session: boolean;
  /** other sites the sign-in may pass through (its values are filled there too) */
  allowed_domains?: string[] | undefined;
  /** whether a failed health check signs in again when it can */
  auto_reauth?: boolean | undefined;
  /** whether the profile is checked periodically */
  health_checks?: boolean | undefined;
  /** seconds between health checks */
  health_check_interval?: number | null | undefined;
  /** where sign-ins start (else https://<domain>/) */
  login_url?: string | undefined;
  /** the proxy its browsers use */
  proxy_id?: string | undefined;
  /** where its values come from: {name}, {provider, path} or {provider, auto} */
  credential?:
    | {
        /** a credential of the project */
        name?: string | undefined;
        /** a credential provider */
        provider?: string | undefined;
        /** its item, "<vault>/<item>" */
        path?: string | undefined;
        /** the provider's item for the site */
        auto?: boolean | undefined;
      }
    | undefined;
  /** whether the service can sign in again by itself */
  can_reauth?: boolean | undefined;
  /** why (has_credential, external_credential, no_prior_successful_login, no_credential, requires_external_action, requires_totp_without_secret) */
  can_reauth_reason?: string | undefined;
  /** when a sign-in or health check last found out */
  last_auth_check_at?: string | undefined;
  /** how the current or last flow stands (null: none yet) */
  flow_status?: 'IN_PROGRESS' | 'SUCCESS' | 'FAILED' | 'EXPIRED' | 'CANCELED' | null | undefined;
  /** what it is doing */
  flow_step?:
    | 'DISCOVERING'
    | 'AWAITING_INPUT'
    | 'AWAITING_EXTERNAL_ACTION'
    | 'SUBMITTING'
    | 'COMPLETED'
    | null
    | undefined;
  /** LOGIN (a caller started it) or REAUTH (the service, after a failed health check) */
  flow_type?: 'LOGIN' | 'REAUTH' | null | undefined;
  /** when it expires unless it ends first */
  flow_expires_at?: string | null | undefined;
  /** where a person finishes the sign-in: the flow browser's live view, with control */
  hosted_url?: string | null | undefined;
  /** a read-only live view of the flow browser */
  live_view_url?: string | null | undefined;
  /** the browser the flow runs in */
  browser_session_id?: string | null | undefined;
  /** what the flow asks for (AWAITING_INPUT): submit their values by id */
  fields?: AuthField[] | null | undefined;
  /** the same fields as the page shows them */
  discovered_fields?: DiscoveredField[] | null | undefined;
  /** what a person must do at hosted_url (AWAITING_EXTERNAL_ACTION) */
  external_action_message?: string | null | undefined;
  /** why it failed: credentials_invalid, site_unreachable, no_login_form, not_signed_in, domain_not_allowed, browser_failed */
  error_code?: string | null | undefined;
  /** why it failed, in words */
  error_message?: string | null | undefined;
  /** the site's own error message, when it showed one */
  website_error?: string | null | undefined;
  /** the page the last successful sign-in ended on */
  post_login_url?: string | undefined;
  /** when it was made (ISO 8601 UTC) */
  created_at: string;
  /** when it last changed (ISO 8601 UTC) */
  updated_at: string;
}

export interface LoginResponse {
  /** the connection's id */
  id: string;
  /** LOGIN */
  flow_type: 'LOGIN' | 'REAUTH';
  /** when the flow expires */
  flow_expires_at: string;
  /** where a person can watch and finish it: the flow browser's live view, with control */
  hosted_url: string;
  /** a read-only live view of the flow browser */
  live_view_url?: string | undefined;
}

export interface SubmitResponse {
  /** whether the flow took the values (it goes on: follow its events) */
  accepted: boolean;
}

export interface AuthTimelineEvent {
  /** the entry's id */
  id: string;
  /** login, reauth or health_check */
  type: 'login' | 'reauth' | 'health_check';
  /** how it ended or stands (a health check: AUTHENTICATED or NEEDS_AUTH) */
  status:
    | 'IN_PROGRESS'
    | 'SUCCESS'
    | 'FAILED'
    | 'EXPIRED'
    | 'CANCELED'
    | 'AUTHENTICATED'
    | 'NEEDS_AUTH';
  /** a flow's last step */
  step?:
    | 'DISCOVERING'
    | 'AWAITING_INPUT'
    | 'AWAITING_EXTERNAL_ACTION'
    | 'SUBMITTING'
    | 'COMPLETED'
    | undefined;
  /** when it started */
  timestamp: string;
  /** when it last changed */
  updated_at?: string | undefined;
  /** the browser it ran in */
  browser_session_id?: string | undefined;
  /** the replay of the flow's browser, when it was recorded */
  replay_id?: string | undefined;
  /** the connection's status before it */
  previous_status?: 'AUTHENTICATED' | 'NEEDS_AUTH' | undefined;
  /** why it failed */
  error_code?: string | undefined;
  /** why it failed, in words */
  error_message?: string | undefined;
  /** the site's error message */
  website_error?: string | undefined;
}

export type DeploymentStatus = 'queued' | 'in_progress' | 'running' | 'failed' | 'stopped';

export interface Deployment {
  /** the deployment's id */
  id: string;
  /** when it was made (ISO 8601 UTC) */
  created_at: string;
  /** when its status last changed (ISO 8601 UTC) */
  updated_at?: string | undefined;
  /** queued, in_progress, running, failed or stopped */
  status: DeploymentStatus;
  /** why it failed or stopped */
  status_reason?: string | undefined;
  /** the app its code defines, once found (the first, when it defines several) */
  app_name?: string | undefined;
  /** the apps' version */
  version: string;
  /** the file loaded, relative to the archive root */
  entrypoint_rel_path: string;
  /** the code's environment variables: names only, each value '' */
  env_vars: { [key: string]: '' };
  /** an uploaded archive */
  source_type: 'file';
  /** SHA-256 of the archive as uploaded (lowercase hex) */
  source_checksum: string;
}

export interface AppAction {
  /** the action's name */
  name: string;
}

export interface AppVersion {
  /** the app version's id */
  id: string;
  /** the app's name */
  app_name: string;
  /** the version */
  version: string;
  /** the deployment that brought it */
  deployment: string;
  /** its actions */
  actions: AppAction[];
  /** its deployment's environment variables: names only, each value '' */
  env_vars: { [key: string]: '' };
}

export interface AuthContext {
  /** how the caller authenticated */
  authentication: {
    /** how the caller proved who it is: api_key (a bearer token) here */
    method: 'api_key' | 'jwt';
    /** where the credential came from: api_key here */
    source: 'api_key' | 'oauth' | 'dashboard';
    /** the API key's id, or op_ and a short hash of an operator's token (the audit log's key_id) */
    credential_id: string | null;
    /** this project's own: the API key's name, or `operator token` (`operator token (read-only)`) */
    credential_name: string;
    /** this project's own: operator_token (XB_TOKENS) or api_key, as the audit log names it */
    auth_strategy: 'operator_token' | 'api_key';
  };
  /** what the caller reaches */
  authorization: {
    /** the widest the credential reaches: a project key's project, else null */
    credential_scope: {
      /** the project; null: the whole organization */
      project_id: string | null;
    };
    /** the project this call acts in: X-Kernel-Project-Id, else the key’s project, else default; never null here */
    effective_scope: {
      /** the project; null: the whole organization */
      project_id: string | null;
    };
    /** this project's own: true when the credential reads records and metrics only */
    read_only: boolean;
  };
  /** the organization the caller belongs to */
  organization: {
    /** the organization: a server serves one, `default` */
    id: string;
  };
  /** who calls */
  principal: {
    /** the same id as credential_id */
    id: string;
    /** api_key here: no caller is a signed-in person */
    type: 'api_key' | 'user';
  };
}

// Operations

/** What `browsers.replays.stop` takes: its path parameters. */
export interface StopReplayInput {
  /** browser session id */
  id: string;
  /** replay id */
  replay_id: string;
}

/** What `browsers.computer.type` takes: its path parameters, body fields, side by side. */
export interface TypeTextInput {
  /** browser session id */
  id: string;
  /** text typed key by key, any Unicode, at most 100000 characters */
  text: string;
  /** pause between keystrokes, ms, ≥ 0, default 0 */
  delay?: number | undefined;
}

/** What `browserPools.get` takes: its path parameters. */
export interface GetBrowserPoolInput {
  /** pool id or name */
  id_or_name: string;
}

/** What `extensions.upload` takes: its form fields. */
export interface UploadExtensionInput {
  /** zip of an unpacked extension, manifest.json at its root, ≤ 52428800 bytes */
  file: UploadSource;
  /** unique name to refer to it by, [A-Za-z0-9._-], 1–255 characters */
  name?: string | undefined;
}

/** What `invocations.listBrowsers` takes: its path parameters. */
export interface ListInvocationBrowsersInput {
  /** invocation id */
  id: string;
}

/** What `browsers.process.status` takes: its path parameters. */
export interface GetProcessStatusInput {
  /** browser session id */
  id: string;
  /** process id */
  process_id: string;
}

/** What `browsers.fs.watch.stop` takes: its path parameters. */
export interface StopWatchInput {
  /** browser session id */
  id: string;
  /** watch id */
  watch_id: string;
}

/** What `browsers.create` takes: its body fields. */
export interface CreateBrowserInput {
  /** a name to find it by, unique among the running browsers of the project */
  name?: string | undefined;
  /** key-value tags, at most 50 (keys 1–64, values ≤ 256 characters) */
  tags?: { [key: string]: string } | undefined;
  /** run without a display, default true */
  headless?: boolean | undefined;
  /** hide the signs of an automated headless browser (webdriver flag, headless user agent and client hints, screen size), default false */
  stealth?: boolean | undefined;
  /** show no browser UI, default false */
  kiosk_mode?: boolean | undefined;
  /** GPU acceleration: true is refused where the server renders without a GPU (every self-hosted server today) */
  gpu?: boolean | undefined;
  /** an http(s) page its first tab opens once it runs, without waiting for it to load (a page that fails to load does not fail the create) */
  start_url?: string | undefined;
  /** Chrome enterprise policies it starts with, by name; those the service sets itself (extensions, proxy, DevTools, headless mode, its folders) are refused */
  chrome_policy?: { [key: string]: unknown } | undefined;
  /** idle time-out, seconds, 10–259200, default 60: deleted after this long with no API call on it, no DevTools or BiDi client connected and nobody in its live view */
  timeout_seconds?: number | undefined;
  /** window size, width 320–7680 and height 200–4320 pixels, default 1920×1080 */
  viewport?: ViewportInput | undefined;
  /** extensions to load, by id or name, at most 20 */
  extensions?:
    | (
        | {
            /** extension id */
            id: string;
          }
        | {
            /** extension name */
            name: string;
          }
      )[]
    | undefined;
  /** the running invocation the session belongs to */
  invocation_id?: string | undefined;
  /** proxy to route every request through */
  proxy_id?: string | undefined;
  /** profile to load, by id or name (save_changes to save into it) */
  profile?: ProfileReferenceInput | undefined;
  /** private destinations it may reach, a subset of what the operator allows; none by default */
  network?: NetworkInput | undefined;
  /** what its telemetry captures: {} for the operational categories, browser.<category>.enabled for more; none by default */
  telemetry?:
    | {
        /** false: capture nothing; true or absent: the operational categories and those turned on */
        enabled?: boolean | undefined;
        /** categories turned on or off over the defaults */
        browser?:
          | {
              /** calls of the API on the browser; on by default */
              control?:
                | {
                    /** capture this category */
                    enabled?: boolean | undefined;
                  }
                | undefined;
              /** DevTools clients and live view viewers arriving and leaving; on by default */
              connection?:
                | {
                    /** capture this category */
                    enabled?: boolean | undefined;
                  }
                | undefined;
              /** health of the browser; on by default */
              system?:
                | {
                    /** capture this category */
                    enabled?: boolean | undefined;
                  }
                | undefined;
              /** captcha solving; on by default */
              captcha?:
                | {
                    /** capture this category */
                    enabled?: boolean | undefined;
                  }
                | undefined;
              /** console messages and uncaught exceptions of the pages; off by default */
              console?:
                | {
                    /** capture this category */
                    enabled?: boolean | undefined;
                  }
                | undefined;
              /** requests, responses and failed loads of the pages; off by default */
              network?:
                | {
                    /** capture this category */
                    enabled?: boolean | undefined;
                  }
                | undefined;
              /** navigations, DOMContentLoaded, load and new tabs; off by default */
              page?:
                | {
                    /** capture this category */
                    enabled?: boolean | undefined;
                  }
                | undefined;
              /** clicks and keys; off by default */
              interaction?:
                | {
                    /** capture this category */
                    enabled?: boolean | undefined;
                  }
                | undefined;
              /** periodic screenshots; off by default */
              screenshot?:
                | {
                    /** capture this category */
                    enabled?: boolean | undefined;
                  }
                | undefined;
            }
          | undefined;
      }
    | null
    | undefined;
}

/** What `browsers.list` takes: its query parameters. */
export interface ListBrowsersInput {
  /** records skipped before this page, ≥ 0, default 0 */
  offset?: number | string | undefined;
  /** records on the page, 1–100, default 20 */
  limit?: number | string | undefined;
  /** which sessions: active (running), deleted (ended) or all, default active */
  status?: 'active' | 'deleted' | 'all' | undefined;
}

/** What `browsers.get` takes: its path parameters. */
export interface GetBrowserInput {
  /** browser session id, or the name of a running browser */
  id: string;
}

/** What `browsers.delete` takes: its path parameters. */
export interface DeleteBrowserInput {
  /** browser session id, or the name of a running browser */
  id: string;
}

/** What `browsers.computer.screenshot` takes: its path parameters, body fields, side by side. */
export interface ScreenshotInput {
  /** browser session id */
  id: string;
  /** the part of the viewport to capture, default all of it */
  region?: ScreenshotRegion | undefined;
}

/** What `browsers.computer.clickMouse` takes: its path parameters, body fields, side by side. */
export interface ClickMouseInput {
  /** browser session id */
  id: string;
  /** x in CSS pixels of the viewport, from 0 */
  x: number;
  /** y in CSS pixels of the viewport, from 0 */
  y: number;
  /** left, right, middle, back or forward, default left */
  button?: 'left' | 'right' | 'middle' | 'back' | 'forward' | undefined;
  /** down, up or click (both), default click */
  click_type?: 'down' | 'up' | 'click' | undefined;
  /** clicks, 1–10 (2 is a double click), default 1 */
  num_clicks?: number | undefined;
  /** keys held through the click, at most 8, default none */
  hold_keys?: string[] | undefined;
}

/** What `browsers.computer.moveMouse` takes: its path parameters, body fields, side by side. */
export interface MoveMouseInput {
  /** browser session id */
  id: string;
  /** x in CSS pixels of the viewport, from 0 */
  x: number;
  /** y in CSS pixels of the viewport, from 0 */
  y: number;
  /** keys held through the move, at most 8, default none */
  hold_keys?: string[] | undefined;
  /** move along a human-like path, default false */
  smooth?: boolean | undefined;
  /** how long a smooth move takes, ms, 50–5000 */
  duration_ms?: number | undefined;
}

/** What `browsers.computer.dragMouse` takes: its path parameters, body fields, side by side. */
export interface DragMouseInput {
  /** browser session id */
  id: string;
  /** points [x, y] to drag through, 2–1000 */
  path: [number, number][];
  /** left, middle or right, default left */
  button?: 'left' | 'middle' | 'right' | undefined;
  /** pause after pressing, before moving, ms, 0–10000, default 0 */
  delay?: number | undefined;
  /** moves between two points, 1–100, default 10 */
  steps_per_segment?: number | undefined;
  /** pause between two moves, ms, 0–1000, default 50 */
  step_delay_ms?: number | undefined;
  /** move along a human-like path, default false */
  smooth?: boolean | undefined;
  /** how long a smooth drag takes, ms, 50–5000 */
  duration_ms?: number | undefined;
  /** keys held through the drag, at most 8, default none */
  hold_keys?: string[] | undefined;
}

/** What `browsers.computer.scroll` takes: its path parameters, body fields, side by side. */
export interface ScrollInput {
  /** browser session id */
  id: string;
  /** x where the wheel turns, CSS pixels, from 0 */
  x: number;
  /** y where the wheel turns, CSS pixels, from 0 */
  y: number;
  /** wheel notches sideways (right positive), ±100, default 0 */
  delta_x?: number | undefined;
  /** wheel notches down (positive) or up, ±100, default 0 */
  delta_y?: number | undefined;
  /** keys held through the scroll, at most 8, default none */
  hold_keys?: string[] | undefined;
}

/** What `browsers.computer.pressKey` takes: its path parameters, body fields, side by side. */
export interface PressKeyInput {
  /** browser session id */
  id: string;
  /** keys or combos pressed in order (Return, ctrl+a), 1–64 */
  keys: string[];
  /** how long each key is held down, ms, 0–10000, default 0 */
  duration?: number | undefined;
  /** keys held through the presses, at most 8, default none */
  hold_keys?: string[] | undefined;
}

/** What `browsers.computer.getMousePosition` takes: its path parameters. */
export interface GetMousePositionInput {
  /** browser session id */
  id: string;
}

/** What `browsers.computer.setCursorVisibility` takes: its path parameters, body fields, side by side. */
export interface SetCursorVisibilityInput {
  /** browser session id */
  id: string;
  /** hide the mouse cursor (true) or show it */
  hidden: boolean;
}

/** What `browsers.computer.readClipboard` takes: its path parameters. */
export interface ReadClipboardInput {
  /** browser session id */
  id: string;
}

/** What `browsers.computer.writeClipboard` takes: its path parameters, body fields, side by side. */
export interface WriteClipboardInput {
  /** browser session id */
  id: string;
  /** text put on the clipboard, at most 100000 characters */
  text: string;
}

/** What `browsers.computer.batch` takes: its path parameters, body fields, side by side. */
export interface BatchInput {
  /** browser session id */
  id: string;
  /** actions run in order as one input, 1–100 */
  actions: BatchActionInput[];
}

/** What `browsers.replays.start` takes: its path parameters, body fields, side by side. */
export interface StartReplayInput {
  /** browser session id */
  id: string;
  /** frames per second, 1–30, default 10 */
  framerate?: number | undefined;
  /** seconds after which it stops by itself, 1–14400, default 14400 */
  max_duration_in_seconds?: number | undefined;
}

/** What `browsers.replays.list` takes: its path parameters, query parameters, side by side. */
export interface ListReplaysInput {
  /** browser session id */
  id: string;
  /** records skipped before this page, ≥ 0, default 0 */
  offset?: number | string | undefined;
  /** records on the page, 1–100, default 20 */
  limit?: number | string | undefined;
}

/** What `browsers.replays.download` takes: its path parameters. */
export interface DownloadReplayInput {
  /** browser session id */
  id: string;
  /** replay id */
  replay_id: string;
}

/** What `browsers.replays.download` answers. */
export type DownloadReplayResult =
  | { status: 200; value: BinaryBody }
  | { status: 202; value: Replay };

/** What `browsers.liveView.create` takes: its path parameters, body fields, side by side. */
export interface CreateLiveViewInput {
  /** browser session id */
  id: string;
  /** control (watch and drive) or read (watch only), default control */
  mode?: 'control' | 'read' | undefined;
  /** seconds the link works, 1–86400, default 86400 */
  ttl_seconds?: number | undefined;
}

/** What `browsers.process.spawn` takes: its path parameters, body fields, side by side. */
export interface SpawnProcessInput {
  /** browser session id */
  id: string;
  /** program to run, a name on PATH or an absolute path */
  command: string;
  /**
   * its arguments, at most 4096
   * @default []
   */
  args?: string[] | undefined;
  /** absolute working directory, default the home directory */
  cwd?: string | undefined;
  /**
   * environment variables added to its own
   * @default {}
   */
  env?: { [key: string]: string } | undefined;
  /** seconds before it is killed, 1–86400, default none */
  timeout_sec?: number | undefined;
  /**
   * run it on a terminal of its own (its output, stdout and stderr as one, reads as stdout)
   * @default false
   */
  allocate_tty?: boolean | undefined;
  /** the terminal's rows, 1–65535, default 24; only with allocate_tty */
  rows?: number | undefined;
  /** the terminal's cols, 1–65535, default 80; only with allocate_tty */
  cols?: number | undefined;
}

/** What `browsers.process.exec` takes: its path parameters, body fields, side by side. */
export interface ExecProcessInput {
  /** browser session id */
  id: string;
  /** program to run, a name on PATH or an absolute path */
  command: string;
  /**
   * its arguments, at most 4096
   * @default []
   */
  args?: string[] | undefined;
  /** absolute working directory, default the home directory */
  cwd?: string | undefined;
  /**
   * environment variables added to its own
   * @default {}
   */
  env?: { [key: string]: string } | undefined;
  /** seconds before it is killed, 1–86400, default none */
  timeout_sec?: number | undefined;
}

/** What `browsers.process.kill` takes: its path parameters, body fields, side by side. */
export interface KillProcessInput {
  /** browser session id */
  id: string;
  /** process id */
  process_id: string;
  /** TERM, KILL, INT or HUP, default TERM */
  signal?: ProcessSignal | undefined;
}

/** What `browsers.process.output` takes: its path parameters. */
export interface StreamProcessOutputInput {
  /** browser session id */
  id: string;
  /** process id */
  process_id: string;
}

/** What `browsers.fs.watch.start` takes: its path parameters, body fields, side by side. */
export interface StartWatchInput {
  /** browser session id */
  id: string;
  /** absolute path of the directory to watch */
  path: string;
  /** watch subdirectories too, default false */
  recursive?: boolean | undefined;
}

/** What `browsers.fs.watch.events` takes: its path parameters. */
export interface WatchEventsInput {
  /** browser session id */
  id: string;
  /** watch id */
  watch_id: string;
}

/** What `browsers.fs.readFile` takes: its path parameters, query parameters, side by side. */
export interface ReadFileInput {
  /** browser session id */
  id: string;
  /** absolute path on the browser instance */
  path: string;
}

/** What `browsers.fs.writeFile` takes: its path parameters, query parameters, form fields, side by side. */
export interface WriteFileInput {
  /** browser session id */
  id: string;
  /** absolute path of the file, ≤ 4096 bytes */
  path: string;
  /** permissions, 3 or 4 octal digits, default 644 */
  mode?: string | undefined;
  /** the file's bytes, streamed as sent */
  content: UploadSource;
}

/** What `browsers.fs.listFiles` takes: its path parameters, query parameters, side by side. */
export interface ListFilesInput {
  /** browser session id */
  id: string;
  /** absolute path on the browser instance */
  path: string;
}

/** What `browsers.fs.fileInfo` takes: its path parameters, query parameters, side by side. */
export interface FileInfoInput {
  /** browser session id */
  id: string;
  /** absolute path on the browser instance */
  path: string;
}

/** What `browsers.fs.createDirectory` takes: its path parameters, body fields, side by side. */
export interface CreateDirectoryInput {
  /** browser session id */
  id: string;
  /** absolute path of the directory; missing parents are made */
  path: string;
  /** permissions, 3 or 4 octal digits, default 755 */
  mode?: string | undefined;
}

/** What `browsers.fs.deleteFile` takes: its path parameters, body fields, side by side. */
export interface DeleteFileInput {
  /** browser session id */
  id: string;
  /** absolute path on the browser instance */
  path: string;
}

/** What `browsers.fs.deleteDirectory` takes: its path parameters, body fields, side by side. */
export interface DeleteDirectoryInput {
  /** browser session id */
  id: string;
  /** absolute path on the browser instance */
  path: string;
}

/** What `browsers.fs.move` takes: its path parameters, body fields, side by side. */
export interface MoveFileInput {
  /** browser session id */
  id: string;
  /** absolute path to move from */
  src_path: string;
  /** absolute path to move to */
  dest_path: string;
}

/** What `browsers.fs.setFilePermissions` takes: its path parameters, body fields, side by side. */
export interface SetFilePermissionsInput {
  /** browser session id */
  id: string;
  /** absolute path of the file or directory */
  path: string;
  /** permissions, 3 or 4 octal digits (755) */
  mode: string;
  /** user to own it */
  owner?: string | undefined;
  /** group to own it */
  group?: string | undefined;
}

/** What `browsers.fs.upload` takes: its path parameters, form fields, side by side. */
export interface UploadFilesInput {
  /** browser session id */
  id: string;
  /** files, each with its destination, at most 100 */
  files: UploadFileInput[];
}

/** What `browsers.fs.uploadZip` takes: its path parameters, form fields, side by side. */
export interface UploadZipInput {
  /** browser session id */
  id: string;
  /** absolute path of the directory to unpack into */
  dest_path: string;
  /** the zip archive */
  zip_file: UploadSource;
}

/** What `browsers.fs.downloadDirZip` takes: its path parameters, query parameters, side by side. */
export interface DownloadDirZipInput {
  /** browser session id */
  id: string;
  /** absolute path on the browser instance */
  path: string;
}

/** What `browserPools.create` takes: its body fields. */
export interface CreateBrowserPoolInput {
  /** unique name of the pool, [A-Za-z0-9._-], 1–255 characters */
  name?: string | undefined;
  /** browsers kept warm, 1–500 */
  size: number;
  /** percent of the size started per minute while filling, 1–100, default 10 */
  fill_rate_per_minute?: number | undefined;
  /** idle time-out of an acquired browser, seconds, 10–259200, default 600 */
  timeout_seconds?: number | undefined;
  /** hide the signs of an automated headless browser (webdriver flag, headless user agent and client hints, screen size), default false */
  stealth?: boolean | undefined;
  /** run without a display, default true */
  headless?: boolean | undefined;
  /** profile the browsers load read-only, by id or name */
  profile?: PoolProfileReferenceInput | undefined;
  /** extensions the browsers load, by id or name, at most 20 */
  extensions?:
    | (
        | {
            /** extension id */
            id: string;
          }
        | {
            /** extension name */
            name: string;
          }
      )[]
    | undefined;
  /** proxy the browsers route through */
  proxy_id?: string | undefined;
  /** private destinations the browsers may reach, a subset of what the operator allows */
  network?: NetworkInput | undefined;
  /** window size, width 320–7680 and height 200–4320 pixels */
  viewport?: ViewportInput | undefined;
  /** show no browser UI, default false */
  kiosk_mode?: boolean | undefined;
  /** Chromium enterprise policies, as a JSON object */
  chrome_policy?: Record<string, unknown> | undefined;
  /** what the telemetry of its browsers captures ({} for the operational categories); null: nothing */
  telemetry?:
    | {
        /** false: capture nothing; true or absent: the operational categories and those turned on */
        enabled?: boolean | undefined;
        /** categories turned on or off over the defaults */
        browser?:
          | {
              /** calls of the API on the browser; on by default */
              control?:
                | {
                    /** capture this category */
                    enabled?: boolean | undefined;
                  }
                | undefined;
              /** DevTools clients and live view viewers arriving and leaving; on by default */
              connection?:
                | {
                    /** capture this category */
                    enabled?: boolean | undefined;
                  }
                | undefined;
              /** health of the browser; on by default */
              system?:
                | {
                    /** capture this category */
                    enabled?: boolean | undefined;
                  }
                | undefined;
              /** captcha solving; on by default */
              captcha?:
                | {
                    /** capture this category */
                    enabled?: boolean | undefined;
                  }
                | undefined;
              /** console messages and uncaught exceptions of the pages; off by default */
              console?:
                | {
                    /** capture this category */
                    enabled?: boolean | undefined;
                  }
                | undefined;
              /** requests, responses and failed loads of the pages; off by default */
              network?:
                | {
                    /** capture this category */
                    enabled?: boolean | undefined;
                  }
                | undefined;
              /** navigations, DOMContentLoaded, load and new tabs; off by default */
              page?:
                | {
                    /** capture this category */
                    enabled?: boolean | undefined;
                  }
                | undefined;
              /** clicks and keys; off by default */
              interaction?:
                | {
                    /** capture this category */
                    enabled?: boolean | undefined;
                  }
                | undefined;
              /** periodic screenshots; off by default */
              screenshot?:
                | {
                    /** capture this category */
                    enabled?: boolean | undefined;
                  }
                | undefined;
            }
          | undefined;
      }
    | null
    | undefined;
}

/** What `browserPools.list` takes: its query parameters. */
export interface ListBrowserPoolsInput {
  /** records skipped before this page, ≥ 0, default 0 */
  offset?: number | string | undefined;
  /** records on the page, 1–100, default 20 */
  limit?: number | string | undefined;
  /** only the record with exactly this name */
  name?: string | undefined;
  /** only records whose id or name contains this, any case, ≤ 255 characters */
  query?: string | undefined;
}

/** What `browserPools.update` takes: its path parameters, body fields, side by side. */
export interface UpdateBrowserPoolInput {
  /** pool id or name */
  id_or_name: string;
  /** unique name of the pool, [A-Za-z0-9._-], 1–255 characters */
  name?: string | undefined;
  /** browsers kept warm, 1–500 */
  size?: number | undefined;
  /** percent of the size started per minute while filling, 1–100, default 10 */
  fill_rate_per_minute?: number | undefined;
  /** idle time-out of an acquired browser, seconds, 10–259200, default 600 */
  timeout_seconds?: number | undefined;
  /** hide the signs of an automated headless browser (webdriver flag, headless user agent and client hints, screen size), default false */
  stealth?: boolean | undefined;
  /** run without a display, default true */
  headless?: boolean | undefined;
  /** profile the browsers load read-only, by id or name */
  profile?: PoolProfileReferenceInput | undefined;
  /** extensions the browsers load, by id or name, at most 20 */
  extensions?:
    | (
        | {
            /** extension id */
            id: string;
          }
        | {
            /** extension name */
            name: string;
          }
      )[]
    | undefined;
  /** proxy the browsers route through */
  proxy_id?: string | undefined;
  /** private destinations the browsers may reach, a subset of what the operator allows */
  network?: NetworkInput | undefined;
  /** window size, width 320–7680 and height 200–4320 pixels */
  viewport?: ViewportInput | undefined;
  /** show no browser UI, default false */
  kiosk_mode?: boolean | undefined;
  /** Chromium enterprise policies, as a JSON object */
  chrome_policy?: Record<string, unknown> | undefined;
  /** what the telemetry of its browsers captures ({} for the operational categories); null: nothing */
  telemetry?:
    | {
        /** false: capture nothing; true or absent: the operational categories and those turned on */
        enabled?: boolean | undefined;
        /** categories turned on or off over the defaults */
        browser?:
          | {
              /** calls of the API on the browser; on by default */
              control?:
                | {
                    /** capture this category */
                    enabled?: boolean | undefined;
                  }
                | undefined;
              /** DevTools clients and live view viewers arriving and leaving; on by default */
              connection?:
                | {
                    /** capture this category */
                    enabled?: boolean | undefined;
                  }
                | undefined;
              /** health of the browser; on by default */
              system?:
                | {
                    /** capture this category */
                    enabled?: boolean | undefined;
                  }
                | undefined;
              /** captcha solving; on by default */
              captcha?:
                | {
                    /** capture this category */
                    enabled?: boolean | undefined;
                  }
                | undefined;
              /** console messages and uncaught exceptions of the pages; off by default */
              console?:
                | {
                    /** capture this category */
                    enabled?: boolean | undefined;
                  }
                | undefined;
              /** requests, responses and failed loads of the pages; off by default */
              network?:
                | {
                    /** capture this category */
                    enabled?: boolean | undefined;
                  }
                | undefined;
              /** navigations, DOMContentLoaded, load and new tabs; off by default */
              page?:
                | {
                    /** capture this category */
                    enabled?: boolean | undefined;
                  }
                | undefined;
              /** clicks and keys; off by default */
              interaction?:
                | {
                    /** capture this category */
                    enabled?: boolean | undefined;
                  }
                | undefined;
              /** periodic screenshots; off by default */
              screenshot?:
                | {
                    /** capture this category */
                    enabled?: boolean | undefined;
                  }
                | undefined;
            }
          | undefined;
      }
    | null
    | undefined;
}

/** What `browserPools.delete` takes: its path parameters, query parameters, side by side. */
export interface DeleteBrowserPoolInput {
  /** pool id or name */
  id_or_name: string;
  /** delete even while browsers are acquired (they end), default false */
  force?: boolean | ('true' | 'false') | undefined;
}

/** What `browserPools.acquire` takes: its path parameters, body fields, side by side. */
export interface AcquireBrowserInput {
  /** pool id or name */
  id_or_name: string;
  /** seconds to wait for a browser to come free, 0–300, default 30 */
  acquire_timeout_seconds?: number | undefined;
}

/** What `browserPools.acquire` answers. */
export type AcquireBrowserResult =
  | { status: 200; value: BrowserSession }
  | { status: 204; value: undefined };

/** What `browserPools.release` takes: its path parameters, body fields, side by side. */
export interface ReleaseBrowserInput {
  /** pool id or name */
  id_or_name: string;
  /** the acquired browser to hand back */
  session_id: string;
  /** start its replacement at once, default true */
  reuse?: boolean | undefined;
}

/** What `browserPools.flush` takes: its path parameters. */
export interface FlushBrowserPoolInput {
  /** pool id or name */
  id_or_name: string;
}

/** What `extensions.list` takes: its query parameters. */
export interface ListExtensionsInput {
  /** records skipped before this page, ≥ 0, default 0 */
  offset?: number | string | undefined;
  /** records on the page, 1–100, default 20 */
  limit?: number | string | undefined;
  /** only the record with exactly this name */
  name?: string | undefined;
  /** only records whose id or name contains this, any case, ≤ 255 characters */
  query?: string | undefined;
}

/** What `extensions.download` takes: its path parameters. */
export interface DownloadExtensionInput {
  /** extension id or name */
  id_or_name: string;
}

/** What `extensions.delete` takes: its path parameters. */
export interface DeleteExtensionInput {
  /** extension id or name */
  id_or_name: string;
}

/** What `invocations.create` takes: its body fields. */
export interface CreateInvocationInput {
  /** the action to run, 1–255 characters */
  action_name: string;
  /** the app whose action it is, 1–255 characters */
  app_name: string;
  /** the app's version, 1–255 characters, default latest */
  version?: string | undefined;
  /** the action's input as JSON text, ≤ 65536 characters */
  payload?: string | undefined;
  /** answer 202 queued at once and run in the background (default: wait up to 100 s for the result) */
  async?: boolean | undefined;
  /** how long an async invocation may run, 10–3600 s (default 900) */
  async_timeout_seconds?: number | undefined;
}

/** What `invocations.create` answers. */
export type CreateInvocationResult =
  | { status: 200; value: Invocation }
  | { status: 202; value: Invocation };

/** What `invocations.list` takes: its query parameters. */
export interface ListInvocationsInput {
  /** records skipped before this page, ≥ 0, default 0 */
  offset?: number | string | undefined;
  /** records on the page, 1–100, default 20 */
  limit?: number | string | undefined;
  /** only invocations in this status */
  status?: InvocationStatus | undefined;
  /** only invocations of this app */
  app_name?: string | undefined;
  /** only invocations of this action */
  action_name?: string | undefined;
}

/** What `invocations.get` takes: its path parameters. */
export interface GetInvocationInput {
  /** invocation id */
  id: string;
}

/** What `invocations.update` takes: its path parameters, body fields, side by side. */
export interface UpdateInvocationInput {
  /** invocation id */
  id: string;
  /** how it ended: succeeded or failed */
  status: 'succeeded' | 'failed';
  /** the action's result, ≤ 65536 characters */
  output?: string | undefined;
}

/** What `profiles.create` takes: its body fields. */
export interface CreateProfileInput {
  /** unique name, [A-Za-z0-9._-], 1–255 characters */
  name?: string | undefined;
}

/** What `profiles.list` takes: its query parameters. */
export interface ListProfilesInput {
  /** records skipped before this page, ≥ 0, default 0 */
  offset?: number | string | undefined;
  /** records on the page, 1–100, default 20 */
  limit?: number | string | undefined;
  /** only the record with exactly this name */
  name?: string | undefined;
  /** only records whose id or name contains this, any case, ≤ 255 characters */
  query?: string | undefined;
}

/** What `profiles.get` takes: its path parameters. */
export interface GetProfileInput {
  /** profile id or name */
  id_or_name: string;
}

/** What `profiles.update` takes: its path parameters, body fields, side by side. */
export interface UpdateProfileInput {
  /** profile id or name */
  id_or_name: string;
  /** new unique name */
  name: string;
}

/** What `profiles.delete` takes: its path parameters. */
export interface DeleteProfileInput {
  /** profile id or name */
  id_or_name: string;
}

/** What `profiles.download` takes: its path parameters, query parameters, side by side. */
export interface DownloadProfileInput {
  /** profile id or name */
  id_or_name: string;
  /** tar or tar.zst (zstd-compressed), default tar */
  format?: 'tar' | 'tar.zst' | undefined;
}

/** What `proxies.create` takes: its body fields. */
export interface CreateProxyInput {
  /** custom (a proxy you run) */
  type: 'custom' | 'datacenter' | 'isp' | 'residential' | 'mobile';
  /** unique name, [A-Za-z0-9._-], 1–255 characters */
  name?: string | undefined;
  /** http, or https (TLS to the proxy), default http */
  protocol?: 'http' | 'https' | undefined;
  /** where the proxy is and its credentials */
  config: {
    /** host name or IP address, without scheme or port */
    host: string;
    /** port, 1–65535 */
    port: number;
    /** username the proxy asks for */
    username?: string | undefined;
    /** password the proxy asks for; write-only */
    password?: string | undefined;
  };
  /** hosts reached directly (example.com, *.example.com, an IP), at most 100 */
  bypass_hosts?: string[] | undefined;
}

/** What `proxies.list` takes: its query parameters. */
export interface ListProxiesInput {
  /** records skipped before this page, ≥ 0, default 0 */
  offset?: number | string | undefined;
  /** records on the page, 1–100, default 20 */
  limit?: number | string | undefined;
}

/** What `proxies.get` takes: its path parameters. */
export interface GetProxyInput {
  /** proxy id */
  id: string;
}

/** What `proxies.update` takes: its path parameters, body fields, side by side. */
export interface UpdateProxyInput {
  /** proxy id */
  id: string;
  /** new unique name */
  name?: string | undefined;
  /** http or https */
  protocol?: 'http' | 'https' | undefined;
  /** the fields of the configuration to change */
  config?:
    | {
        /** host name or IP address */
        host?: string | undefined;
        /** port, 1–65535 */
        port?: number | undefined;
        /** username; null removes it */
        username?: string | null | undefined;
        /** password; null removes it; write-only */
        password?: string | null | undefined;
      }
    | undefined;
  /** hosts reached directly, at most 100 */
  bypass_hosts?: string[] | undefined;
}

/** What `proxies.delete` takes: its path parameters, query parameters, side by side. */
export interface DeleteProxyInput {
  /** proxy id */
  id: string;
  /** delete even while browsers use it (they keep their route), default false */
  force?: boolean | ('true' | 'false') | undefined;
}

/** What `proxies.check` takes: its path parameters. */
export interface CheckProxyInput {
  /** proxy id */
  id: string;
}

/** What `projects.create` takes: its body fields. */
export interface CreateProjectInput {
  /** unique name, [A-Za-z0-9._-], 1–255 characters */
  name: string;
}

/** What `projects.list` takes: its query parameters. */
export interface ListProjectsInput {
  /** records skipped before this page, ≥ 0, default 0 */
  offset?: number | string | undefined;
  /** records on the page, 1–100, default 20 */
  limit?: number | string | undefined;
  /** only the project with exactly this name */
  name?: string | undefined;
  /** only projects whose id or name contains this, any case */
  query?: string | undefined;
}

/** What `projects.get` takes: its path parameters. */
export interface GetProjectInput {
  /** project id or name */
  id_or_name: string;
}

/** What `projects.update` takes: its path parameters, body fields, side by side. */
export interface UpdateProjectInput {
  /** project id or name */
  id_or_name: string;
  /** new unique name */
  name?: string | undefined;
  /** active or archived */
  status?: 'active' | 'archived' | undefined;
}

/** What `projects.delete` takes: its path parameters. */
export interface DeleteProjectInput {
  /** project id or name */
  id_or_name: string;
}

/** What `projects.limits.get` takes: its path parameters. */
export interface GetProjectLimitsInput {
  /** project id or name */
  id_or_name: string;
}

/** What `projects.limits.update` takes: its path parameters, body fields, side by side. */
export interface UpdateProjectLimitsInput {
  /** project id or name */
  id_or_name: string;
  /** most browsers at once, pools' sizes included, 0–100000; 0 or null removes the cap */
  max_concurrent_sessions?: number | null | undefined;
  /** most running invocations at once, 0–100000; 0 or null removes the cap */
  max_concurrent_invocations?: number | null | undefined;
}

/** What `org.limits.get` takes: nothing. */
export type GetOrgLimitsInput = Record<never, never>;

/** What `org.limits.update` takes: its body fields. */
export interface UpdateOrgLimitsInput {
  /** the cap of projects that set none, 0–100000; 0 or null removes it */
  default_project_max_concurrent_sessions?: number | null | undefined;
  /** the invocation cap of projects that set none, 0–100000; 0 or null removes it */
  default_project_max_concurrent_invocations?: number | null | undefined;
}

/** What `apiKeys.create` takes: its body fields. */
export interface CreateApiKeyInput {
  /** a label, 1–255 characters */
  name: string;
  /** the one project it reaches (id or name); absent: every project */
  project_id?: string | null | undefined;
  /** it may only read records and metrics, default false */
  read_only?: boolean | undefined;
  /** days until it stops working, 1–3650; absent or null: never */
  days_to_expire?: number | null | undefined;
}

/** What `apiKeys.list` takes: its query parameters. */
export interface ListApiKeysInput {
  /** records skipped before this page, ≥ 0, default 0 */
  offset?: number | string | undefined;
  /** records on the page, 1–100, default 20 */
  limit?: number | string | undefined;
  /** active (default), deleted, or all */
  status?: 'active' | 'deleted' | 'all' | undefined;
  /** only keys with exactly this label */
  name?: string | undefined;
  /** only keys whose id, label or project contains this, any case */
  query?: string | undefined;
}

/** What `apiKeys.get` takes: its path parameters, query parameters, side by side. */
export interface GetApiKeyInput {
  /** API key id */
  id: string;
  /** answer for a deleted key too, default false */
  include_deleted?: boolean | ('true' | 'false') | undefined;
}

/** What `apiKeys.update` takes: its path parameters, body fields, side by side. */
export interface UpdateApiKeyInput {
  /** API key id */
  id: string;
  /** the new label */
  name: string;
}

/** What `apiKeys.delete` takes: its path parameters. */
export interface DeleteApiKeyInput {
  /** API key id */
  id: string;
}

/** What `apiKeys.rotate` takes: its path parameters, body fields, side by side. */
export interface RotateApiKeyInput {
  /** API key id */
  id: string;
  /** the new key's lifetime in days; absent: the old key's lifetime */
  days_to_expire?: number | null | undefined;
  /** days the old key keeps working, 0–30; absent or 0: it stops now */
  expire_in_days?: number | null | undefined;
}

/** What `auditLogs.list` takes: its query parameters. */
export interface ListAuditLogsInput {
  /** earliest time, inclusive (ISO 8601) */
  start: string;
  /** latest time, exclusive (ISO 8601) */
  end: string;
  /** only entries of this method */
  method?: 'POST' | 'PUT' | 'PATCH' | 'DELETE' | undefined;
  /** only entries whose path, key id, key name, client IP or status contains this, any case */
  search?: string | undefined;
  /** where the last page stopped (its X-Next-Page-Token) */
  page_token?: string | undefined;
  /** entries on the page, 1–100, default 20 */
  limit?: number | string | undefined;
}

/** What `nodes.list` takes: its query parameters. */
export interface ListNodesInput {
  /** records skipped before this page, ≥ 0, default 0 */
  offset?: number | string | undefined;
  /** records on the page, 1–100, default 20 */
  limit?: number | string | undefined;
}

/** What `nodes.drain` takes: its path parameters, body fields, side by side. */
export interface DrainNodeInput {
  /** node id */
  id: string;
  /** how long the call waits for the node's sessions in use to end, 0–600 s, default 0 (answer at once) */
  wait_seconds?: number | undefined;
}

/** What `browsers.playwright.execute` takes: its path parameters, body fields, side by side. */
export interface ExecutePlaywrightInput {
  /** browser session id */
  id: string;
  /** TypeScript or JavaScript: the body of an async function with page, context and browser in scope; what it returns is the result */
  code: string;
  /** seconds the code may run before it is stopped, 1–300, default 60 */
  timeout_sec?: number | undefined;
}

/** What `browsers.logs.stream` takes: its path parameters, query parameters, side by side. */
export interface StreamLogsInput {
  /** browser session id */
  id: string;
  /** path: a file on the instance; supervisor: the session’s own service log */
  source: 'path' | 'supervisor';
  /** the file to stream, absolute (source=path) */
  path?: string | undefined;
  /** true (the default): start at the end and wait for more lines; false: every line there is, then the end */
  follow?: boolean | ('true' | 'false') | undefined;
  /** only this part of the service log (source=supervisor): browser or service; both when absent */
  supervisor_process?: 'browser' | 'service' | 'chromium' | undefined;
}

/** What `browsers.curl` takes: its path parameters, body fields, side by side. */
export interface CurlInput {
  /** browser session id */
  id: string;
  /** the URL to request, http or https */
  url: string;
  /** the method, default GET: GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS */
  method?: 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS' | undefined;
  /**
   * headers to send, over the ones the browser sends by itself
   * @default {}
   */
  headers?: { [key: string]: string } | undefined;
  /** the request body, sent as UTF-8 */
  body?: string | undefined;
  /** ms the whole request may take, 100–300000, default 30000 */
  timeout_ms?: number | undefined;
  /** how the answer carries the body: utf8 (default) or base64 (for bytes) */
  response_encoding?: 'utf8' | 'base64' | undefined;
}

/** What `browsers.telemetry.events` takes: its path parameters, query parameters, side by side. */
export interface ListTelemetryEventsInput {
  /** browser session id */
  id: string;
  /**
   * where the page starts: the X-Next-Offset of the page before (a sequence number); 0 or absent for the first page
   * @default 0
   */
  offset?: number | string | undefined;
  /** records on the page, 1–100, default 20 */
  limit?: number | string | undefined;
  /** only these categories, comma-separated or the key repeated */
  category?: string | string[] | undefined;
  /** asc (the default): oldest first; desc: newest first */
  order?: 'asc' | 'desc' | undefined;
  /** only events at or after this: RFC 3339, or a duration meaning that long ago (5m); all kept events when absent */
  since?: string | undefined;
  /** only events before this: RFC 3339, or a duration meaning that long ago */
  until?: string | undefined;
}

/** What `browsers.telemetry.stream` takes: its path parameters, query parameters, side by side. */
export interface StreamTelemetryInput {
  /** browser session id */
  id: string;
  /** all: start from the oldest event kept; anything else, or absent: only new events */
  replay?: string | undefined;
  /** go on after this event (the Last-Event-ID header says the same, and wins over replay) */
  last_event_id?: number | string | undefined;
}

/** What `browsers.process.stdin` takes: its path parameters, body fields, side by side. */
export interface WriteProcessStdinInput {
  /** browser session id */
  id: string;
  /** process id */
  process_id: string;
  /** the bytes to write, base64 (at most 1048576) */
  data_b64: string;
}

/** What `browsers.process.resize` takes: its path parameters, body fields, side by side. */
export interface ResizeProcessInput {
  /** browser session id */
  id: string;
  /** process id */
  process_id: string;
  /** rows, 1–65535 */
  rows: number;
  /** columns, 1–65535 */
  cols: number;
}

/** What `browsers.update` takes: its path parameters, body fields, side by side. */
export interface UpdateBrowserInput {
  /** browser session id, or the name of a running browser */
  id: string;
  /** new name, unique among the running browsers of the project; "" clears it */
  name?: string | '' | null | undefined;
  /** the whole new set of tags (replaces every tag; {} clears them), at most 50 */
  tags?: { [key: string]: string } | null | undefined;
  /** new window size, applied to the running browser (409 while it is recorded, unless force) */
  viewport?: ViewportUpdateInput | undefined;
  /** proxy its new connections go through; "" sends them direct */
  proxy_id?: string | '' | null | undefined;
  /** new idle time-out, seconds, 10–259200 */
  timeout_seconds?: number | undefined;
}

/** What `invocations.deleteBrowsers` takes: its path parameters. */
export interface DeleteInvocationBrowsersInput {
  /** invocation id */
  id: string;
}

/** What `extensions.metadata` takes: its path parameters. */
export interface GetExtensionMetadataInput {
  /** extension id or name */
  id_or_name: string;
}

/** What `browsers.loadExtensions` takes: its path parameters, form fields, side by side. */
export interface LoadExtensionsInput {
  /** browser session id */
  id: string;
  /** extensions to load, each with its folder name, at most 20 */
  extensions: {
    /** folder name of the extension, [A-Za-z0-9._-], 1–255 characters */
    name: string;
    /** zip of an unpacked extension, manifest.json at its root, ≤ 52428800 bytes */
    zip_file: UploadSource;
  }[];
}

/** What `credentials.create` takes: its body fields. */
export interface CreateCredentialInput {
  /** the site it signs in to: a host name (example.com, or *.example.com for its subdomains) */
  domain: string;
  /** unique name in the project, [A-Za-z0-9._-], 1–255 characters */
  name: string;
  /** the values its sign-in fills, by name (username, email, password, …), at most 50; write-only */
  values: { [key: string]: string };
  /** an identity provider whose button its sign-in clicks first (google, github, microsoft, …) */
  sso_provider?: string | undefined;
  /** the base32 secret of its one-time codes (RFC 6238: 6 digits, 30 s, SHA-1); write-only */
  totp_secret?: string | undefined;
}

/** What `credentials.list` takes: its query parameters. */
export interface ListCredentialsInput {
  /** records skipped before this page, ≥ 0, default 0 */
  offset?: number | string | undefined;
  /** records on the page, 1–100, default 20 */
  limit?: number | string | undefined;
  /** only credentials for exactly this site */
  domain?: string | undefined;
  /** only credentials whose name or site contains this (any case), or whose id it is */
  query?: string | undefined;
}

/** What `credentials.get` takes: its path parameters. */
export interface GetCredentialInput {
  /** credential id or name */
  id_or_name: string;
}

/** What `credentials.update` takes: its path parameters, body fields, side by side. */
export interface UpdateCredentialInput {
  /** credential id or name */
  id_or_name: string;
  /** new unique name */
  name?: string | undefined;
  /** values to add or overwrite, by name (the others stay) */
  values?: { [key: string]: string } | undefined;
  /** names of values to remove, applied before `values` */
  remove_value_keys?: string[] | undefined;
  /** a new identity provider; null or "" clears it */
  sso_provider?: string | null | undefined;
  /** a new base32 TOTP secret; "" removes it */
  totp_secret?: string | undefined;
}

/** What `credentials.delete` takes: its path parameters. */
export interface DeleteCredentialInput {
  /** credential id or name */
  id_or_name: string;
}

/** What `credentials.totpCode` takes: its path parameters. */
export interface GetTotpCodeInput {
  /** credential id or name */
  id_or_name: string;
}

/** What `credentialProviders.create` takes: its body fields. */
export interface CreateCredentialProviderInput {
  /** unique name in the organization, [A-Za-z0-9._-], 1–255 characters */
  name: string;
  /** what kind of store it is: onepassword */
  provider_type: 'onepassword';
  /** the token its server accepts (a 1Password Connect access token); write-only */
  token: string;
  /** its server's address (the 1Password Connect server); the operator's default when left out */
  url?: string | undefined;
  /** how long its lists are kept, in seconds (0–86400, default 300) */
  cache_ttl_seconds?: number | undefined;
  /** whether sign-ins look items up in it (default true) */
  enabled?: boolean | undefined;
  /** its place among providers, lower first (0–1000, default 0) */
  priority?: number | undefined;
  /** the projects whose own keys may sign in with its items, by id (default none: only organization-wide keys may) */
  allowed_projects?: string[] | undefined;
}

/** What `credentialProviders.list` takes: its query parameters. */
export interface ListCredentialProvidersInput {
  /** records skipped before this page, ≥ 0, default 0 */
  offset?: number | string | undefined;
  /** records on the page, 1–100, default 20 */
  limit?: number | string | undefined;
  /** only providers whose name contains this (any case), or whose id it is */
  query?: string | undefined;
}

/** What `credentialProviders.get` takes: its path parameters. */
export interface GetCredentialProviderInput {
  /** credential provider id or name */
  id_or_name: string;
}

/** What `credentialProviders.update` takes: its path parameters, body fields, side by side. */
export interface UpdateCredentialProviderInput {
  /** credential provider id or name */
  id_or_name: string;
  /** new unique name */
  name?: string | undefined;
  /** a new token (rotation); write-only */
  token?: string | undefined;
  /** a new address */
  url?: string | undefined;
  /** how long its lists are kept, in seconds */
  cache_ttl_seconds?: number | undefined;
  /** whether sign-ins look items up in it */
  enabled?: boolean | undefined;
  /** its place among providers, lower first */
  priority?: number | undefined;
  /** the projects whose own keys may sign in with its items, by id (replaces the list) */
  allowed_projects?: string[] | undefined;
}

/** What `credentialProviders.delete` takes: its path parameters. */
export interface DeleteCredentialProviderInput {
  /** credential provider id or name */
  id_or_name: string;
}

/** What `credentialProviders.test` takes: its path parameters. */
export interface TestCredentialProviderInput {
  /** credential provider id or name */
  id_or_name: string;
}

/** What `credentialProviders.items` takes: its path parameters. */
export interface ListCredentialProviderItemsInput {
  /** credential provider id or name */
  id_or_name: string;
}

/** What `auth.connections.create` takes: its body fields. */
export interface CreateAuthConnectionInput {
  /** the site, a host name */
  domain: string;
  /** the profile to keep signed in (made when missing) */
  profile_name: string;
  /** other sites the sign-in may pass through (at most 20); an update replaces the list */
  allowed_domains?: string[] | undefined;
  /** sign in again after a failed health check, when it can (default true) */
  auto_reauth?: boolean | undefined;
  /** where its values come from: {name}, {provider, path} or {provider, auto: true} */
  credential?:
    | {
        /** a credential of the project, by name */
        name: string;
      }
    | {
        /** a credential provider, by name or id */
        provider: string;
        /** the item, as "<vault>/<item>" */
        path: string;
      }
    | {
        /** a credential provider, by name or id */
        provider: string;
        /** the provider's first item for the site */
        auto: true;
      }
    | undefined;
  /** seconds between health checks (300–86400, default 3600) */
  health_check_interval?: number | undefined;
  /** check the profile periodically (default true) */
  health_checks?: boolean | undefined;
  /** where sign-ins start (else https://<domain>/); "" clears it on update */
  login_url?: string | undefined;
  /** a proxy of the project its browsers use, {id} or {name} */
  proxy?:
    | {
        /** the proxy's id */
        id: string;
      }
    | {
        /** the proxy's name */
        name: string;
      }
    | undefined;
  /** record its flows' browsers (default false) */
  record_session?: boolean | undefined;
  /** keep values typed in a flow for the next (default true; one-time codes never) */
  save_credentials?: boolean | undefined;
}

/** What `auth.connections.list` takes: its query parameters. */
export interface ListAuthConnectionsInput {
  /** records skipped before this page, ≥ 0, default 0 */
  offset?: number | string | undefined;
  /** records on the page, 1–100, default 20 */
  limit?: number | string | undefined;
  /** only connections for this site */
  domain?: string | undefined;
  /** only connections of this profile */
  profile_name?: string | undefined;
  /** only connections whose site or profile contains this, or whose id it is */
  query?: string | undefined;
}

/** What `auth.connections.get` takes: its path parameters. */
export interface GetAuthConnectionInput {
  /** auth connection id */
  id: string;
}

/** What `auth.connections.update` takes: its path parameters, body fields, side by side. */
export interface UpdateAuthConnectionInput {
  /** auth connection id */
  id: string;
  /** other sites the sign-in may pass through (at most 20); an update replaces the list */
  allowed_domains?: string[] | undefined;
  /** sign in again after a failed health check, when it can (default true) */
  auto_reauth?: boolean | undefined;
  /** where its values come from: {name}, {provider, path} or {provider, auto: true} */
  credential?:
    | {
        /** a credential of the project, by name */
        name: string;
      }
    | {
        /** a credential provider, by name or id */
        provider: string;
        /** the item, as "<vault>/<item>" */
        path: string;
      }
    | {
        /** a credential provider, by name or id */
        provider: string;
        /** the provider's first item for the site */
        auto: true;
      }
    | undefined;
  /** seconds between health checks (300–86400, default 3600) */
  health_check_interval?: number | undefined;
  /** check the profile periodically (default true) */
  health_checks?: boolean | undefined;
  /** where sign-ins start (else https://<domain>/); "" clears it on update */
  login_url?: string | undefined;
  /** a proxy of the project its browsers use, {id} or {name} */
  proxy?:
    | {
        /** the proxy's id */
        id: string;
      }
    | {
        /** the proxy's name */
        name: string;
      }
    | undefined;
  /** record its flows' browsers (default false) */
  record_session?: boolean | undefined;
  /** keep values typed in a flow for the next (default true; one-time codes never) */
  save_credentials?: boolean | undefined;
}

/** What `auth.connections.delete` takes: its path parameters. */
export interface DeleteAuthConnectionInput {
  /** auth connection id */
  id: string;
}

/** What `auth.connections.login` takes: its path parameters, body fields, side by side. */
export interface LoginAuthConnectionInput {
  /** auth connection id */
  id: string;
  /** a proxy for this flow's browser, instead of the connection's */
  proxy?:
    | {
        /** the proxy's id */
        id: string;
      }
    | {
        /** the proxy's name */
        name: string;
      }
    | undefined;
  /** record this flow's browser, whatever the connection says */
  record_session?: boolean | undefined;
}

/** What `auth.connections.submit` takes: its path parameters, body fields, side by side. */
export interface SubmitAuthConnectionInput {
  /** auth connection id */
  id: string;
  /** values by the ids of the flow’s `fields` */
  field_values?: { [key: string]: string } | undefined;
  /** values by the names of its `discovered_fields` (the older shape) */
  fields?: { [key: string]: string } | undefined;
}

/** What `auth.connections.events` takes: its path parameters. */
export interface FollowAuthConnectionInput {
  /** auth connection id */
  id: string;
}

/** What `auth.connections.events` answers. */
export type FollowAuthConnectionResult = EventStream<
  | {
      /** the flow changed */
      event: 'managed_auth_state';
      /** when */
      timestamp: string;
      /** how the flow stands */
      flow_status: 'IN_PROGRESS' | 'SUCCESS' | 'FAILED' | 'EXPIRED' | 'CANCELED';
      /** what it is doing */
      flow_step:
        | 'DISCOVERING'
        | 'AWAITING_INPUT'
        | 'AWAITING_EXTERNAL_ACTION'
        | 'SUBMITTING'
        | 'COMPLETED';
      /** LOGIN (a caller started it) or REAUTH (the service, after a failed health check) */
      flow_type?: 'LOGIN' | 'REAUTH' | null | undefined;
      /** when it expires unless it ends first */
      flow_expires_at?: string | null | undefined;
      /** where a person finishes the sign-in: the flow browser's live view, with control */
      hosted_url?: string | null | undefined;
      /** a read-only live view of the flow browser */
      live_view_url?: string | null | undefined;
      /** the browser the flow runs in */
      browser_session_id?: string | null | undefined;
      /** what the flow asks for (AWAITING_INPUT): submit their values by id */
      fields?: AuthField[] | null | undefined;
      /** the same fields as the page shows them */
      discovered_fields?: DiscoveredField[] | null | undefined;
      /** what a person must do at hosted_url (AWAITING_EXTERNAL_ACTION) */
      external_action_message?: string | null | undefined;
      /** why it failed: credentials_invalid, site_unreachable, no_login_form, not_signed_in, domain_not_allowed, browser_failed */
      error_code?: string | null | undefined;
      /** why it failed, in words */
      error_message?: string | null | undefined;
      /** the site's own error message, when it showed one */
      website_error?: string | null | undefined;
      /** the page the last successful sign-in ended on */
      post_login_url?: string | undefined;
    }
  | {
      /** the stream cannot go on */
      event: 'error';
      /** when */
      timestamp: string;
      /** what went wrong */
      error: {
        /** an error code */
        code: string;
        /** what went wrong */
        message: string;
      };
    }
  | {
      /** nothing changed; the stream is alive */
      event: 'sse_heartbeat';
      /** when */
      timestamp: string;
    }
>;

/** What `auth.connections.timeline` takes: its path parameters, query parameters, side by side. */
export interface AuthConnectionTimelineInput {
  /** auth connection id */
  id: string;
  /** records skipped before this page, ≥ 0, default 0 */
  offset?: number | string | undefined;
  /** records on the page, 1–100, default 20 */
  limit?: number | string | undefined;
  /** only entries of this kind */
  type?: 'login' | 'reauth' | 'health_check' | undefined;
}

/** What `deployments.create` takes: its form fields. */
export interface CreateDeploymentInput {
  /** zip of the app folder (package.json and its lockfile at the root) */
  file: UploadSource;
  /** the file to load, relative to the archive root (app.ts, src/index.js) */
  entrypoint_rel_path: string;
  /** the apps' version, default latest */
  version?: string | undefined;
  /**
   * replace a version deployed already (true or false)
   * @default "false"
   */
  force?: 'true' | 'false' | undefined;
  /** accepted for the peer SDK's sake and ignored: this service has one place, its own */
  region?: 'aws.us-east-1a' | undefined;
  /** the code's environment, one part per variable (env_vars[NAME]), ≤ 100 */
  env_vars?: { [key: string]: string } | undefined;
}

/** What `deployments.list` takes: its query parameters. */
export interface ListDeploymentsInput {
  /** records skipped before this page, ≥ 0, default 0 */
  offset?: number | string | undefined;
  /** records on the page, 1–100, default 20 */
  limit?: number | string | undefined;
  /** only deployments of this app */
  app_name?: string | undefined;
  /** only deployments of this version (with app_name) */
  app_version?: string | undefined;
}

/** What `deployments.get` takes: its path parameters. */
export interface GetDeploymentInput {
  /** deployment id */
  id: string;
}

/** What `deployments.delete` takes: its path parameters. */
export interface DeleteDeploymentInput {
  /** deployment id */
  id: string;
}

/** What `deployments.events` takes: its path parameters. */
export interface FollowDeploymentInput {
  /** deployment id */
  id: string;
}

/** What `deployments.events` answers. */
export type FollowDeploymentResult = EventStream<
  | {
      /** a line of the install */
      event: 'log';
      /** when */
      timestamp: string;
      /** the line */
      message: string;
    }
  | {
      /** the deployment changed status */
      event: 'deployment_state';
      /** when */
      timestamp: string;
      /** the deployment as it is now */
      deployment: Deployment;
    }
  | {
      /** an app the code defines */
      event: 'app_version_summary';
      /** when */
      timestamp: string;
      /** the app version's id */
      id: string;
      /** the app's name */
      app_name: string;
      /** the version */
      version: string;
      /** the deployment that brought it */
      deployment: string;
      /** its actions */
      actions: AppAction[];
      /** its deployment's environment variables: names only, each value '' */
      env_vars: { [key: string]: '' };
    }
  | {
      /** the stream cannot go on */
      event: 'error';
      /** when */
      timestamp: string;
      /** what went wrong */
      error: {
        /** an error code */
        code: string;
        /** what went wrong */
        message: string;
      };
    }
  | {
      /** nothing changed; the stream is alive */
      event: 'sse_heartbeat';
      /** when */
      timestamp: string;
    }
>;

/** What `apps.list` takes: its query parameters. */
export interface ListAppsInput {
  /** records skipped before this page, ≥ 0, default 0 */
  offset?: number | string | undefined;
  /** records on the page, 1–100, default 20 */
  limit?: number | string | undefined;
  /** only versions of this app */
  app_name?: string | undefined;
  /** only this version */
  version?: string | undefined;
}

/** What `invocations.events` takes: its path parameters. */
export interface FollowInvocationInput {
  /** invocation id */
  id: string;
}

/** What `invocations.events` answers. */
export type FollowInvocationResult = EventStream<
  | {
      /** a line of the code's console */
      event: 'log';
      /** when */
      timestamp: string;
      /** the line */
      message: string;
    }
  | {
      /** the invocation changed status */
      event: 'invocation_state';
      /** when */
      timestamp: string;
      /** the invocation as it is now */
      invocation: Invocation;
    }
  | {
      /** the stream cannot go on */
      event: 'error';
      /** when */
      timestamp: string;
      /** what went wrong */
      error: {
        /** an error code */
        code: string;
        /** what went wrong */
        message: string;
      };
    }
  | {
      /** nothing changed; the stream is alive */
      event: 'sse_heartbeat';
      /** when */
      timestamp: string;
    }
>;

/** What `auth.context.get` takes: nothing. */
export type GetAuthContextInput = Record<never, never>;

// Methods

/** Every operation of the API as a method, grouped as the API is. */
export interface ClientMethods {
  /** The `browsers` operations. */
  readonly browsers: BrowsersMethods;
  /** The `browserPools` operations. */
  readonly browserPools: BrowserPoolsMethods;
  /** The `extensions` operations. */
  readonly extensions: ExtensionsMethods;
  /** The `invocations` operations. */
  readonly invocations: InvocationsMethods;
  /** The `profiles` operations. */
  readonly profiles: ProfilesMethods;
  /** The `proxies` operations. */
  readonly proxies: ProxiesMethods;
  /** The `projects` operations. */
  readonly projects: ProjectsMethods;
  /** The `org` operations. */
  readonly org: OrgMethods;
  /** The `apiKeys` operations. */
  readonly apiKeys: ApiKeysMethods;
  /** The `auditLogs` operations. */
  readonly auditLogs: AuditLogsMethods;
  /** The `nodes` operations. */
  readonly nodes: NodesMethods;
  /** The `credentials` operations. */
  readonly credentials: CredentialsMethods;
  /** The `credentialProviders` operations. */
  readonly credentialProviders: CredentialProvidersMethods;
  /** The `auth` operations. */
  readonly auth: AuthMethods;
  /** The `deployments` operations. */
  readonly deployments: DeploymentsMethods;
  /** The `apps` operations. */
  readonly apps: AppsMethods;
}

/** The `browsers` operations. */
export interface BrowsersMethods {
  /** The `browsers.replays` operations. */
  readonly replays: BrowsersReplaysMethods;
  /** The `browsers.computer` operations. */
  readonly computer: BrowsersComputerMethods;
  /** The `browsers.process` operations. */
  readonly process: BrowsersProcessMethods;
  /** The `browsers.fs` operations. */
  readonly fs: BrowsersFsMethods;
  /** The `browsers.liveView` operations. */
  readonly liveView: BrowsersLiveViewMethods;
  /** The `browsers.playwright` operations. */
  readonly playwright: BrowsersPlaywrightMethods;
  /** The `browsers.logs` operations. */
  readonly logs: BrowsersLogsMethods;
  /** The `browsers.telemetry` operations. */
  readonly telemetry: BrowsersTelemetryMethods;
  /**
   * Create a browser session.
   *
   * `POST /browsers`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 409, 413, 415, 422, 429, 500, 503.
   */
  create(input?: CreateBrowserInput, options?: CallOptions): CallPromise<BrowserSession>;
  /**
   * List the browser sessions (the active ones unless status says otherwise).
   *
   * `GET /browsers`: any token, read-only ones too.
   * Errors: 400, 401, 403, 429, 500, 503.
   */
  list(input?: ListBrowsersInput, options?: CallOptions): PagePromise<BrowserSession>;
  /**
   * Get a browser session.
   *
   * `GET /browsers/{id}`: any token, read-only ones too.
   * Errors: 400, 401, 403, 404, 429, 500, 503.
   */
  get(input: GetBrowserInput, options?: CallOptions): CallPromise<BrowserSession>;
  /**
   * Delete a browser session.
   *
   * `DELETE /browsers/{id}`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 429, 500, 503.
   */
  delete(input: DeleteBrowserInput, options?: CallOptions): CallPromise<undefined>;
  /**
   * Make an HTTP request through the browser.
   *
   * `POST /browsers/{id}/curl`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 413, 415, 422, 429, 500, 502, 503, 504.
   */
  curl(input: CurlInput, options?: CallOptions): CallPromise<CurlResult>;
  /**
   * Update a running browser session (name, tags, viewport, proxy, time-out).
   *
   * `PATCH /browsers/{id}`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 409, 413, 415, 429, 500, 503.
   */
  update(input: UpdateBrowserInput, options?: CallOptions): CallPromise<BrowserSession>;
  /**
   * Load unpacked extensions (zips) into a running browser.
   *
   * `POST /browsers/{id}/extensions`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 409, 413, 415, 422, 429, 500, 503.
   */
  loadExtensions(input: LoadExtensionsInput, options?: CallOptions): CallPromise<LoadedExtensions>;
}

/** The `browsers.replays` operations. */
export interface BrowsersReplaysMethods {
  /**
   * Stop a replay recording and persist the video.
   *
   * `POST /browsers/{id}/replays/{replay_id}/stop` (§4.1 of the interface): a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 422, 429, 500, 503.
   */
  stop(input: StopReplayInput, options?: CallOptions): CallPromise<Replay>;
  /**
   * Start recording a replay of the browser session.
   *
   * `POST /browsers/{id}/replays`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 409, 413, 415, 422, 429, 500, 503.
   */
  start(input: StartReplayInput, options?: CallOptions): CallPromise<Replay>;
  /**
   * List the replays of a browser session.
   *
   * `GET /browsers/{id}/replays`: any token, read-only ones too.
   * Errors: 400, 401, 403, 404, 429, 500, 503.
   */
  list(input: ListReplaysInput, options?: CallOptions): PagePromise<Replay>;
  /**
   * Download a replay video (MP4).
   *
   * `GET /browsers/{id}/replays/{replay_id}`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 429, 500, 503.
   */
  download(input: DownloadReplayInput, options?: CallOptions): CallPromise<DownloadReplayResult>;
}

/** The `browsers.computer` operations. */
export interface BrowsersComputerMethods {
  /**
   * Type text on the browser instance.
   *
   * `POST /browsers/{id}/computer/type` (§4.2 of the interface): a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 413, 415, 422, 429, 500, 503.
   */
  type(input: TypeTextInput, options?: CallOptions): CallPromise<undefined>;
  /**
   * Take a PNG screenshot of the browser.
   *
   * `POST /browsers/{id}/computer/screenshot`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 413, 415, 429, 500, 503.
   */
  screenshot(input: ScreenshotInput, options?: CallOptions): CallPromise<BinaryBody>;
  /**
   * Click, press or release a mouse button at a point of the screen.
   *
   * `POST /browsers/{id}/computer/click_mouse`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 413, 415, 422, 429, 500, 503.
   */
  clickMouse(input: ClickMouseInput, options?: CallOptions): CallPromise<undefined>;
  /**
   * Move the mouse to a point of the screen, straight or along a human-like path.
   *
   * `POST /browsers/{id}/computer/move_mouse`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 413, 415, 422, 429, 500, 503.
   */
  moveMouse(input: MoveMouseInput, options?: CallOptions): CallPromise<undefined>;
  /**
   * Drag the mouse along a path with a button held.
   *
   * `POST /browsers/{id}/computer/drag_mouse`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 413, 415, 422, 429, 500, 503.
   */
  dragMouse(input: DragMouseInput, options?: CallOptions): CallPromise<undefined>;
  /**
   * Turn the mouse wheel at a point of the screen.
   *
   * `POST /browsers/{id}/computer/scroll`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 413, 415, 422, 429, 500, 503.
   */
  scroll(input: ScrollInput, options?: CallOptions): CallPromise<undefined>;
  /**
   * Press keys or combos such as Ctrl+t, holding each for a while if asked.
   *
   * `POST /browsers/{id}/computer/press_key`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 413, 415, 422, 429, 500, 503.
   */
  pressKey(input: PressKeyInput, options?: CallOptions): CallPromise<undefined>;
  /**
   * Get the mouse position the last action left.
   *
   * `POST /browsers/{id}/computer/get_mouse_position`: any token, read-only ones too.
   * Errors: 400, 401, 403, 404, 429, 500, 503.
   */
  getMousePosition(input: GetMousePositionInput, options?: CallOptions): CallPromise<MousePosition>;
  /**
   * Hide or show the mouse cursor.
   *
   * `POST /browsers/{id}/computer/cursor`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 413, 415, 422, 429, 500, 503.
   */
  setCursorVisibility(
    input: SetCursorVisibilityInput,
    options?: CallOptions,
  ): CallPromise<CursorResult>;
  /**
   * Read the text on the browser's clipboard.
   *
   * `POST /browsers/{id}/computer/clipboard/read`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 409, 429, 500, 503.
   */
  readClipboard(input: ReadClipboardInput, options?: CallOptions): CallPromise<ClipboardText>;
  /**
   * Put text on the browser's clipboard (what Ctrl+V then pastes).
   *
   * `POST /browsers/{id}/computer/clipboard/write`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 409, 413, 415, 422, 429, 500, 503.
   */
  writeClipboard(input: WriteClipboardInput, options?: CallOptions): CallPromise<undefined>;
  /**
   * Run mouse, keyboard and pause actions in order, stopping at the first that fails.
   *
   * `POST /browsers/{id}/computer/batch`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 413, 415, 422, 429, 500, 503.
   */
  batch(input: BatchInput, options?: CallOptions): CallPromise<undefined>;
}

/** The `browsers.process` operations. */
export interface BrowsersProcessMethods {
  /**
   * Get the status of a process.
   *
   * `GET /browsers/{id}/process/{process_id}/status` (§4.6 of the interface): any token, read-only ones too.
   * Errors: 400, 401, 403, 404, 429, 500, 503.
   */
  status(input: GetProcessStatusInput, options?: CallOptions): CallPromise<ProcessStatus>;
  /**
   * Start a process on the browser instance.
   *
   * `POST /browsers/{id}/process/spawn`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 413, 415, 422, 429, 500, 503.
   */
  spawn(input: SpawnProcessInput, options?: CallOptions): CallPromise<SpawnedProcess>;
  /**
   * Run a command on the browser instance and wait for it.
   *
   * `POST /browsers/{id}/process/exec`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 413, 415, 422, 429, 500, 503.
   */
  exec(input: ExecProcessInput, options?: CallOptions): CallPromise<ExecResult>;
  /**
   * Send a signal to a process.
   *
   * `POST /browsers/{id}/process/{process_id}/kill`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 413, 415, 422, 429, 500, 503.
   */
  kill(input: KillProcessInput, options?: CallOptions): CallPromise<KillResult>;
  /**
   * Stream the output of a process (SSE).
   *
   * `GET /browsers/{id}/process/{process_id}/stdout/stream`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 429, 500, 503.
   */
  output(
    input: StreamProcessOutputInput,
    options?: CallOptions,
  ): CallPromise<EventStream<ProcessOutputEvent>>;
  /**
   * Write to the input of a process.
   *
   * `POST /browsers/{id}/process/{process_id}/stdin`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 409, 413, 415, 422, 429, 500, 503.
   */
  stdin(input: WriteProcessStdinInput, options?: CallOptions): CallPromise<ProcessStdinResult>;
  /**
   * Resize the terminal of a process.
   *
   * `POST /browsers/{id}/process/{process_id}/resize`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 413, 415, 422, 429, 500, 503.
   */
  resize(input: ResizeProcessInput, options?: CallOptions): CallPromise<KillResult>;
}

/** The `browsers.fs` operations. */
export interface BrowsersFsMethods {
  /** The `browsers.fs.watch` operations. */
  readonly watch: BrowsersFsWatchMethods;
  /**
   * Read a file on the browser instance.
   *
   * `GET /browsers/{id}/fs/read_file`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 429, 500, 503, 507.
   */
  readFile(input: ReadFileInput, options?: CallOptions): CallPromise<BinaryBody>;
  /**
   * Write a file on the browser instance (the body is its bytes).
   *
   * `PUT /browsers/{id}/fs/write_file`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 409, 413, 429, 500, 503, 507.
   */
  writeFile(input: WriteFileInput, options?: CallOptions): CallPromise<undefined>;
  /**
   * List a directory on the browser instance.
   *
   * `GET /browsers/{id}/fs/list_files`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 413, 429, 500, 503, 507.
   */
  listFiles(input: ListFilesInput, options?: CallOptions): CallPromise<FileEntry[]>;
  /**
   * Describe a file or directory on the browser instance.
   *
   * `GET /browsers/{id}/fs/file_info`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 429, 500, 503, 507.
   */
  fileInfo(input: FileInfoInput, options?: CallOptions): CallPromise<FileEntry>;
  /**
   * Create a directory (and its missing parents) on the browser instance.
   *
   * `PUT /browsers/{id}/fs/create_directory`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 409, 413, 415, 429, 500, 503, 507.
   */
  createDirectory(input: CreateDirectoryInput, options?: CallOptions): CallPromise<undefined>;
  /**
   * Delete a file on the browser instance.
   *
   * `PUT /browsers/{id}/fs/delete_file`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 409, 413, 415, 429, 500, 503, 507.
   */
  deleteFile(input: DeleteFileInput, options?: CallOptions): CallPromise<undefined>;
  /**
   * Delete a directory and everything in it on the browser instance.
   *
   * `PUT /browsers/{id}/fs/delete_directory`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 409, 413, 415, 429, 500, 503, 507.
   */
  deleteDirectory(input: DeleteDirectoryInput, options?: CallOptions): CallPromise<undefined>;
  /**
   * Move or rename a file or directory on the browser instance.
   *
   * `PUT /browsers/{id}/fs/move`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 409, 413, 415, 429, 500, 503, 507.
   */
  move(input: MoveFileInput, options?: CallOptions): CallPromise<undefined>;
  /**
   * Set a file's permission bits on the browser instance.
   *
   * `PUT /browsers/{id}/fs/set_file_permissions`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 409, 413, 415, 429, 500, 503, 507.
   */
  setFilePermissions(input: SetFilePermissionsInput, options?: CallOptions): CallPromise<undefined>;
  /**
   * Upload files to the browser instance (multipart, each with its dest_path).
   *
   * `POST /browsers/{id}/fs/upload`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 409, 413, 415, 422, 429, 500, 503, 507.
   */
  upload(input: UploadFilesInput, options?: CallOptions): CallPromise<undefined>;
  /**
   * Upload a zip and unpack it into a directory on the browser instance.
   *
   * `POST /browsers/{id}/fs/upload_zip`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 409, 413, 415, 422, 429, 500, 503, 507.
   */
  uploadZip(input: UploadZipInput, options?: CallOptions): CallPromise<undefined>;
  /**
   * Download a directory of the browser instance as a zip.
   *
   * `GET /browsers/{id}/fs/download_dir_zip`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 413, 429, 500, 503, 507.
   */
  downloadDirZip(input: DownloadDirZipInput, options?: CallOptions): CallPromise<BinaryBody>;
}

/** The `browsers.fs.watch` operations. */
export interface BrowsersFsWatchMethods {
  /**
   * Stop watching a directory.
   *
   * `DELETE /browsers/{id}/fs/watch/{watch_id}` (§4.7 of the interface): a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 429, 500, 503.
   */
  stop(input: StopWatchInput, options?: CallOptions): CallPromise<undefined>;
  /**
   * Start watching a directory on the browser instance.
   *
   * `POST /browsers/{id}/fs/watch`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 413, 415, 422, 429, 500, 503.
   */
  start(input: StartWatchInput, options?: CallOptions): CallPromise<Watch>;
  /**
   * Stream the events of a directory watch (SSE).
   *
   * `GET /browsers/{id}/fs/watch/{watch_id}/events`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 429, 500, 503.
   */
  events(input: WatchEventsInput, options?: CallOptions): CallPromise<EventStream<WatchEvent>>;
}

/** The `browsers.liveView` operations. */
export interface BrowsersLiveViewMethods {
  /**
   * Create a live view link to watch (read) or drive (control) the browser session.
   *
   * `POST /browsers/{id}/live_view`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 413, 415, 422, 429, 500, 503.
   */
  create(input: CreateLiveViewInput, options?: CallOptions): CallPromise<LiveView>;
}

/** The `browsers.playwright` operations. */
export interface BrowsersPlaywrightMethods {
  /**
   * Run Playwright code against the browser.
   *
   * `POST /browsers/{id}/playwright/execute`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 409, 413, 415, 422, 429, 500, 503.
   */
  execute(
    input: ExecutePlaywrightInput,
    options?: CallOptions,
  ): CallPromise<PlaywrightExecuteResult>;
}

/** The `browsers.logs` operations. */
export interface BrowsersLogsMethods {
  /**
   * Stream the lines of a log (SSE).
   *
   * `GET /browsers/{id}/logs/stream`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 429, 500, 503.
   */
  stream(input: StreamLogsInput, options?: CallOptions): CallPromise<EventStream<LogEvent>>;
}

/** The `browsers.telemetry` operations. */
export interface BrowsersTelemetryMethods {
  /**
   * List the telemetry events of a browser session.
   *
   * `GET /browsers/{id}/telemetry/events`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 429, 500, 503.
   */
  events(input: ListTelemetryEventsInput, options?: CallOptions): PagePromise<TelemetryEnvelope>;
  /**
   * Stream the telemetry events of a browser session (SSE).
   *
   * `GET /browsers/{id}/telemetry/stream`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 429, 500, 503.
   */
  stream(
    input: StreamTelemetryInput,
    options?: CallOptions,
  ): CallPromise<EventStream<TelemetryEnvelope>>;
}

/** The `browserPools` operations. */
export interface BrowserPoolsMethods {
  /**
   * Get a browser pool by id or name.
   *
   * `GET /browser_pools/{id_or_name}` (§4.3 of the interface): any token, read-only ones too.
   * Errors: 400, 401, 403, 404, 429, 500, 503.
   */
  get(input: GetBrowserPoolInput, options?: CallOptions): CallPromise<BrowserPool>;
  /**
   * Create a browser pool.
   *
   * `POST /browser_pools`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 409, 413, 415, 422, 429, 500, 503.
   */
  create(input: CreateBrowserPoolInput, options?: CallOptions): CallPromise<BrowserPool>;
  /**
   * List the browser pools.
   *
   * `GET /browser_pools`: any token, read-only ones too.
   * Errors: 400, 401, 403, 429, 500, 503.
   */
  list(input?: ListBrowserPoolsInput, options?: CallOptions): PagePromise<BrowserPool>;
  /**
   * Update a browser pool.
   *
   * `PATCH /browser_pools/{id_or_name}`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 409, 413, 415, 429, 500, 503.
   */
  update(input: UpdateBrowserPoolInput, options?: CallOptions): CallPromise<BrowserPool>;
  /**
   * Delete a browser pool.
   *
   * `DELETE /browser_pools/{id_or_name}`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 409, 429, 500, 503.
   */
  delete(input: DeleteBrowserPoolInput, options?: CallOptions): CallPromise<undefined>;
  /**
   * Acquire a browser from a pool, waiting up to acquire_timeout_seconds.
   *
   * `POST /browser_pools/{id_or_name}/acquire`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 413, 415, 422, 429, 500, 503.
   */
  acquire(input: AcquireBrowserInput, options?: CallOptions): CallPromise<AcquireBrowserResult>;
  /**
   * Release an acquired browser back to its pool.
   *
   * `POST /browser_pools/{id_or_name}/release`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 409, 413, 415, 422, 429, 500, 503.
   */
  release(input: ReleaseBrowserInput, options?: CallOptions): CallPromise<undefined>;
  /**
   * Discard the idle browsers of a pool so fresh ones replace them.
   *
   * `POST /browser_pools/{id_or_name}/flush`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 422, 429, 500, 503.
   */
  flush(input: FlushBrowserPoolInput, options?: CallOptions): CallPromise<undefined>;
}

/** The `extensions` operations. */
export interface ExtensionsMethods {
  /**
   * Upload a browser extension (zip with manifest.json at its root).
   *
   * `POST /extensions` (§4.4 of the interface): a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 409, 413, 415, 422, 429, 500, 503.
   */
  upload(input: UploadExtensionInput, options?: CallOptions): CallPromise<Extension>;
  /**
   * List the uploaded extensions.
   *
   * `GET /extensions`: any token, read-only ones too.
   * Errors: 400, 401, 403, 429, 500, 503.
   */
  list(input?: ListExtensionsInput, options?: CallOptions): PagePromise<Extension>;
  /**
   * Download an extension archive (zip).
   *
   * `GET /extensions/{id_or_name}`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 429, 500, 503.
   */
  download(input: DownloadExtensionInput, options?: CallOptions): CallPromise<BinaryBody>;
  /**
   * Delete an extension.
   *
   * `DELETE /extensions/{id_or_name}`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 429, 500, 503.
   */
  delete(input: DeleteExtensionInput, options?: CallOptions): CallPromise<undefined>;
  /**
   * Get an extension's record (size, SHA-256, name) without downloading it.
   *
   * `GET /extensions/{id_or_name}/metadata`: any token, read-only ones too.
   * Errors: 400, 401, 403, 404, 429, 500, 503.
   */
  metadata(input: GetExtensionMetadataInput, options?: CallOptions): CallPromise<Extension>;
}

/** The `invocations` operations. */
export interface InvocationsMethods {
  /**
   * List the active browsers of an invocation.
   *
   * `GET /invocations/{id}/browsers` (§4.5 of the interface): any token, read-only ones too.
   * Errors: 400, 401, 403, 404, 429, 500, 503.
   */
  listBrowsers(
    input: ListInvocationBrowsersInput,
    options?: CallOptions,
  ): CallPromise<InvocationBrowsers>;
  /**
   * Invoke an app's action: wait for its result, or queue it (async).
   *
   * `POST /invocations`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 413, 415, 422, 429, 500, 503.
   */
  create(input: CreateInvocationInput, options?: CallOptions): CallPromise<CreateInvocationResult>;
  /**
   * List the invocations.
   *
   * `GET /invocations`: any token, read-only ones too.
   * Errors: 400, 401, 403, 429, 500, 503.
   */
  list(input?: ListInvocationsInput, options?: CallOptions): PagePromise<Invocation>;
  /**
   * Get an invocation.
   *
   * `GET /invocations/{id}`: any token, read-only ones too.
   * Errors: 400, 401, 403, 404, 429, 500, 503.
   */
  get(input: GetInvocationInput, options?: CallOptions): CallPromise<Invocation>;
  /**
   * End an invocation (succeeded, or failed to cancel it): its code stops, its browsers are deleted.
   *
   * `PATCH /invocations/{id}`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 409, 413, 415, 429, 500, 503.
   */
  update(input: UpdateInvocationInput, options?: CallOptions): CallPromise<Invocation>;
  /**
   * Delete every running browser of an invocation.
   *
   * `DELETE /invocations/{id}/browsers`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 429, 500, 503.
   */
  deleteBrowsers(
    input: DeleteInvocationBrowsersInput,
    options?: CallOptions,
  ): CallPromise<undefined>;
  /**
   * Follow an invocation: its code's console and its states, until it ends.
   *
   * `GET /invocations/{id}/events`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 429, 500, 503.
   */
  events(input: FollowInvocationInput, options?: CallOptions): CallPromise<FollowInvocationResult>;
}

/** The `profiles` operations. */
export interface ProfilesMethods {
  /**
   * Create a browser profile (empty until a session saves into it).
   *
   * `POST /profiles`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 409, 413, 415, 422, 429, 500, 503.
   */
  create(input?: CreateProfileInput, options?: CallOptions): CallPromise<Profile>;
  /**
   * List the browser profiles.
   *
   * `GET /profiles`: any token, read-only ones too.
   * Errors: 400, 401, 403, 429, 500, 503.
   */
  list(input?: ListProfilesInput, options?: CallOptions): PagePromise<Profile>;
  /**
   * Get a browser profile.
   *
   * `GET /profiles/{id_or_name}`: any token, read-only ones too.
   * Errors: 400, 401, 403, 404, 429, 500, 503.
   */
  get(input: GetProfileInput, options?: CallOptions): CallPromise<Profile>;
  /**
   * Rename a browser profile.
   *
   * `PATCH /profiles/{id_or_name}`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 409, 413, 415, 429, 500, 503.
   */
  update(input: UpdateProfileInput, options?: CallOptions): CallPromise<Profile>;
  /**
   * Delete a browser profile (409 while a browser saves into it or a pool uses it).
   *
   * `DELETE /profiles/{id_or_name}`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 409, 429, 500, 503.
   */
  delete(input: DeleteProfileInput, options?: CallOptions): CallPromise<undefined>;
  /**
   * Download a browser profile's data (tar, or tar.zst with format=tar.zst).
   *
   * `GET /profiles/{id_or_name}/download`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 429, 500, 503.
   */
  download(input: DownloadProfileInput, options?: CallOptions): CallPromise<BinaryBody>;
}

/** The `proxies` operations. */
export interface ProxiesMethods {
  /**
   * Create a proxy configuration (type custom: a proxy the operator provides).
   *
   * `POST /proxies`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 409, 413, 415, 422, 429, 500, 503.
   */
  create(input: CreateProxyInput, options?: CallOptions): CallPromise<ProxyConfig>;
  /**
   * List the proxies.
   *
   * `GET /proxies`: any token, read-only ones too.
   * Errors: 400, 401, 403, 429, 500, 503.
   */
  list(input?: ListProxiesInput, options?: CallOptions): PagePromise<ProxyConfig>;
  /**
   * Get a proxy.
   *
   * `GET /proxies/{id}`: any token, read-only ones too.
   * Errors: 400, 401, 403, 404, 429, 500, 503.
   */
  get(input: GetProxyInput, options?: CallOptions): CallPromise<ProxyConfig>;
  /**
   * Change a proxy (browsers started before keep the settings they started with).
   *
   * `PATCH /proxies/{id}`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 409, 413, 415, 429, 500, 503.
   */
  update(input: UpdateProxyInput, options?: CallOptions): CallPromise<ProxyConfig>;
  /**
   * Delete a proxy (409 while a browser uses it, unless force=true; or a pool names it).
   *
   * `DELETE /proxies/{id}`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 409, 429, 500, 503.
   */
  delete(input: DeleteProxyInput, options?: CallOptions): CallPromise<undefined>;
  /**
   * Check a proxy: reach a site through it, and record its status and exit address.
   *
   * `POST /proxies/{id}/check`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 422, 429, 500, 503.
   */
  check(input: CheckProxyInput, options?: CallOptions): CallPromise<ProxyConfig>;
}

/** The `projects` operations. */
export interface ProjectsMethods {
  /** The `projects.limits` operations. */
  readonly limits: ProjectsLimitsMethods;
  /**
   * Create a project (an organization-wide key only).
   *
   * `POST /org/projects`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 409, 413, 415, 422, 429, 500, 503.
   */
  create(input: CreateProjectInput, options?: CallOptions): CallPromise<Project>;
  /**
   * List the projects (a project's key sees its own).
   *
   * `GET /org/projects`: any token, read-only ones too.
   * Errors: 400, 401, 403, 429, 500, 503.
   */
  list(input?: ListProjectsInput, options?: CallOptions): PagePromise<Project>;
  /**
   * Get a project by id or name.
   *
   * `GET /org/projects/{id_or_name}`: any token, read-only ones too.
   * Errors: 400, 401, 403, 404, 429, 500, 503.
   */
  get(input: GetProjectInput, options?: CallOptions): CallPromise<Project>;
  /**
   * Rename a project, or archive or restore it (a project's key may rename its own).
   *
   * `PATCH /org/projects/{id_or_name}`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 409, 413, 415, 429, 500, 503.
   */
  update(input: UpdateProjectInput, options?: CallOptions): CallPromise<Project>;
  /**
   * Delete an empty project (409 while it holds resources; the default stays).
   *
   * `DELETE /org/projects/{id_or_name}`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 409, 429, 500, 503.
   */
  delete(input: DeleteProjectInput, options?: CallOptions): CallPromise<undefined>;
}

/** The `projects.limits` operations. */
export interface ProjectsLimitsMethods {
  /**
   * Get a project's limits (null: the organization's default applies).
   *
   * `GET /org/projects/{id_or_name}/limits`: any token, read-only ones too.
   * Errors: 400, 401, 403, 404, 429, 500, 503.
   */
  get(input: GetProjectLimitsInput, options?: CallOptions): CallPromise<ProjectLimits>;
  /**
   * Change a project's limits (0 or null removes one; an organization-wide key only).
   *
   * `PATCH /org/projects/{id_or_name}/limits`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 413, 415, 429, 500, 503.
   */
  update(input: UpdateProjectLimitsInput, options?: CallOptions): CallPromise<ProjectLimits>;
}

/** The `org` operations. */
export interface OrgMethods {
  /** The `org.limits` operations. */
  readonly limits: OrgLimitsMethods;
}

/** The `org.limits` operations. */
export interface OrgLimitsMethods {
  /**
   * Get the organization's limits: the server's cap and projects' defaults.
   *
   * `GET /org/limits`: any token, read-only ones too.
   * Errors: 401, 403, 429, 500, 503.
   */
  get(input?: GetOrgLimitsInput, options?: CallOptions): CallPromise<OrgLimits>;
  /**
   * Change the defaults of projects' limits (an organization-wide key only).
   *
   * `PATCH /org/limits`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 413, 415, 429, 500, 503.
   */
  update(input?: UpdateOrgLimitsInput, options?: CallOptions): CallPromise<OrgLimits>;
}

/** The `apiKeys` operations. */
export interface ApiKeysMethods {
  /**
   * Create an API key, optionally for one project and read-only (the key is shown once).
   *
   * `POST /org/api_keys`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 409, 413, 415, 422, 429, 500, 503.
   */
  create(input: CreateApiKeyInput, options?: CallOptions): CallPromise<CreatedApiKey>;
  /**
   * List the API keys, masked, newest first.
   *
   * `GET /org/api_keys`: any token, read-only ones too.
   * Errors: 400, 401, 403, 429, 500, 503.
   */
  list(input?: ListApiKeysInput, options?: CallOptions): PagePromise<ApiKey>;
  /**
   * Get an API key, masked.
   *
   * `GET /org/api_keys/{id}`: any token, read-only ones too.
   * Errors: 400, 401, 403, 404, 429, 500, 503.
   */
  get(input: GetApiKeyInput, options?: CallOptions): CallPromise<ApiKey>;
  /**
   * Change an API key's label.
   *
   * `PATCH /org/api_keys/{id}`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 413, 415, 429, 500, 503.
   */
  update(input: UpdateApiKeyInput, options?: CallOptions): CallPromise<ApiKey>;
  /**
   * Delete an API key: refused (401) from the next call (not by itself).
   *
   * `DELETE /org/api_keys/{id}`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 409, 429, 500, 503.
   */
  delete(input: DeleteApiKeyInput, options?: CallOptions): CallPromise<undefined>;
  /**
   * Rotate an API key: a new key (shown once) with its name and project; the old one stops.
   *
   * `POST /org/api_keys/{id}/rotate`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 413, 415, 422, 429, 500, 503.
   */
  rotate(input: RotateApiKeyInput, options?: CallOptions): CallPromise<CreatedApiKey>;
}

/** The `auditLogs` operations. */
export interface AuditLogsMethods {
  /**
   * List the audit log: every write, newest first, a page at a time (a project key sees its project).
   *
   * `GET /audit-logs`: any token, read-only ones too.
   * Errors: 400, 401, 403, 429, 500, 503.
   */
  list(input: ListAuditLogsInput, options?: CallOptions): PagePromise<AuditLogEntry>;
}

/** The `nodes` operations. */
export interface NodesMethods {
  /**
   * List the service's nodes: one for a server alone, every node of a cluster.
   *
   * `GET /org/nodes`: any token, read-only ones too.
   * Errors: 400, 401, 403, 429, 500, 503.
   */
  list(input?: ListNodesInput, options?: CallOptions): PagePromise<Node>;
  /**
   * Drain a node for a deploy: no new browser starts on it until it stops; wait up to wait_seconds for its sessions in use to end (an organization-wide key only).
   *
   * `POST /org/nodes/{id}/drain`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 409, 413, 415, 422, 429, 500, 503.
   */
  drain(input: DrainNodeInput, options?: CallOptions): CallPromise<DrainedNode>;
}

/** The `credentials` operations. */
export interface CredentialsMethods {
  /**
   * Store a credential (a login for one site); its values and TOTP secret are write-only.
   *
   * `POST /credentials`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 409, 413, 415, 422, 429, 500, 503.
   */
  create(input: CreateCredentialInput, options?: CallOptions): CallPromise<Credential>;
  /**
   * List the credentials (never their values).
   *
   * `GET /credentials`: any token, read-only ones too.
   * Errors: 400, 401, 403, 429, 500, 503.
   */
  list(input?: ListCredentialsInput, options?: CallOptions): PagePromise<Credential>;
  /**
   * Get a credential (the names of its values, never the values).
   *
   * `GET /credentials/{id_or_name}`: any token, read-only ones too.
   * Errors: 400, 401, 403, 404, 429, 500, 503.
   */
  get(input: GetCredentialInput, options?: CallOptions): CallPromise<Credential>;
  /**
   * Change a credential: values added, overwritten or removed; name, SSO provider, TOTP secret.
   *
   * `PATCH /credentials/{id_or_name}`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 409, 413, 415, 429, 500, 503.
   */
  update(input: UpdateCredentialInput, options?: CallOptions): CallPromise<Credential>;
  /**
   * Delete a credential and its sealed values.
   *
   * `DELETE /credentials/{id_or_name}`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 429, 500, 503.
   */
  delete(input: DeleteCredentialInput, options?: CallOptions): CallPromise<undefined>;
  /**
   * Get the current TOTP code of a credential's secret (RFC 6238) and when it expires.
   *
   * `GET /credentials/{id_or_name}/totp-code`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 409, 429, 500, 503.
   */
  totpCode(input: GetTotpCodeInput, options?: CallOptions): CallPromise<TotpCode>;
}

/** The `credentialProviders` operations. */
export interface CredentialProvidersMethods {
  /**
   * Add a credential provider (a 1Password Connect server) that sign-ins read logins from; its token is write-only.
   *
   * `POST /org/credential_providers`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 409, 413, 415, 422, 429, 500, 503.
   */
  create(
    input: CreateCredentialProviderInput,
    options?: CallOptions,
  ): CallPromise<CredentialProvider>;
  /**
   * List the organization's credential providers (never their tokens).
   *
   * `GET /org/credential_providers`: any token, read-only ones too.
   * Errors: 400, 401, 403, 429, 500, 503.
   */
  list(
    input?: ListCredentialProvidersInput,
    options?: CallOptions,
  ): PagePromise<CredentialProvider>;
  /**
   * Get a credential provider (never its token).
   *
   * `GET /org/credential_providers/{id_or_name}`: any token, read-only ones too.
   * Errors: 400, 401, 403, 404, 429, 500, 503.
   */
  get(input: GetCredentialProviderInput, options?: CallOptions): CallPromise<CredentialProvider>;
  /**
   * Change a credential provider: name, token (rotation), address, cache time, enabled, priority, the projects it is opened to.
   *
   * `PATCH /org/credential_providers/{id_or_name}`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 409, 413, 415, 429, 500, 503.
   */
  update(
    input: UpdateCredentialProviderInput,
    options?: CallOptions,
  ): CallPromise<CredentialProvider>;
  /**
   * Delete a credential provider and its sealed token.
   *
   * `DELETE /org/credential_providers/{id_or_name}`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 429, 500, 503.
   */
  delete(input: DeleteCredentialProviderInput, options?: CallOptions): CallPromise<undefined>;
  /**
   * Test a credential provider: whether it answers and takes the token, and its vaults.
   *
   * `POST /org/credential_providers/{id_or_name}/test`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 422, 429, 500, 503.
   */
  test(
    input: TestCredentialProviderInput,
    options?: CallOptions,
  ): CallPromise<CredentialProviderTestResult>;
  /**
   * List a credential provider's login items: paths, titles, sites (never their values).
   *
   * `GET /org/credential_providers/{id_or_name}/items`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 429, 500, 502, 503.
   */
  items(
    input: ListCredentialProviderItemsInput,
    options?: CallOptions,
  ): CallPromise<CredentialProviderItems>;
}

/** The `auth` operations. */
export interface AuthMethods {
  /** The `auth.connections` operations. */
  readonly connections: AuthConnectionsMethods;
  /** The `auth.context` operations. */
  readonly context: AuthContextMethods;
}

/** The `auth.connections` operations. */
export interface AuthConnectionsMethods {
  /**
   * Create an auth connection: a profile (made when missing) to sign in to a site and keep signed in.
   *
   * `POST /auth/connections`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 409, 413, 415, 422, 429, 500, 503.
   */
  create(input: CreateAuthConnectionInput, options?: CallOptions): CallPromise<AuthConnection>;
  /**
   * List the auth connections, with their flows.
   *
   * `GET /auth/connections`: any token, read-only ones too.
   * Errors: 400, 401, 403, 429, 500, 503.
   */
  list(input?: ListAuthConnectionsInput, options?: CallOptions): PagePromise<AuthConnection>;
  /**
   * Get an auth connection, with the state of its current flow.
   *
   * `GET /auth/connections/{id}`: any token, read-only ones too.
   * Errors: 400, 401, 403, 404, 429, 500, 503.
   */
  get(input: GetAuthConnectionInput, options?: CallOptions): CallPromise<AuthConnection>;
  /**
   * Change an auth connection's settings (credential, login URL, health checks, …).
   *
   * `PATCH /auth/connections/{id}`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 413, 415, 429, 500, 503.
   */
  update(input: UpdateAuthConnectionInput, options?: CallOptions): CallPromise<AuthConnection>;
  /**
   * Delete an auth connection; a flow in progress is canceled (the profile stays).
   *
   * `DELETE /auth/connections/{id}`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 429, 500, 503.
   */
  delete(input: DeleteAuthConnectionInput, options?: CallOptions): CallPromise<undefined>;
  /**
   * Start a sign-in flow in a browser of the profile; follow its events, submit what it asks for.
   *
   * `POST /auth/connections/{id}/login`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 409, 413, 415, 422, 429, 500, 502, 503.
   */
  login(input: LoginAuthConnectionInput, options?: CallOptions): CallPromise<LoginResponse>;
  /**
   * Give a sign-in flow the values it asked for (AWAITING_INPUT).
   *
   * `POST /auth/connections/{id}/submit`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 409, 413, 415, 422, 429, 500, 503.
   */
  submit(input: SubmitAuthConnectionInput, options?: CallOptions): CallPromise<SubmitResponse>;
  /**
   * Follow a connection's sign-in flow: its states as they change, until it ends.
   *
   * `GET /auth/connections/{id}/events`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 429, 500, 503.
   */
  events(
    input: FollowAuthConnectionInput,
    options?: CallOptions,
  ): CallPromise<FollowAuthConnectionResult>;
  /**
   * List a connection's logins, re-authentications and health checks, newest first.
   *
   * `GET /auth/connections/{id}/timeline`: any token, read-only ones too.
   * Errors: 400, 401, 403, 404, 429, 500, 503.
   */
  timeline(
    input: AuthConnectionTimelineInput,
    options?: CallOptions,
  ): PagePromise<AuthTimelineEvent>;
}

/** The `auth.context` operations. */
export interface AuthContextMethods {
  /**
   * Get the caller's context: its credential, the project it is limited to, the project this call acts in, and whether it may only read.
   *
   * `GET /auth/context`: any token, read-only ones too.
   * Errors: 401, 403, 429, 500, 503.
   */
  get(input?: GetAuthContextInput, options?: CallOptions): CallPromise<AuthContext>;
}

/** The `deployments` operations. */
export interface DeploymentsMethods {
  /**
   * Deploy an app's code: a zip of its folder, its entrypoint and version.
   *
   * `POST /deployments`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 409, 413, 415, 422, 429, 500, 503.
   */
  create(input: CreateDeploymentInput, options?: CallOptions): CallPromise<Deployment>;
  /**
   * List the deployments.
   *
   * `GET /deployments`: any token, read-only ones too.
   * Errors: 400, 401, 403, 429, 500, 503.
   */
  list(input?: ListDeploymentsInput, options?: CallOptions): PagePromise<Deployment>;
  /**
   * Get a deployment.
   *
   * `GET /deployments/{id}`: any token, read-only ones too.
   * Errors: 400, 401, 403, 404, 429, 500, 503.
   */
  get(input: GetDeploymentInput, options?: CallOptions): CallPromise<Deployment>;
  /**
   * Stop a deployment: its apps can no longer be invoked.
   *
   * `DELETE /deployments/{id}`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 429, 500, 503.
   */
  delete(input: DeleteDeploymentInput, options?: CallOptions): CallPromise<undefined>;
  /**
   * Follow a deployment: its install's log, its apps and its states, until it ends.
   *
   * `GET /deployments/{id}/events`: a full token (a read-only token is refused).
   * Errors: 400, 401, 403, 404, 429, 500, 503.
   */
  events(input: FollowDeploymentInput, options?: CallOptions): CallPromise<FollowDeploymentResult>;
}

/** The `apps` operations. */
export interface AppsMethods {
  /**
   * List the app versions that can be invoked, with their actions.
   *
   * `GET /apps`: any token, read-only ones too.
   * Errors: 400, 401, 403, 429, 500, 503.
   */
  list(input?: ListAppsInput, options?: CallOptions): PagePromise<AppVersion>;
}
