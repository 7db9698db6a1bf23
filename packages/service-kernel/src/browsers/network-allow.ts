import { coversEntry, formatNetworkEntry, type NetworkEntry, parseNetworkEntry } from '@x/types';
import { ServiceError } from '../service-error.js';

/**
 * What the operator opens for every session beyond the public internet: entries, or `'open'` for
 * a server whose sessions keep the host's whole network (`XB_ALLOW_NETWORKS=*`).
 */
export type OperatorNetworks = readonly NetworkEntry[] | 'open';

/**
 * Parses the operator's list (`XB_ALLOW_NETWORKS`, comma-separated); throws an Error naming the
 * first bad entry. `*` alone opens everything.
 */
export function parseOperatorNetworks(text: string): OperatorNetworks {
  const entries = text
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (entries.includes('*')) {
    if (entries.length > 1)
      throw new Error(`XB_ALLOW_NETWORKS: "*" opens every network and stands alone, got "${text}"`);
    return 'open';
  }
  return entries.map((entry) => {
    const parsed = parseNetworkEntry(entry);
    if (typeof parsed === 'string') throw new Error(`XB_ALLOW_NETWORKS: "${entry}" ${parsed}`);
    return parsed;
  });
}

/** The operator's list as one line, for the start-up log and `--help`. */
export function describeOperatorNetworks(networks: OperatorNetworks): string {
  if (networks === 'open') return 'every network (XB_ALLOW_NETWORKS=*): no egress policy';
  if (networks.length === 0) return 'public destinations only';
  return `public destinations and ${networks.map(formatNetworkEntry).join(', ')}`;
}

/**
 * The entries a browser asks for (`network.allow`, already in canonical form), each checked to be
 * within what the operator allows: one that is not is 400 naming it.
 */
export function checkBrowserNetworks(
  allow: readonly string[],
  operator: OperatorNetworks,
  field: string,
): readonly NetworkEntry[] {
  return allow.map((text, index) => {
    const entry = parseNetworkEntry(text);
    if (typeof entry === 'string') throw badEntry(`${field}[${index}]`, `"${text}" ${entry}`);
    if (operator !== 'open' && !operator.some((open) => coversEntry(open, entry)))
      throw badEntry(
        `${field}[${index}]`,
        `"${text}" is not within what this server allows (${
          operator.length === 0
            ? 'no private destination'
            : operator.map(formatNetworkEntry).join(', ')
        })`,
      );
    return entry;
  });
}

function badEntry(path: string, message: string): ServiceError {
  return new ServiceError('bad_request', `${path}: ${message}.`, {
    details: [{ code: 'invalid_input', message: `${path}: ${message}` }],
  });
}

/**
 * What a browser's network may reach: what it asked for (`allow`, each entry within the
 * operator's list, else 400), or, when it asked for nothing, all the operator opened to every
 * session; `unlimited` on a service with no policy that the browser did not narrow.
 */
export function effectiveNetworks(
  allow: readonly string[] | undefined,
  operator: OperatorNetworks,
  field: string,
): readonly NetworkEntry[] | 'unlimited' {
  if (allow !== undefined) return checkBrowserNetworks(allow, operator, field);
  return operator === 'open' ? 'unlimited' : operator;
}
