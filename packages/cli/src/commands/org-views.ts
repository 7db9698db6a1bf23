import type {
  ApiKey,
  AuditLogEntry,
  CreatedApiKey,
  OrgLimits,
  Project,
  ProjectLimits,
  ServiceNode,
} from '@x/types';
import type { Colors } from '../output/colors.js';
import { formatTime, renderRecord, renderTable } from '../output/format.js';

/** Projects as a table. */
export function projectTable(colors: Colors, projects: readonly Project[]): string {
  return renderTable(
    colors,
    ['ID', 'NAME', 'STATUS', 'CREATED'],
    projects.map((project) => [
      colors.cyan(project.id),
      project.name,
      project.status === 'active' ? project.status : colors.dim(project.status),
      formatTime(project.created_at),
    ]),
  );
}

/** One project. */
export function projectView(colors: Colors, project: Project): string {
  return renderRecord(colors, {
    id: colors.cyan(project.id),
    name: project.name,
    status: project.status,
    created: formatTime(project.created_at),
    updated: formatTime(project.updated_at),
  });
}

const limit = (colors: Colors, value: number | null | undefined, none: string) =>
  value === null || value === undefined ? colors.dim(none) : String(value);

/** A project's limits. */
export function projectLimitsView(colors: Colors, limits: ProjectLimits): string {
  return renderRecord(colors, {
    max_concurrent_sessions: limit(
      colors,
      limits.max_concurrent_sessions,
      "the organization's default",
    ),
    max_concurrent_invocations: limit(
      colors,
      limits.max_concurrent_invocations,
      "the organization's default",
    ),
  });
}

/** The organization's limits. */
export function orgLimitsView(colors: Colors, limits: OrgLimits): string {
  return renderRecord(colors, {
    max_concurrent_sessions: `${limits.max_concurrent_sessions} ${colors.dim('(the server’s own cap)')}`,
    default_project_max_concurrent_sessions: limit(
      colors,
      limits.default_project_max_concurrent_sessions,
      'none',
    ),
    default_project_max_concurrent_invocations: limit(
      colors,
      limits.default_project_max_concurrent_invocations,
      'none',
    ),
  });
}

/** API keys as a table (masked: the key itself is never listed). */
export function keyTable(colors: Colors, keys: readonly ApiKey[]): string {
  return renderTable(
    colors,
    ['ID', 'NAME', 'KEY', 'PROJECT', 'ACCESS', 'EXPIRES'],
    keys.map((key) => [
      colors.cyan(key.id),
      key.name,
      key.masked_key,
      key.project_name ?? key.project_id ?? colors.dim('every project'),
      key.read_only ? 'read-only' : 'full',
      key.deleted_at
        ? colors.dim(`deleted ${formatTime(key.deleted_at)}`)
        : key.expires_at
          ? formatTime(key.expires_at)
          : colors.dim('never'),
    ]),
  );
}

/** One API key; a key just made or rotated shows the key itself, this once. */
export function keyView(colors: Colors, key: ApiKey | CreatedApiKey): string {
  const record = renderRecord(colors, {
    id: colors.cyan(key.id),
    name: key.name,
    key: 'key' in key ? colors.bold(key.key) : key.masked_key,
    project: key.project_name ?? key.project_id ?? colors.dim('every project'),
    access: key.read_only ? 'read-only' : 'full',
    created: formatTime(key.created_at),
    expires: key.expires_at ? formatTime(key.expires_at) : colors.dim('never'),
    deleted: key.deleted_at ? formatTime(key.deleted_at) : undefined,
  });
  if (!('key' in key)) return record;
  return `${record}\n${colors.yellow('Save the key now: it is shown only this once.')}`;
}

/** Audit log entries as a table, newest first. */
export function auditTable(colors: Colors, entries: readonly AuditLogEntry[]): string {
  return renderTable(
    colors,
    ['TIME', 'KEY', 'PROJECT', 'METHOD', 'PATH', 'STATUS', 'MS', 'FROM'],
    entries.map((entry) => [
      formatTime(entry.timestamp),
      entry.key_name,
      entry.project_id ?? colors.dim('org'),
      entry.method,
      entry.path,
      entry.status < 400 ? String(entry.status) : colors.red(String(entry.status)),
      String(entry.duration_ms),
      entry.client_ip,
    ]),
  );
}

/** The service's nodes: state and load, the one that answered marked. */
export function nodeTable(colors: Colors, nodes: readonly ServiceNode[]): string {
  return renderTable(
    colors,
    ['ID', 'STATE', 'BROWSERS', 'URL', ''],
    nodes.map((node) => [
      colors.cyan(node.id),
      node.state === 'up'
        ? colors.green(node.state)
        : node.state === 'lost'
          ? colors.red(node.state)
          : colors.yellow(node.state),
      `${node.browsers}/${node.max_browsers}`,
      node.url ?? colors.dim('alone'),
      node.is_self ? colors.dim('(answered)') : '',
    ]),
  );
}
