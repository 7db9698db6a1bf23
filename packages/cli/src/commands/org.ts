import type {
  ApiKey,
  AuditLogEntry,
  CreatedApiKey,
  DrainedNode,
  OrgLimits,
  Project,
  ProjectLimits,
  ServiceNode,
} from '@x/types';
import type { CommandSet, CommandSpec } from './command.js';
import { listShow, operationCommand } from './define.js';
import {
  auditTable,
  keyTable,
  keyView,
  nodeTable,
  orgLimitsView,
  projectLimitsView,
  projectTable,
  projectView,
} from './org-views.js';

const PROJECT = { name: '<id-or-name>', field: 'id_or_name' } as const;
const KEY = { name: '<id>', field: 'id' } as const;

/** `xb projects …`: projects and their limits, and the organization's defaults. */
export const projectCommands: CommandSpec[] = [
  operationCommand<Project>('projects', 'create', 'projects.create', {
    example: 'xb projects create --name staging',
    show: (context, project) =>
      `${context.colors.green('✓')} Created project ${context.colors.cyan(project.id)} (${project.name}). Act in it with --project ${project.name}`,
  }),
  operationCommand<Project[]>('projects', 'list', 'projects.list', {
    example: 'xb projects list --query stag',
    show: listShow(projectTable, 'No projects.'),
  }),
  operationCommand<Project>('projects', 'get', 'projects.get', {
    args: [PROJECT],
    example: 'xb projects get staging',
    show: (context, project) => projectView(context.colors, project),
  }),
  operationCommand<Project>('projects', 'update', 'projects.update', {
    args: [PROJECT],
    example: 'xb projects update staging --status archived',
    show: (context, project) => projectView(context.colors, project),
  }),
  operationCommand('projects', 'delete', 'projects.delete', {
    args: [PROJECT],
    example: 'xb projects delete staging',
    show: (context) => `${context.colors.green('✓')} Deleted project ${context.input.id_or_name}.`,
  }),
  operationCommand<ProjectLimits>('projects', 'limits', 'projects.limits.get', {
    args: [PROJECT],
    example: 'xb projects limits staging',
    show: (context, limits) => projectLimitsView(context.colors, limits),
  }),
  operationCommand<ProjectLimits>('projects', 'set-limits', 'projects.limits.update', {
    args: [PROJECT],
    example: 'xb projects set-limits staging --max-concurrent-sessions 10',
    show: (context, limits) => projectLimitsView(context.colors, limits),
  }),
  operationCommand<OrgLimits>('projects', 'org-limits', 'org.limits.get', {
    example: 'xb projects org-limits',
    show: (context, limits) => orgLimitsView(context.colors, limits),
  }),
  operationCommand<OrgLimits>('projects', 'set-org-limits', 'org.limits.update', {
    example: 'xb projects set-org-limits --default-project-max-concurrent-sessions 5',
    show: (context, limits) => orgLimitsView(context.colors, limits),
  }),
];

/** `xb keys …`: API keys, shown once when made or rotated. */
export const keyCommands: CommandSpec[] = [
  operationCommand<CreatedApiKey>('keys', 'create', 'apiKeys.create', {
    example: 'xb keys create --name ci --project-id staging --days-to-expire 90',
    show: (context, key) => keyView(context.colors, key),
  }),
  operationCommand<ApiKey[]>('keys', 'list', 'apiKeys.list', {
    example: 'xb keys list --status all',
    show: listShow(keyTable, 'No API keys.'),
  }),
  operationCommand<ApiKey>('keys', 'get', 'apiKeys.get', {
    args: [KEY],
    example: 'xb keys get key_4HkP0qL2mN7x',
    show: (context, key) => keyView(context.colors, key),
  }),
  operationCommand<ApiKey>('keys', 'update', 'apiKeys.update', {
    args: [KEY],
    example: 'xb keys update key_4HkP0qL2mN7x --name deploys',
    show: (context, key) => keyView(context.colors, key),
  }),
  operationCommand('keys', 'delete', 'apiKeys.delete', {
    args: [KEY],
    example: 'xb keys delete key_4HkP0qL2mN7x',
    show: (context) =>
      `${context.colors.green('✓')} Deleted API key ${context.input.id}: it is refused from now on.`,
  }),
  operationCommand<CreatedApiKey>('keys', 'rotate', 'apiKeys.rotate', {
    args: [KEY],
    example: 'xb keys rotate key_4HkP0qL2mN7x --expire-in-days 1',
    show: (context, key) => keyView(context.colors, key),
  }),
];

/** `xb audit …`: the writes the service answered, newest first. */
export const auditCommands: CommandSpec[] = [
  operationCommand<AuditLogEntry[]>('audit', 'list', 'auditLogs.list', {
    example:
      'xb audit list --start 2026-11-24T00:00:00Z --end 2026-11-25T00:00:00Z --method DELETE',
    show: listShow(auditTable, 'No entries.'),
  }),
];

/** `xb nodes …`: the service's nodes, and draining one for a deploy. */
export const nodeCommands: CommandSpec[] = [
  operationCommand<ServiceNode[]>('nodes', 'list', 'nodes.list', {
    example: 'xb nodes list',
    show: listShow(nodeTable, 'No nodes.'),
  }),
  operationCommand<DrainedNode>('nodes', 'drain', 'nodes.drain', {
    args: [{ name: '<id>', field: 'id' }],
    example: 'xb nodes drain a1b2 --wait-seconds 300',
    show: (context, { node, browsers_in_use: inUse }) =>
      `${context.colors.green('✓')} Node ${context.colors.cyan(node.id)} drains: no new browser starts on it until it stops. ${
        inUse === 0
          ? 'Nothing is in use on it: it can stop now.'
          : `${inUse} browser${inUse === 1 ? '' : 's'} still in use on it.`
      }`,
  }),
];

/** `xb projects`, `xb keys`, `xb audit` and `xb nodes`: the groups and their commands. */
export const orgSet: CommandSet = {
  groups: [
    { name: 'projects', summary: 'Keep teams apart in projects; set their limits' },
    { name: 'keys', summary: 'Make, rotate and delete API keys, for every project or one' },
    { name: 'audit', summary: 'Read the audit log: every write, who made it and how it ended' },
    { name: 'nodes', summary: "See the service's nodes; drain one before a deploy stops it" },
  ],
  commands: [...projectCommands, ...keyCommands, ...auditCommands, ...nodeCommands],
};
