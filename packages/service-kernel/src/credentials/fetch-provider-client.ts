import type { ProviderAnswer, ProviderClient } from './provider-client.js';

/** Longest wait for a provider's answer, in milliseconds. */
export const PROVIDER_TIMEOUT_MS = 15_000;

/** Most bytes of a provider's answer read. */
export const MAX_PROVIDER_ANSWER_BYTES = 8 * 1024 * 1024;

/** Reads a response's body up to `max` bytes and parses it as JSON (undefined when it is not). */
export async function providerAnswerOf(
  status: number,
  chunks: AsyncIterable<Uint8Array>,
  max = MAX_PROVIDER_ANSWER_BYTES,
): Promise<ProviderAnswer> {
  const parts: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of chunks) {
    size += chunk.byteLength;
    if (size > max) throw new Error(`the answer is larger than ${max} bytes`);
    parts.push(chunk);
  }
  const body = Buffer.concat(parts).toString('utf8');
  try {
    return { status, json: JSON.parse(body) as unknown };
  } catch {
    return { status, json: undefined };
  }
}

/**
 * A provider client on `fetch`, with no egress policy of its own: for services that have none
 * (the fake, tests). The server pins each address to what its egress policy allows instead.
 */
export class FetchProviderClient implements ProviderClient {
  constructor(readonly defaultUrl?: string) {}

  async get(url: string, token: string): Promise<ProviderAnswer> {
    const response = await fetch(url, {
      headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
      redirect: 'error',
      signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS),
    });
    // Node's web streams are async iterables.
    const body = (response.body ?? emptyBody()) as AsyncIterable<Uint8Array>;
    return providerAnswerOf(response.status, body);
  }
}

async function* emptyBody(): AsyncIterable<Uint8Array> {}
