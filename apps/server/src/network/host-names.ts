import { createHash } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import type { Logger } from 'pino';
import { describeHolder, type HostClaims } from '../system/host-claims.js';

/** The names a root server's sessions' networks take on the host, each claimed once. */

/** Where iproute2 keeps the names of network namespaces. */
export const NETNS_DIR = '/run/netns';

/** The name of a server's policy objects: 4 hex digits of its data directory's path. */
export function networkTag(dataDir: string): string {
  return createHash('sha256').update(dataDir).digest('hex').slice(0, 4);
}

/** The claim of a session subnet (`10.200.0.0/16`: `subnet-10-200-0-0-16`). */
export function subnetClaim(subnet: string): string {
  return `subnet-${subnet.replace(/[./]/g, '-')}`;
}

/** The subnet a claim names. */
export function subnetOfClaim(name: string): string {
  const parts = name.slice('subnet-'.length).split('-');
  return `${parts.slice(0, 4).join('.')}/${parts[4]}`;
}

/**
 * The tag of a data directory's policy objects (its table `xb_<tag>`, namespaces `xb-<tag>-<slot>`,
 * links `xb<tag>h<slot>`), taken under the host's lock: 4 hex digits of its path, or of its path
 * and a number when another server of the host holds those (they are short, for interface names).
 */
export function pickTag(claims: HostClaims, dataDir: string, logger: Logger): string {
  for (let attempt = 0; attempt < 64; attempt++) {
    const tag = networkTag(attempt === 0 ? dataDir : `${dataDir}#${attempt}`);
    const holder = claims.heldByOther(`net-${tag}`);
    if (holder) {
      logger.info(
        { tag, holder },
        `network names xb_${tag} are held by ${describeHolder(holder)}: taking others`,
      );
      continue;
    }
    claims.take(`net-${tag}`);
    return tag;
  }
  throw new Error('no free network tag on this host: 64 are held by other servers');
}

/** The names of the network namespaces a server of `tag` made (`xb-<tag>-<slot>`). */
export function namespacesOf(tag: string): string[] {
  const names = existsSync(NETNS_DIR) ? readdirSync(NETNS_DIR) : [];
  return names.filter((name) => name.startsWith(`xb-${tag}-`));
}
