import type {
  AppVersion,
  BrowserPool,
  BrowserProxy,
  BrowserSession,
  Deployment,
  Extension,
  Invocation,
  LiveView,
  ProcessStatus,
  Profile,
  Replay,
  TelemetryEnvelope,
} from '@x/types';
import type { Colors } from '../output/colors.js';
import { formatBytes, formatTime, renderRecord, renderTable } from '../output/format.js';

/** Browsers as a table. */
export function browserTable(colors: Colors, sessions: readonly BrowserSession[]): string {
  return renderTable(
    colors,
    ['ID', 'NAME', 'CREATED', 'HEADLESS', 'TIMEOUT', 'POOL', 'INVOCATION'],
    sessions.map((session) => [
      colors.cyan(session.session_id),
      session.name ?? '-',
      formatTime(session.created_at),
      session.headless ? 'yes' : 'no',
      `${session.timeout_seconds}s`,
      session.pool?.name ?? session.pool?.id ?? '-',
      session.invocation_id ?? '-',
    ]),
  );
}

/** One browser, its URLs included. */
export function browserView(colors: Colors, session: BrowserSession): string {
  return renderRecord(colors, {
    id: colors.cyan(session.session_id),
    name: session.name,
    tags: session.tags
      ? Object.entries(session.tags)
          .map(([key, value]) => `${key}=${value}`)
          .join(', ')
      : undefined,
    created: formatTime(session.created_at),
    deleted: session.deleted_at ? formatTime(session.deleted_at) : undefined,
    cdp_ws_url: session.cdp_ws_url,
    live_view: session.browser_live_view_url,
    viewers: session.viewers,
    headless: session.headless,
    stealth: session.stealth,
    timeout: `${session.timeout_seconds}s`,
    viewport: session.viewport ? `${session.viewport.width}x${session.viewport.height}` : undefined,
    pool: session.pool?.name ?? session.pool?.id,
    invocation: session.invocation_id,
    profile: session.profile
      ? `${session.profile.name ?? session.profile.id}${session.profile.save_changes ? ' (saves changes)' : ' (read-only)'}`
      : undefined,
    proxy: session.proxy_id,
  });
}

/**
 * A live view link: its URL alone on the line, so `xb browsers live <id>` can be piped or
 * clicked; `--json` gives its mode and expiry too.
 */
export function liveViewText(_colors: Colors, view: LiveView): string {
  return view.url;
}

/** Profiles as a table. */
export function profileTable(colors: Colors, profiles: readonly Profile[]): string {
  return renderTable(
    colors,
    ['ID', 'NAME', 'CREATED', 'SAVED', 'LAST USED'],
    profiles.map((profile) => [
      colors.cyan(profile.id),
      profile.name ?? '-',
      formatTime(profile.created_at),
      formatTime(profile.updated_at),
      formatTime(profile.last_used_at),
    ]),
  );
}

/** One profile. */
export function profileView(colors: Colors, profile: Profile): string {
  return renderRecord(colors, {
    id: colors.cyan(profile.id),
    name: profile.name,
    created: formatTime(profile.created_at),
    saved: profile.updated_at ? formatTime(profile.updated_at) : colors.dim('never'),
    last_used: profile.last_used_at ? formatTime(profile.last_used_at) : colors.dim('never'),
  });
}

/** A proxy's status, coloured. */
function proxyStatus(colors: Colors, proxy: BrowserProxy): string {
  if (proxy.status === 'available') return colors.green('available');
  if (proxy.status === 'unavailable') return colors.red('unavailable');
  return colors.dim('not checked');
}

/** Proxies as a table. */
export function proxyTable(colors: Colors, proxies: readonly BrowserProxy[]): string {
  return renderTable(
    colors,
    ['ID', 'NAME', 'PROXY', 'USER', 'STATUS', 'EXIT IP'],
    proxies.map((proxy) => [
      colors.cyan(proxy.id),
      proxy.name ?? '-',
      `${proxy.protocol}://${proxy.config.host}:${proxy.config.port}`,
      proxy.config.username ?? '-',
      proxyStatus(colors, proxy),
      proxy.ip_address ?? '-',
    ]),
  );
}

/** One proxy (its password only as set or not). */
export function proxyView(colors: Colors, proxy: BrowserProxy): string {
  return renderRecord(colors, {
    id: colors.cyan(proxy.id),
    name: proxy.name,
    proxy: `${proxy.protocol}://${proxy.config.host}:${proxy.config.port}`,
    username: proxy.config.username,
    password: proxy.config.has_password ? 'set' : colors.dim('none'),
    bypass: proxy.bypass_hosts?.length ? proxy.bypass_hosts.join(', ') : undefined,
    status: proxyStatus(colors, proxy),
    checked: proxy.last_checked ? formatTime(proxy.last_checked) : undefined,
    exit_ip: proxy.ip_address,
  });
}

/** Pools as a table. */
export function poolTable(colors: Colors, pools: readonly BrowserPool[]): string {
  return renderTable(
    colors,
    ['ID', 'NAME', 'SIZE', 'AVAILABLE', 'ACQUIRED', 'CREATED'],
    pools.map((pool) => [
      colors.cyan(pool.id),
      pool.name ?? '-',
      String(pool.browser_pool_config.size),
      colors.green(String(pool.available_count)),
      String(pool.acquired_count),
      formatTime(pool.created_at),
    ]),
  );
}

/** One pool with its configuration. */
export function poolView(colors: Colors, pool: BrowserPool): string {
  const { size, ...config } = pool.browser_pool_config;
  return renderRecord(colors, {
    id: colors.cyan(pool.id),
    name: pool.name,
    size,
    available: colors.green(String(pool.available_count)),
    acquired: pool.acquired_count,
    created: formatTime(pool.created_at),
    config,
  });
}

/** Extensions as a table. */
export function extensionTable(colors: Colors, extensions: readonly Extension[]): string {
  return renderTable(
    colors,
    ['ID', 'NAME', 'SIZE', 'CREATED', 'LAST USED'],
    extensions.map((extension) => [
      colors.cyan(extension.id),
      extension.name ?? '-',
      formatBytes(extension.size_bytes),
      formatTime(extension.created_at),
      formatTime(extension.last_used_at),
    ]),
  );
}

/** One extension's record: its size and SHA-256 too. */
export function extensionView(colors: Colors, extension: Extension): string {
  return renderRecord(colors, {
    id: colors.cyan(extension.id),
    name: extension.name,
    size: formatBytes(extension.size_bytes),
    sha256: extension.checksum,
    created: formatTime(extension.created_at),
    last_used: extension.last_used_at ? formatTime(extension.last_used_at) : undefined,
  });
}

/** Replays as a table. */
export function replayTable(colors: Colors, replays: readonly Replay[]): string {
  return renderTable(
    colors,
    ['ID', 'STARTED', 'FINISHED'],
    replays.map((replay) => [
      colors.cyan(replay.replay_id),
      formatTime(replay.started_at),
      replay.finished_at ? formatTime(replay.finished_at) : colors.yellow('recording'),
    ]),
  );
}

/** One replay. */
export function replayView(colors: Colors, replay: Replay): string {
  return renderRecord(colors, {
    id: colors.cyan(replay.replay_id),
    started: formatTime(replay.started_at),
    finished: replay.finished_at ? formatTime(replay.finished_at) : colors.yellow('recording'),
    view: replay.replay_view_url,
  });
}

/** Invocations as a table. */
export function invocationTable(colors: Colors, invocations: readonly Invocation[]): string {
  return renderTable(
    colors,
    ['ID', 'APP', 'ACTION', 'STATUS', 'STARTED', 'FINISHED'],
    invocations.map((invocation) => [
      colors.cyan(invocation.id),
      invocation.app_name,
      invocation.action_name,
      invocation.status,
      formatTime(invocation.started_at),
      formatTime(invocation.finished_at),
    ]),
  );
}

/** One invocation as a record. */
export function invocationView(colors: Colors, invocation: Invocation): string {
  return renderRecord(colors, {
    id: colors.cyan(invocation.id),
    app: invocation.app_name,
    action: invocation.action_name,
    version: invocation.version,
    status: invocation.status,
    started: formatTime(invocation.started_at),
    finished: invocation.finished_at ? formatTime(invocation.finished_at) : undefined,
  });
}

/** A process status on one line. */
export function processStatusLine(colors: Colors, status: ProcessStatus): string {
  const state =
    status.state === 'running' ? colors.green('running') : colors.dim(`exited ${status.exit_code}`);
  return `${state}  cpu ${status.cpu_pct.toFixed(1)}%  mem ${formatBytes(status.mem_bytes)}`;
}

/** What an event says, in a few words: the console text, the request and its end, the call. */
function telemetrySummary(event: TelemetryEnvelope['event']): string {
  const data = event.data ?? {};
  const text = (key: string) => (typeof data[key] === 'string' ? (data[key] as string) : '');
  const number = (key: string) => (typeof data[key] === 'number' ? String(data[key]) : '');
  switch (event.category) {
    case 'console':
      return text('text');
    case 'network':
      return [text('method'), text('url'), number('status') || text('error_text')]
        .filter((part) => part !== '')
        .join(' ');
    case 'control':
      return `${text('operation_id')} ${number('status')} ${number('duration_ms')} ms`;
    case 'connection':
      return [
        text('session_id'),
        text('reason'),
        number('duration_ms') && `${number('duration_ms')} ms`,
      ]
        .filter((part) => part !== '')
        .join(' ');
    default:
      return text('url') || text('step');
  }
}

/** An event's time, as `formatTime` shows times. */
const telemetryTime = (event: TelemetryEnvelope['event']) =>
  formatTime(new Date(event.ts / 1000).toISOString());

/** Telemetry events as a table: number, time, category, type and what each says. */
export function telemetryTable(colors: Colors, envelopes: readonly TelemetryEnvelope[]): string {
  return renderTable(
    colors,
    ['SEQ', 'TIME', 'CATEGORY', 'TYPE', 'WHAT'],
    envelopes.map(({ seq, event }) => [
      String(seq),
      telemetryTime(event),
      event.category,
      event.type,
      telemetrySummary(event) + (event.truncated ? colors.dim(' (cut)') : ''),
    ]),
  );
}

/** One telemetry event as a line of a followed stream. */
export function telemetryLine({ seq, event }: TelemetryEnvelope): string {
  return `${seq} ${telemetryTime(event)} ${event.category} ${event.type} ${telemetrySummary(event)}`;
}

/** Deployments as a table. */
export function deploymentTable(colors: Colors, deployments: readonly Deployment[]): string {
  return renderTable(
    colors,
    ['ID', 'APP', 'VERSION', 'STATUS', 'CREATED', 'ENTRYPOINT'],
    deployments.map((deployment) => [
      colors.cyan(deployment.id),
      deployment.app_name ?? '-',
      deployment.version,
      deploymentStatus(colors, deployment.status),
      formatTime(deployment.created_at),
      deployment.entrypoint_rel_path,
    ]),
  );
}

function deploymentStatus(colors: Colors, status: Deployment['status']): string {
  if (status === 'running') return colors.green(status);
  if (status === 'failed') return colors.red(status);
  return status;
}

/** One deployment, field by field. */
export function deploymentView(colors: Colors, deployment: Deployment): string {
  return renderRecord(colors, {
    id: colors.cyan(deployment.id),
    app: deployment.app_name ?? '-',
    version: deployment.version,
    status: deploymentStatus(colors, deployment.status),
    reason: deployment.status_reason ?? '-',
    entrypoint: deployment.entrypoint_rel_path,
    env: Object.keys(deployment.env_vars).join(', ') || '-',
    created: formatTime(deployment.created_at),
    updated: formatTime(deployment.updated_at),
    checksum: deployment.source_checksum,
  });
}

/** App versions as a table. */
export function appTable(colors: Colors, versions: readonly AppVersion[]): string {
  return renderTable(
    colors,
    ['APP', 'VERSION', 'ACTIONS', 'DEPLOYMENT'],
    versions.map((version) => [
      colors.cyan(version.app_name),
      version.version,
      version.actions.map((action) => action.name).join(', ') || '-',
      version.deployment,
    ]),
  );
}
