import type { Logger } from 'pino';
import { type ServerConfig, SettingError } from '../config.js';
import type { SessionCgroups } from '../sandbox/cgroups.js';
import type { DiskDetection } from '../sandbox/instance-disks.js';
import { readCaFile } from '../sandbox/session-trust.js';
import { describeTools, findSystemTools, type SystemTools } from '../system/executables.js';
import { raiseFileLimit } from '../system/file-limit.js';

/**
 * Refuses what the host cannot honour, rather than ignore it: resolvers for the sessions where
 * they have no relay of their own to ask them (a server that is not root resolves through
 * slirp4netns; with `XB_ALLOW_NETWORKS=*` sessions use the host's own resolver), and an
 * authorities file that is not one (read now, so the start says so in one line).
 */
export function checkSessionSettings(config: ServerConfig): void {
  if (config.sessionNameservers && process.getuid?.() !== 0)
    throw new SettingError(
      "XB_SESSION_NAMESERVERS needs a server that runs as root: the sessions of a server that is not ask the host's resolvers, through slirp4netns",
    );
  if (config.sessionNameservers && config.allowNetworks === 'open')
    throw new SettingError(
      "XB_SESSION_NAMESERVERS has no effect with XB_ALLOW_NETWORKS=*: sessions then use the host's network and its resolvers",
    );
  if (config.sessionCaFile) {
    try {
      readCaFile(config.sessionCaFile);
    } catch (error) {
      throw new SettingError((error as Error).message);
    }
  }
}

/**
 * Stage two: what this host has. Its tools (bubblewrap, ffmpeg, nftables, …) found and the
 * missing ones named; the open files raised as far as the host lets, in one start-up line each.
 */
export function readHost(logger: Logger): SystemTools {
  const tools = findSystemTools();
  const openFiles = raiseFileLimit(tools.prlimit);
  // Each browser holds a few dozen (pipes, sockets, its CDP connection); callers hold the rest.
  const fileLine = `open files: ${openFiles.soft} at most${openFiles.note ? ` (${openFiles.note})` : ''}`;
  if (openFiles.soft < 4096)
    logger.warn({ openFiles: openFiles.soft }, `${fileLine}: raise it (ulimit -n)`);
  else logger.info({ openFiles: openFiles.soft }, fileLine);
  const { found, missing } = describeTools(tools);
  if (missing.length > 0)
    logger.warn({ found, missing }, `missing on this host: ${missing.join(', ')}`);
  else logger.info({ found }, 'system tools found');
  return tools;
}

/** One start-up line: which per-session limits hold here, and which the host does not allow. */
export function logLimits(
  logger: Logger,
  found: {
    cgroups: SessionCgroups | undefined;
    disks: DiskDetection | undefined;
  },
  config: ServerConfig,
) {
  const { processes, watches } = config.limits;
  const always = [`${processes} processes`, `${watches} watches`];
  if (!found.cgroups) {
    logger.warn({ enforced: always }, 'session limits: browsers run unsandboxed, no cgroup limits');
    return;
  }
  const { version, enforced, notAllowed } = found.cgroups.describe();
  const limits = { enforced: [...enforced], notAllowed: [...notAllowed], off: [] as string[] };
  if (!found.disks) limits.off.push('a disk per session (XB_SESSION_DISK_MB=0)');
  else if ('disks' in found.disks) limits.enforced.push(found.disks.disks.describe());
  else limits.notAllowed.push(`a disk per session (${found.disks.reason})`);
  limits.enforced.push(...always);
  const line = [
    `session limits (${version}): ${limits.enforced.join(', ')}`,
    ...(limits.notAllowed.length > 0
      ? [`not allowed by this host: ${limits.notAllowed.join(', ')}`]
      : []),
    ...(limits.off.length > 0 ? [`turned off: ${limits.off.join(', ')}`] : []),
  ].join('; ');
  const fields = { cgroups: version, ...limits };
  if (limits.notAllowed.length > 0) logger.warn(fields, line);
  else logger.info(fields, line);
}
