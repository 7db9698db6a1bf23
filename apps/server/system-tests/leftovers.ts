import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { dataDirGroupName } from '../src/sandbox/cgroups.js';
import { processesOfServer } from '../src/test-support/processes.js';

/** The egress policy's table and subnet, as the server's JSON log says them at start. */
function policyOf(log: string): { table?: string; subnet?: string } {
  for (const line of log.split('\n')) {
    if (!line.includes('egress policy')) continue;
    try {
      const parsed = JSON.parse(line) as { table?: string; subnet?: string };
      if (parsed.table) return parsed;
    } catch {
      // Not a JSON line.
    }
  }
  return {};
}

/** The cgroup folders (one level down) of a data directory's own group, wherever it sits. */
function sessionGroups(dataDir: string): string[] {
  const name = dataDirGroupName(dataDir);
  const found: string[] = [];
  const walk = (folder: string, depth: number) => {
    if (depth > 6) return;
    let entries: string[];
    try {
      entries = readdirSync(folder, { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => entry.name);
    } catch {
      return;
    }
    for (const entry of entries) {
      if (entry === name) {
        const inside = readdirSync(join(folder, entry), { withFileTypes: true });
        found.push(
          ...inside.filter((one) => one.isDirectory()).map((one) => join(folder, entry, one.name)),
        );
      } else walk(join(folder, entry), depth + 1);
    }
  };
  walk('/sys/fs/cgroup', 0);
  return found;
}

/**
 * What a server on `dataDir` (whose JSON log is `log`) has on the host: its sandboxes'
 * processes, mounts under its data directory, session cgroups, network namespaces, nftables
 * table, the route of its session subnet and its claims on the host's shared resources.
 */
export function hostLeftovers(dataDir: string, log: string) {
  const { table, subnet } = policyOf(log);
  const tag = table?.slice('xb_'.length);
  const netns = existsSync('/run/netns') ? readdirSync('/run/netns') : [];
  const tables = execFileSync('nft', ['list', 'tables'], { encoding: 'utf8' });
  const routes = execFileSync('ip', ['-4', 'route', 'show', 'table', 'all'], { encoding: 'utf8' });
  const claimsFolder = '/run/xb-server/claims';
  const claims = existsSync(claimsFolder)
    ? readdirSync(claimsFolder).filter((name) => {
        try {
          return readFileSync(join(claimsFolder, name), 'utf8').includes(JSON.stringify(dataDir));
        } catch {
          return false;
        }
      })
    : [];
  return {
    processes: processesOfServer(dataDir).map((one) => `${one.pid} ${one.commandLine}`),
    mounts: readFileSync('/proc/mounts', 'utf8')
      .split('\n')
      .filter((line) => line.includes(dataDir)),
    cgroups: sessionGroups(dataDir),
    namespaces: tag
      ? netns.filter((name) => name.startsWith(`xb-${tag}-`))
      : ['(no policy in the log)'],
    tables: table ? tables.split('\n').filter((line) => line.trim() === `table inet ${table}`) : [],
    routes: subnet
      ? routes.split('\n').filter((line) => line.includes(subnet.split('/')[0] as string))
      : [],
    claims,
  };
}
