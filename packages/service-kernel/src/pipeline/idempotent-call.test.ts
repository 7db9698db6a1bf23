import { HEADERS } from '@x/types';
import { describe, expect, it } from 'vitest';
import { ServiceError } from '../service-error.js';
import { MemoryIdempotencyStore } from './idempotency.js';
import { answerOnce, type IdempotentCall } from './idempotent-call.js';

/** A call that counts how often its work runs, answering what `answers` says in turn. */
function countingCall(
  options: { key?: string; token?: string; fingerprint?: string; method?: string },
  answers: (() => Response)[],
): IdempotentCall & { runs: () => number } {
  let runs = 0;
  const headers: Record<string, string> =
    options.key === undefined ? {} : { [HEADERS.idempotencyKey]: options.key };
  return {
    request: new Request('http://x.test/browsers', { method: options.method ?? 'POST', headers }),
    pathname: '/browsers',
    token: options.token ?? 'full',
    fingerprint: options.fingerprint ?? 'f1',
    run: async () => {
      const answer = answers[Math.min(runs, answers.length - 1)];
      runs += 1;
      if (!answer) throw new Error('no answer scripted');
      return answer();
    },
    runs: () => runs,
  };
}

const created = () => new Response('{"id":"b1"}', { status: 201 });
const store = () => new MemoryIdempotencyStore(() => new Date());

describe('answerOnce', () => {
  it('runs a call without a key every time', async () => {
    const idempotency = store();
    const call = countingCall({}, [created]);
    await answerOnce(idempotency, call);
    await answerOnce(idempotency, call);
    expect(call.runs()).toBe(2);
  });

  it('runs a keyed call once and replays its answer, marked as a replay', async () => {
    const idempotency = store();
    const call = countingCall({ key: 'k1' }, [created]);
    const first = await answerOnce(idempotency, call);
    const again = await answerOnce(idempotency, call);
    expect(call.runs()).toBe(1);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await again.text()).toBe('{"id":"b1"}');
  });

  it('makes a repeat in flight wait for the first answer instead of working twice', async () => {
    const idempotency = store();
    let finish!: () => void;
    const gate = new Promise<void>((resolve) => {
      finish = resolve;
    });
    let runs = 0;
    const call: IdempotentCall = {
      ...countingCall({ key: 'k1' }, [created]),
      run: async () => {
        runs += 1;
        await gate;
        return created();
      },
    };
    const both = Promise.all([answerOnce(idempotency, call), answerOnce(idempotency, call)]);
    finish();
    const [first, second] = await both;
    expect(runs).toBe(1);
    expect(first.status).toBe(201);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
  });

  it('refuses a key reused with another body (422)', async () => {
    const idempotency = store();
    await answerOnce(idempotency, countingCall({ key: 'k1', fingerprint: 'a' }, [created]));
    await expect(
      answerOnce(idempotency, countingCall({ key: 'k1', fingerprint: 'b' }, [created])),
    ).rejects.toMatchObject({ status: 422, code: 'idempotency_key_reused' });
  });

  it('scopes keys by token: another caller with the same key does its own work', async () => {
    const idempotency = store();
    const mine = countingCall({ key: 'k1', token: 'a' }, [created]);
    const theirs = countingCall({ key: 'k1', token: 'b' }, [created]);
    await answerOnce(idempotency, mine);
    await answerOnce(idempotency, theirs);
    expect(theirs.runs()).toBe(1);
  });

  it('keeps a 4xx error, but not a 429, 5xx or a failure, so a retry does the work', async () => {
    const idempotency = store();
    const conflict = countingCall({ key: 'c' }, [
      () => {
        throw new ServiceError('conflict', 'Busy.');
      },
    ]);
    await expect(answerOnce(idempotency, conflict)).rejects.toMatchObject({ status: 409 });
    const replayed = await answerOnce(idempotency, conflict);
    expect(replayed.status).toBe(409);
    expect(conflict.runs()).toBe(1);

    const busy = countingCall({ key: 'r' }, [() => new Response(null, { status: 429 }), created]);
    expect((await answerOnce(idempotency, busy)).status).toBe(429);
    expect((await answerOnce(idempotency, busy)).status).toBe(201);
    expect(busy.runs()).toBe(2);

    const crash = countingCall({ key: 'x' }, [
      () => {
        throw new Error('disk');
      },
      created,
    ]);
    await expect(answerOnce(idempotency, crash)).rejects.toThrow('disk');
    expect((await answerOnce(idempotency, crash)).status).toBe(201);
  });

  it('refuses a key that is empty or too long, and ignores keys on other methods', async () => {
    await expect(
      answerOnce(store(), countingCall({ key: 'x'.repeat(300) }, [created])),
    ).rejects.toMatchObject({ status: 400 });
    const get = countingCall({ key: 'k', method: 'GET' }, [created]);
    await answerOnce(store(), get);
    await answerOnce(store(), get);
    expect(get.runs()).toBe(2);
  });
});

describe('MemoryIdempotencyStore bounds', () => {
  it('forgets keys past 24 hours as new ones come', async () => {
    let now = 0;
    const idempotency = new MemoryIdempotencyStore(() => new Date(now));
    await answerOnce(idempotency, countingCall({ key: 'old' }, [created]));
    now += 24 * 60 * 60 * 1000;
    await answerOnce(idempotency, countingCall({ key: 'new' }, [created]));
    expect(idempotency.size).toBe(1);
  });

  it('keeps at most its cap, the oldest going first', async () => {
    const idempotency = new MemoryIdempotencyStore(() => new Date(), { maxAnswers: 3 });
    for (const key of ['a', 'b', 'c', 'd', 'e'])
      await answerOnce(idempotency, countingCall({ key }, [created]));
    expect(idempotency.size).toBe(3);
    const first = countingCall({ key: 'a' }, [created]);
    await answerOnce(idempotency, first);
    expect(first.runs()).toBe(1); // Forgotten: the work is done again.
    const last = countingCall({ key: 'e' }, [created]);
    await answerOnce(idempotency, last);
    expect(last.runs()).toBe(0); // Kept: replayed.
  });
});
