import { TEST_TOKEN } from './servers.js';

/** One frame of a server-sent event stream: its `id:` and `event:` lines, and its data joined. */
export interface EventFrame {
  readonly id: string | undefined;
  readonly event: string | undefined;
  readonly data: string;
}

/**
 * Opens a server-sent event stream at `url` as the test token (with `headers`, such as
 * Last-Event-ID): its status and headers, and its frames as they come, each within `waitMs`
 * (past that the stream is aborted). Frames without data (keepalive comments) are skipped.
 */
export async function openEventStream(
  url: string,
  headers: Record<string, string> = {},
  waitMs = 20_000,
) {
  const controller = new AbortController();
  const response = await fetch(url, {
    headers: { authorization: `Bearer ${TEST_TOKEN}`, ...headers },
    signal: controller.signal,
  });
  const reader = response.body?.getReader();
  const decoder = new TextDecoder();
  let buffered = '';
  return {
    status: response.status,
    headers: response.headers,
    async next(): Promise<EventFrame | undefined> {
      for (;;) {
        const end = buffered.indexOf('\n\n');
        if (end >= 0) {
          const lines = buffered.slice(0, end).split('\n');
          buffered = buffered.slice(end + 2);
          const field = (name: string) =>
            lines
              .filter((line) => line.startsWith(`${name}:`))
              .map((line) => line.slice(name.length + 1).trimStart());
          const data = field('data');
          if (data.length === 0) continue;
          return { id: field('id')[0], event: field('event')[0], data: data.join('\n') };
        }
        if (!reader) return undefined;
        const timer = setTimeout(() => controller.abort(), waitMs);
        try {
          const { value, done } = await reader.read();
          if (done) return undefined;
          buffered += decoder.decode(value, { stream: true });
        } finally {
          clearTimeout(timer);
        }
      }
    },
    close: () => controller.abort(),
  };
}
