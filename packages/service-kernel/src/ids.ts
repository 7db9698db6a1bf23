/** The alphabet of generated ids: url-safe, as the contract's id pattern allows. */
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** Makes ids such as `br_x7Hq2K9mN4pL`: a prefix naming the kind, then 12 random characters. */
export type IdGenerator = (prefix: string) => string;

/** A small, fast seeded generator (mulberry32): the same seed gives the same ids. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** How many characters name a node in the ids it makes (see `nodeTagOf`). */
export const NODE_TAG_LENGTH = 4;

/** Whether `tag` can name a node in ids: exactly `NODE_TAG_LENGTH` characters of the alphabet. */
export function isNodeTag(tag: string): boolean {
  return tag.length === NODE_TAG_LENGTH && [...tag].every((char) => ALPHABET.includes(char));
}

/**
 * The node that made an id, when a node of a cluster made it: its ids are the prefix, then the
 * node's tag, then 12 random characters (`br_n7Kqx7Hq2K9mN4pL`). Undefined for an id of one
 * server alone (12 random characters) or anything else.
 */
export function nodeTagOf(id: string): string | undefined {
  const underscore = id.indexOf('_');
  if (underscore < 1) return undefined;
  const suffix = id.slice(underscore + 1);
  if (suffix.length !== NODE_TAG_LENGTH + 12) return undefined;
  return [...suffix].every((char) => ALPHABET.includes(char))
    ? suffix.slice(0, NODE_TAG_LENGTH)
    : undefined;
}

/**
 * Creates an id generator. With a seed the ids repeat from run to run (for snapshots); without one
 * they come from the platform's cryptographic generator, unguessable as the contract asks. With a
 * node's `tag`, every id carries it (see `nodeTagOf`): any node of a cluster knows from an id
 * alone which node holds what it names.
 */
export function createIdGenerator(seed?: number, tag?: string): IdGenerator {
  if (tag !== undefined && !isNodeTag(tag)) throw new TypeError(`Not a node tag: ${tag}`);
  const random = seed === undefined ? undefined : seededRandom(seed);
  const lead = tag ?? '';
  return (prefix) => {
    let suffix = '';
    if (random) {
      for (let index = 0; index < 12; index++) suffix += ALPHABET[Math.floor(random() * 62)];
    } else {
      const bytes = crypto.getRandomValues(new Uint8Array(12));
      for (const byte of bytes) suffix += ALPHABET[byte % 62];
    }
    return `${prefix}_${lead}${suffix}`;
  };
}
