import { afterEach, describe, expect, it, vi } from 'vitest';
import { REFUSAL_AUDIT_INTERVAL_MS, RefusalAudit } from './refusal-audit.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('RefusalAudit', () => {
  it('writes a key’s first refusal at once, and the rest of its minute as one counted entry', async () => {
    vi.useFakeTimers();
    const written: [string, number][] = [];
    const audit = new RefusalAudit<string>(
      async (entry, count) => {
        written.push([entry, count]);
      },
      () => Date.now(),
      (error) => {
        throw error;
      },
    );
    await audit.refused('key_a', 'a1');
    for (let i = 2; i <= 50; i++) await audit.refused('key_a', `a${i}`);
    await audit.refused('key_b', 'b1');
    expect(written).toEqual([
      ['a1', 1],
      ['b1', 1],
    ]);
    await vi.advanceTimersByTimeAsync(REFUSAL_AUDIT_INTERVAL_MS);
    // The 49 that followed within the minute: one entry, the last of them, with their count.
    expect(written).toEqual([
      ['a1', 1],
      ['b1', 1],
      ['a50', 49],
    ]);
    // Within a minute of that entry, the next refusal waits for the minute too.
    await audit.refused('key_a', 'a51');
    expect(written).toHaveLength(3);
    await vi.advanceTimersByTimeAsync(REFUSAL_AUDIT_INTERVAL_MS);
    expect(written.at(-1)).toEqual(['a51', 1]);
    // A quiet minute later, a refusal is written at once again.
    await vi.advanceTimersByTimeAsync(REFUSAL_AUDIT_INTERVAL_MS);
    await audit.refused('key_a', 'a52');
    expect(written.at(-1)).toEqual(['a52', 1]);
  });

  it('writes what is counted when the service closes', async () => {
    const written: [string, number][] = [];
    const audit = new RefusalAudit<string>(
      async (entry, count) => {
        written.push([entry, count]);
      },
      () => Date.now(),
      () => undefined,
    );
    await audit.refused('key', 'one');
    await audit.refused('key', 'two');
    await audit.refused('key', 'three');
    await audit.flush();
    expect(written).toEqual([
      ['one', 1],
      ['three', 2],
    ]);
  });
});
