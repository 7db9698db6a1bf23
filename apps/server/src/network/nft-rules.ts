import { formatIpv4, formatNetworkEntry, type NetworkEntry } from '@x/types';

/**
 * The nftables rules of the egress policy, as text for `nft -f -`. Kept apart from the commands
 * that apply them so each can be read (and tested) as the kernel gets it.
 */

/**
 * Destinations no session reaches unless the operator opens them: "this network", private
 * (RFC 1918), shared address space (CGNAT), loopback, link-local (the cloud metadata address
 * among them), multicast, and the reserved block with the broadcast address. Every address of the
 * host itself is refused besides, by the input hook, whatever its range.
 */
export const BLOCKED_NETWORKS = [
  '0.0.0.0/8',
  '10.0.0.0/8',
  '100.64.0.0/10',
  '127.0.0.0/8',
  '169.254.0.0/16',
  '172.16.0.0/12',
  '192.168.0.0/16',
  '224.0.0.0/4',
  '240.0.0.0/4',
] as const;

/** The addresses of the sessions' block, as the rules name them. */
export interface PolicyLayout {
  /** The nftables table (family inet), one per data directory. */
  readonly table: string;
  /** The prefix of every host-side interface of this server's sessions (`xb1a2bh`). */
  readonly interfacePrefix: string;
  /** The /16 the sessions' links are cut from, `10.231.0.0/16`. */
  readonly subnet: string;
  /**
   * The address a session sends to for the host's loopback (only to destinations it is allowed):
   * off every session's link, so it goes through the gateway, where it becomes 127.0.0.1.
   */
  readonly hostLoopback: string;
  /**
   * Whether the host forwarded nothing before the policy turned forwarding on: the table then
   * drops every forwarded packet that is not a session's, so the host routes nothing else. A
   * session of another server on the host (one of a cluster's nodes, or a server killed whose
   * table is left until its next start) is that server's table's to judge: each table lets the
   * others' pass, as a packet any table drops is dropped.
   */
  readonly dropOtherForwarding: boolean;
}

const REJECT = 'reject with icmpx type admin-prohibited';

/**
 * The kernel's answer to a connection to a loopback port nothing listens on: a reset from
 * 127.0.0.0/8 whose sequence number is 0 (a reset that ends a connection carries its own).
 * Inside a session's namespace that is the only trace of a page that asked for `localhost:3000`
 * meaning the host's: its loopback is its own, and nothing passes the policy to be refused there.
 */
export const OWN_LOOPBACK_REFUSAL =
  'ip saddr 127.0.0.0/8 tcp flags & (syn | rst) == rst tcp sequence 0';

/** Remembers the port a loopback reset came from as a refused destination, and counts it. */
const SEEN_OWN_LOOPBACK = (seen: string) =>
  `${OWN_LOOPBACK_REFUSAL} update @${seen} { ip saddr . meta l4proto . th sport } counter name blocked`;

/** The host-side interfaces of every server's sessions on this host (`xb<table>h<n>`). */
const ANY_SERVERS_SESSIONS = '"xb*"';

/** The table, its hooks and shared sets; the sessions' chains are added one by one. */
export function tableRules(layout: PolicyLayout): string {
  const { table, interfacePrefix: prefix, subnet, hostLoopback } = layout;
  const sessions = `"${prefix}*"`;
  return `table inet ${table} {
  counter blocked { }
  set blocked_networks {
    type ipv4_addr; flags interval;
    elements = { ${BLOCKED_NETWORKS.join(', ')} }
  }
  map forward_by_session { type ifname : verdict; }
  map input_by_session { type ifname : verdict; }
  map loopback_by_session { type ifname : verdict; }
  chain forward {
    type filter hook forward priority filter; policy accept;
    iifname vmap @forward_by_session
    iifname ${sessions} counter name blocked ${REJECT}
    oifname ${sessions} ct state established,related accept
    oifname ${sessions} drop
${layout.dropOtherForwarding ? `    iifname != ${ANY_SERVERS_SESSIONS} oifname != ${ANY_SERVERS_SESSIONS} drop\n` : ''}  }
  chain input {
    type filter hook input priority filter; policy accept;
    iifname vmap @input_by_session
    iifname ${sessions} counter name blocked ${REJECT}
  }
  chain own_loopback {
    type filter hook prerouting priority raw; policy accept;
    iifname vmap @loopback_by_session
  }
  chain prerouting {
    type nat hook prerouting priority dstnat; policy accept;
    iifname ${sessions} ip daddr ${hostLoopback} dnat ip to 127.0.0.1
  }
  chain postrouting {
    type nat hook postrouting priority srcnat; policy accept;
    ip saddr ${subnet} oifname != ${sessions} masquerade
  }
}
`;
}

/** One session's link: its slot, its interface on the host, its gateway and its own address. */
export interface SessionLink {
  readonly slot: number;
  readonly hostInterface: string;
  readonly gateway: string;
  readonly address: string;
}

/** Names of a session's chains and sets. */
export function sessionChains(slot: number) {
  return {
    forward: `s${slot}_forward`,
    input: `s${slot}_input`,
    blocked: `s${slot}_blocked`,
    seen: `s${slot}_seen`,
    ports: `s${slot}_ports`,
    loopback: `s${slot}_loopback`,
  };
}

/** Most refused destinations remembered per session for the log. */
export const SEEN_DESTINATIONS = 256;

/** The match of an entry's destinations: a network (any port), or an address and port. */
function destinationOf(entry: NetworkEntry): string {
  return entry.port === undefined
    ? `ip daddr ${formatNetworkEntry({ address: entry.address, prefix: entry.prefix })}`
    : `ip daddr ${formatIpv4(entry.address)} meta l4proto { tcp, udp } th dport ${entry.port}`;
}

/** `accept` rules for what a session is allowed. */
function allowRules(allow: readonly NetworkEntry[]): string[] {
  return allow.map((entry) => `${destinationOf(entry)} accept`);
}

/**
 * A session's chains, hooked by its interface: to other hosts (forward) it reaches what is
 * allowed, never another session, never a blocked network, anything public; to the host itself
 * (input) its DNS relay, the ports the server opens for it (its proxy relay), and what is
 * allowed there (the host's loopback, mapped from `hostLoopback`); nothing else. A refused
 * packet is answered at once (admin-prohibited), counted, and its destination remembered. Loading
 * them replaces whatever the slot's chains held.
 */
export function sessionRules(
  layout: PolicyLayout,
  link: SessionLink,
  allow: readonly NetworkEntry[],
): string {
  const { table, subnet } = layout;
  const chains = sessionChains(link.slot);
  const allowed = allowRules(allow).map((rule) => `    ${rule}`);
  // The slot's chains and sets are declared empty, then emptied, before they are filled: rules a
  // failed removal left on the slot are never a new session's (in one transaction: no packet
  // meets them half made).
  return `table inet ${table} {
  set ${chains.seen} {
    type ipv4_addr . inet_proto . inet_service; flags dynamic; size ${SEEN_DESTINATIONS};
  }
  set ${chains.ports} { type inet_service; }
  chain ${chains.blocked} { }
  chain ${chains.forward} { }
  chain ${chains.input} { }
  chain ${chains.loopback} { }
}
flush set inet ${table} ${chains.seen}
flush set inet ${table} ${chains.ports}
flush chain inet ${table} ${chains.blocked}
flush chain inet ${table} ${chains.forward}
flush chain inet ${table} ${chains.input}
flush chain inet ${table} ${chains.loopback}
table inet ${table} {
  set ${chains.seen} {
    type ipv4_addr . inet_proto . inet_service; flags dynamic; size ${SEEN_DESTINATIONS};
  }
  set ${chains.ports} { type inet_service; }
  chain ${chains.blocked} {
    meta l4proto { tcp, udp } update @${chains.seen} { ip daddr . meta l4proto . th dport }
    counter name blocked ${REJECT}
  }
  chain ${chains.forward} {
    ip daddr ${subnet} jump ${chains.blocked}
${allowed.join('\n')}
    ip daddr @blocked_networks jump ${chains.blocked}
    accept
  }
  chain ${chains.input} {
    ip daddr ${link.gateway} meta l4proto { tcp, udp } th dport 53 accept
    ip daddr ${link.gateway} tcp dport @${chains.ports} accept
${allowed.join('\n')}
    jump ${chains.blocked}
  }
  chain ${chains.loopback} {
    ${SEEN_OWN_LOOPBACK(chains.seen)} drop
    ip saddr 127.0.0.0/8 drop
  }
}
add element inet ${table} forward_by_session { "${link.hostInterface}" : jump ${chains.forward} }
add element inet ${table} input_by_session { "${link.hostInterface}" : jump ${chains.input} }
add element inet ${table} loopback_by_session { "${link.hostInterface}" : jump ${chains.loopback} }
`;
}

/** Removes a session's rules (its interface first, so no packet meets a half-removed chain). */
export function removeSessionRules(layout: PolicyLayout, link: SessionLink): string {
  const { table } = layout;
  const chains = sessionChains(link.slot);
  return `delete element inet ${table} forward_by_session { "${link.hostInterface}" }
delete element inet ${table} input_by_session { "${link.hostInterface}" }
delete element inet ${table} loopback_by_session { "${link.hostInterface}" }
delete chain inet ${table} ${chains.forward}
delete chain inet ${table} ${chains.loopback}
delete chain inet ${table} ${chains.input}
delete chain inet ${table} ${chains.blocked}
delete set inet ${table} ${chains.seen}
delete set inet ${table} ${chains.ports}
`;
}

/**
 * The rule inside a session's namespace that tells the host of a refusal on the session's own
 * loopback: a copy of the kernel's reset goes to the gateway, where the session's chain counts
 * it, remembers the port and drops it. (Its sender is the namespace's loopback: the namespace
 * asks for the gateway's link address in the name of its own, `arp_announce`.)
 */
export function ownLoopbackRules(link: SessionLink): string {
  return `table ip xb_refusals {
  chain output {
    type filter hook output priority filter; policy accept;
    oifname "lo" ${OWN_LOOPBACK_REFUSAL} dup to ${link.gateway} device "eth0"
  }
}
`;
}

/**
 * The rules inside a session's namespace that send its allowed loopback destinations to the
 * host's loopback (through the gateway); every other loopback address stays its own. Only made
 * when the session is allowed some of 127.0.0.0/8.
 */
export function loopbackRules(
  link: SessionLink,
  hostLoopback: string,
  loopback: readonly NetworkEntry[],
): string {
  return `table ip xb_loopback {
  chain output {
    type nat hook output priority -100; policy accept;
${loopback.map((entry) => `    ${destinationOf(entry)} dnat to ${hostLoopback}`).join('\n')}
  }
  chain postrouting {
    type nat hook postrouting priority srcnat; policy accept;
    oifname "eth0" ip saddr 127.0.0.0/8 snat to ${link.address}
  }
}
`;
}

/** Where a user-mode session network's parts sit, as the rules inside it name them. */
export interface UserModeLayout {
  /** The /24 of its link to the user-mode stack (`10.0.2.0/24`). */
  readonly cidr: string;
  /** The stack's DNS forwarder (`.3` of the /24). */
  readonly dns: string;
  /** The stack's door to the host's loopback (`.2` of the /24): reached only as the rules map. */
  readonly hostLoopback: string;
  /** Every address of the host, refused like the private networks unless allowed. */
  readonly hostAddresses: readonly string[];
}

/** The one table inside a user-mode session network (its own namespace, so one name suffices). */
export const USER_MODE_TABLE = 'xb_egress';

/**
 * The rules of a session whose network is a user-mode stack (an unprivileged server): they sit
 * inside its own namespace, in the output hook, as nothing reaches the host but through the stack
 * and the stack's connections leave as the server's. Its own loopback stays its own; its DNS goes
 * to the stack's forwarder; the host's loopback only as `loopbackRules` maps an allowed
 * destination, or to a port the server opens for it; the stack's other addresses never; then what
 * is allowed, never the host's addresses or a blocked network, anything public. IPv6 is refused
 * (the stack carries IPv4 only). The session has no capability in the namespace's user namespace,
 * so it cannot change them.
 */
export function userModeRules(layout: UserModeLayout, allow: readonly NetworkEntry[]): string {
  const { cidr, dns, hostLoopback, hostAddresses } = layout;
  const allowed = allowRules(allow).map((rule) => `    ${rule}`);
  const hosts = hostAddresses.length > 0 ? `elements = { ${hostAddresses.join(', ')} }` : '';
  return `table inet ${USER_MODE_TABLE} {
  counter blocked { }
  set seen {
    type ipv4_addr . inet_proto . inet_service; flags dynamic; size ${SEEN_DESTINATIONS};
  }
  set ports { type inet_service; }
  set blocked_networks {
    type ipv4_addr; flags interval;
    elements = { ${BLOCKED_NETWORKS.join(', ')} }
  }
  set host_addresses { type ipv4_addr; ${hosts} }
  chain blocked {
    meta l4proto { tcp, udp } update @seen { ip daddr . meta l4proto . th dport }
    counter name blocked ${REJECT}
  }
  chain output {
    type filter hook output priority filter; policy accept;
    oifname "lo" ${SEEN_OWN_LOOPBACK('seen')}
    oifname "lo" accept
    meta nfproto ipv6 jump blocked
    ip daddr ${dns} meta l4proto { tcp, udp } th dport 53 accept
    ip daddr ${hostLoopback} ct status dnat accept
    ip daddr ${hostLoopback} tcp dport @ports accept
    ip daddr ${cidr} jump blocked
${allowed.join('\n')}
    ip daddr @host_addresses jump blocked
    ip daddr @blocked_networks jump blocked
    accept
  }
}
`;
}
