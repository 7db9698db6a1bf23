/**
 * Writes docs/reference.md, the interface reference, from the operation catalog of @x/types, so
 * it cannot drift from what the packages and the server do. `--check` fails when the file is
 * not what the catalog makes (the test script runs it so).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { type Operation, operationFields, operations, successStatuses } from '@x/types';

const FILE = 'docs/reference.md';

/** The group of an operation: mostly the first part of its name (`browsers.process.spawn` → Processes). */
function groupOf(operation: Operation): string {
  const [first, second] = operation.name.split('.');
  if (first === 'browsers' && second === 'process') return 'Processes';
  if (first === 'browsers' && second === 'fs') return 'Filesystem watches';
  if (first === 'browsers' && second === 'computer') return 'Computer controls';
  if (first === 'browsers' && second === 'replays') return 'Replays';
  if (first === 'auth' && second === 'context') return 'Who calls';
  const names: Record<string, string> = {
    browsers: 'Browsers',
    browserPools: 'Browser pools',
    extensions: 'Extensions',
    invocations: 'Invocations',
    profiles: 'Profiles',
    proxies: 'Proxies',
    credentials: 'Credentials',
    credentialProviders: 'Credential providers (organization)',
    auth: 'Auth connections',
    projects: 'Projects (organization)',
    org: 'Projects (organization)',
    apiKeys: 'API keys (organization)',
    auditLogs: 'Audit log (organization)',
    nodes: 'Nodes (organization)',
  };
  const name = first ?? '';
  return names[name] ?? `${name.charAt(0).toUpperCase()}${name.slice(1)}`;
}

/** The order of the groups: a project's by title, then the organization's by title. */
function byTitle(a: string, b: string): number {
  const org = (title: string) => (title.endsWith('(organization)') ? 1 : 0);
  return org(a) - org(b) || (a < b ? -1 : a > b ? 1 : 0);
}

const list = (names: readonly string[]) =>
  names.length === 0 ? '–' : names.map((name) => `\`${name}\``).join(', ');

function render(): string {
  const lines = [
    '# Interface reference',
    '',
    'Every operation of the API (version 0.1.0), generated from the operation catalog of',
    '`@x/types` by `node scripts/reference.ts`; the tests fail when this page and the catalog',
    'differ. Field rules (types, bounds, defaults) are the valibot schemas of `@x/types`, also',
    'served as the OpenAPI 3.1 document at `GET /openapi.json`. What the interface leaves open is',
    'decided in [the decisions](decisions/README.md).',
    '',
    'Every operation takes `Authorization: Bearer <token>`. `read` operations (records and',
    'metrics) accept a read-only token; `contents` operations (what a session or a stored object',
    'holds: files and their names, process output, watch events, screen, clipboard, saved',
    'profiles, extension archives, recordings) and `write` operations answer it 403. Errors have',
    'the Error body `{code, message, details?}`.',
    '',
    'Every operation outside the organization sections acts in one project: the one',
    '`X-Kernel-Project-Id` names (an id or a name), else the one its API key is limited to, else',
    "the `default` project. Another project's resource is 404; a project key naming another",
    "project is 403. The organization's operations (projects, API keys, limits, the audit log)",
    'ignore the header.',
  ];
  const groups = new Map<string, Operation[]>();
  for (const operation of operations as readonly Operation[]) {
    const group = groupOf(operation);
    groups.set(group, [...(groups.get(group) ?? []), operation]);
  }
  for (const [group, members] of [...groups].sort(([a], [b]) => byTitle(a, b))) {
    lines.push('', `## ${group}`, '');
    lines.push('| operation | call | access | path · query · body | success | errors |');
    lines.push('|---|---|---|---|---|---|');
    for (const operation of members) {
      const fields = operationFields(operation);
      const section = operation.specSection ? ` (§${operation.specSection})` : '';
      lines.push(
        `| \`${operation.name}\`${section}<br>${operation.summary} | \`${operation.method} ${operation.path}\` | ${operation.access} | ${list(fields.path)} · ${list(fields.query)} · ${list(fields.body)} | ${successStatuses(operation).join(', ')} | ${operation.errorStatuses.join(', ') || '–'} |`,
      );
    }
  }
  return `${lines.join('\n')}\n`;
}

const expected = render();
if (process.argv.includes('--check')) {
  let actual = '';
  try {
    actual = readFileSync(FILE, 'utf8');
  } catch {
    // No file yet: it differs.
  }
  if (actual !== expected) {
    console.error(`${FILE} is not what the catalog makes: run node scripts/reference.ts`);
    process.exit(1);
  }
  console.log(`${FILE} matches the catalog (${operations.length} operations)`);
} else {
  writeFileSync(FILE, expected);
  console.log(`${FILE} written (${operations.length} operations)`);
}
