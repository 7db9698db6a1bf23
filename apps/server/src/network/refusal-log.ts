import { isInNetwork, parseIpv4 } from '@x/types';
import type { Logger } from 'pino';
import { BLOCKED_NETWORKS } from './nft-rules.js';

/** What the server says of the destinations a session was refused: once each, with the rule. */

/** A live session whose refusals the log looks at: its seen set read as nft lists it. */
interface RefusalSource<Key> {
  readonly key: Key;
  readonly sessionId: string;
  read(): Promise<string>;
}

/** How often the log looks for refusals: one read of the counter, the sets only when it moved. */
const REFUSAL_LOOK_MS = 2_000;

/** Most refused destinations said per session; the metric counts every one. */
const MAX_SAID_PER_SESSION = 16;

/** The private ranges a destination may fall in, as the policy refuses them. */
const PRIVATE_RANGES = BLOCKED_NETWORKS.map((cidr) => {
  const [address, prefix] = cidr.split('/') as [string, string];
  return { cidr, address: parseIpv4(address) as number, prefix: Number(prefix) };
});

/** Why a destination (`address:port/protocol`) was refused, and what opens it, for the log. */
export function describeRefusal(
  destination: string,
  sessionsNetwork: string,
): { readonly rule: string; readonly opens?: string } {
  const [address = '', rest = ''] = destination.split(':');
  const [port = ''] = rest.split('/');
  const parsed = parseIpv4(address);
  if (parsed === undefined) return { rule: 'not a public address' };
  const [sessionsBase = '', sessionsPrefix = ''] = sessionsNetwork.split('/');
  if (isInNetwork(parsed, parseIpv4(sessionsBase) ?? 0, Number(sessionsPrefix)))
    return { rule: `the sessions' own network (${sessionsNetwork}): never opened` };
  const opens = `XB_ALLOW_NETWORKS=${address}:${port}`;
  if (isInNetwork(parsed, 0x7f000000, 8))
    return {
      rule: "loopback (127.0.0.0/8): the session's own, not the host's, unless the operator opens it",
      opens,
    };
  const range = PRIVATE_RANGES.find((candidate) =>
    isInNetwork(parsed, candidate.address, candidate.prefix),
  );
  if (range) return { rule: `a private or reserved network (${range.cidr})`, opens };
  return { rule: "one of this host's own addresses", opens };
}

/**
 * The log of refused destinations: each said once per session at info level, with the session,
 * the rule that refused it and the setting that opens it, looked for every `REFUSAL_LOOK_MS`
 * while the counter moves. A page that fails to reach `localhost:3000` tells its operator why.
 */
export class RefusalLog<Key> {
  readonly #logger: Logger;
  readonly #sessionsNetwork: string;
  readonly #said = new Map<Key, Set<string>>();
  #watcher: ReturnType<typeof setInterval> | undefined;
  #lastTotal = 0;

  constructor(logger: Logger, sessionsNetwork: string) {
    this.#logger = logger;
    this.#sessionsNetwork = sessionsNetwork;
  }

  /** Says which destinations a session was refused that were not said yet. */
  async say(key: Key, sessionId: string, read: () => Promise<string>): Promise<void> {
    if (!this.#logger.isLevelEnabled('info')) return;
    const said = this.#said.get(key) ?? new Set<string>();
    this.#said.set(key, said);
    if (said.size >= MAX_SAID_PER_SESSION) return;
    const json = await read().catch(() => '{}'); // the session is gone: nothing more to say
    const fresh = blockedDestinations(json).filter((entry) => !said.has(entry));
    for (const destination of fresh) {
      said.add(destination);
      const { rule, opens } = describeRefusal(destination, this.#sessionsNetwork);
      this.#logger.info(
        { session: sessionId, destination, rule, ...(opens ? { opens } : {}) },
        `egress refused: ${destination}, ${rule}${opens ? `; ${opens} opens it to sessions` : ''}`,
      );
      if (said.size >= MAX_SAID_PER_SESSION) {
        this.#logger.info(
          { session: sessionId },
          `egress refused: more destinations of this session are not logged; xb_egress_blocked_total counts them`,
        );
        return;
      }
    }
  }

  /** Drops what was said of a session that ended. */
  forget(key: Key): void {
    this.#said.delete(key);
  }

  /**
   * Looks at the live sessions `live` gives every `REFUSAL_LOOK_MS`, when `total` (the policy's
   * counter) has moved since the last look.
   */
  watch(live: () => readonly RefusalSource<Key>[], total: () => Promise<number>): void {
    if (!this.#logger.isLevelEnabled('info') || this.#watcher) return;
    let isLooking = false;
    this.#watcher = setInterval(() => {
      // No session, nothing to look at: an idle server spawns no nft.
      const sources = live();
      if (isLooking || sources.length === 0) return;
      isLooking = true;
      void (async () => {
        const now = await total().catch(() => this.#lastTotal);
        if (now === this.#lastTotal) return;
        this.#lastTotal = now;
        for (const source of sources) await this.say(source.key, source.sessionId, source.read);
      })().finally(() => {
        isLooking = false;
      });
    }, REFUSAL_LOOK_MS);
    this.#watcher.unref();
  }

  stop(): void {
    clearInterval(this.#watcher);
  }
}

/** The destinations of a session's seen set, as `address:port/protocol`. */
function blockedDestinations(json: string): string[] {
  const parsed = JSON.parse(json) as { nftables?: { set?: { elem?: unknown[] } }[] };
  const set = parsed.nftables?.find((entry) => entry.set)?.set;
  return (set?.elem ?? []).flatMap((element) => {
    const concat = (element as { concat?: unknown[] }).concat;
    if (!Array.isArray(concat)) return [];
    const [address, protocol, port] = concat;
    return [`${String(address)}:${String(port)}/${String(protocol)}`];
  });
}
