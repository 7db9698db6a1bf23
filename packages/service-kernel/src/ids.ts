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

/**
 * Creates an id generator. With a seed the ids repeat from run to run (for snapshots); without one
 * they come from the platform's cryptographic generator, unguessable as the contract asks.
 */
export function createIdGenerator(seed?: number): IdGenerator {
  const random = seed === undefined ? undefined : seededRandom(seed);
  return (prefix) => {
    let suffix = '';
    if (random) {
      for (let index = 0; index < 12; index++) suffix += ALPHABET[Math.floor(random() * 62)];
    } else {
      const bytes = crypto.getRandomValues(new Uint8Array(12));
      for (const byte of bytes) suffix += ALPHABET[byte % 62];
    }
    return `${prefix}_${suffix}`;
  };
}
