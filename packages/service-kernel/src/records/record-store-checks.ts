import { deepStrictEqual, ok, rejects, strictEqual } from 'node:assert/strict';
import type { BrowserSession, Invocation, Profile } from '@x/types';
import { NameTaken, type RecordStore, type RecordStores } from './record-store.js';

/** One check every record store passes, whatever keeps the records. */
export interface RecordStoreCheck {
  readonly name: string;
  /**
   * Runs against an empty store (`store` is its scope `default`); throws (node:assert) when the
   * store breaks the contract.
   */
  run(store: RecordStore, stores: RecordStores): Promise<void>;
}

const profile = (id: string, name?: string): Profile => ({
  id,
  created_at: '2026-11-24T10:00:00.000Z',
  ...(name === undefined ? {} : { name }),
});

const invocation = (id: string, status: Invocation['status'] = 'running'): Invocation => ({
  id,
  action_name: 'a',
  app_name: 'app',
  version: '1',
  status,
  started_at: '2026-11-24T10:00:00.000Z',
});

const session = (id: string): BrowserSession =>
  ({
    session_id: id,
    created_at: '2026-11-24T10:00:00.000Z',
    cdp_ws_url: `ws://x/${id}`,
    headless: true,
    stealth: false,
    timeout_seconds: 60,
  }) as BrowserSession;

/**
 * What the service model relies on from its store, as checks any engine runs (the memory store,
 * SQLite, PostgreSQL): records kept in the order first put, keys kept unless given, names unique
 * per kind whatever races, transactions all or nothing and alone.
 */
export const RECORD_STORE_CHECKS: readonly RecordStoreCheck[] = [
  {
    name: 'keeps records in the order first put, a replaced one in its place, keys unless given',
    async run(store) {
      const { browsers } = store;
      await browsers.put('b1', session('b1'), { parent: 'inv1', isOpen: true });
      await browsers.put('b2', session('b2'), { isOpen: true });
      await browsers.put('b3', session('b3'), { parent: 'inv1', isOpen: false });
      await browsers.put('b1', { ...session('b1'), deleted_at: '2026-11-24T11:00:00.000Z' });
      deepStrictEqual(
        (await browsers.list()).map((record) => record.session_id),
        ['b1', 'b2', 'b3'],
      );
      strictEqual((await browsers.get('b1'))?.deleted_at, '2026-11-24T11:00:00.000Z');
      strictEqual(await browsers.parentOf('b1'), 'inv1');
      deepStrictEqual(
        (await browsers.list({ isOpen: true })).map((record) => record.session_id),
        ['b1', 'b2'],
      );
      await browsers.put('b1', (await browsers.get('b1')) as BrowserSession, { isOpen: false });
      deepStrictEqual(
        (await browsers.list({ parent: 'inv1', isOpen: false })).map((r) => r.session_id),
        ['b1', 'b3'],
      );
      strictEqual(await browsers.get('b1', 'inv2'), undefined);
      ok(await browsers.get('b1', 'inv1'));
      await browsers.delete('b2');
      strictEqual(await browsers.get('b2'), undefined);
      strictEqual(await browsers.parentOf('nope'), undefined);
      // Kinds do not see each other's records.
      deepStrictEqual(await store.invocations.list(), []);
    },
  },
  {
    name: 'holds a name once per kind, frees it on rename or delete, and says which was taken',
    async run(store) {
      const { profiles, invocations } = store;
      await profiles.put('p1', profile('p1', 'shop'), { name: 'shop' });
      await rejects(profiles.put('p2', profile('p2', 'shop'), { name: 'shop' }), (error) => {
        ok(error instanceof NameTaken);
        strictEqual(error.taken, 'shop');
        return true;
      });
      strictEqual(await profiles.get('p2'), undefined);
      // The same record keeps its name; records without a name never clash.
      await profiles.put('p1', profile('p1', 'shop'), { name: 'shop' });
      await profiles.put('p3', profile('p3'));
      await profiles.put('p4', profile('p4'));
      // A name is per kind.
      await invocations.put('i1', invocation('i1'), { name: 'shop' });
      await profiles.put('p1', profile('p1', 'store'), { name: 'store' });
      await profiles.put('p2', profile('p2', 'shop'), { name: 'shop' });
      strictEqual((await profiles.byName('shop'))?.id, 'p2');
      await profiles.delete('p2');
      await profiles.put('p5', profile('p5', 'shop'), { name: 'shop' });
      strictEqual((await profiles.byName('shop'))?.id, 'p5');
    },
  },
  {
    name: 'lets one of many calls racing for a name have it',
    async run(store) {
      const results = await Promise.allSettled(
        Array.from({ length: 40 }, (_, index) =>
          store.profiles.put(`p${index}`, profile(`p${index}`, 'raced'), { name: 'raced' }),
        ),
      );
      strictEqual(results.filter((result) => result.status === 'fulfilled').length, 1);
      ok(
        results.every(
          (result) => result.status === 'fulfilled' || result.reason instanceof NameTaken,
        ),
      );
      strictEqual((await store.profiles.list()).length, 1);
    },
  },
  {
    name: 'lands a transaction whole, or not at all when its work throws',
    async run(store) {
      await store.transaction(async ({ invocations, browsers }) => {
        await invocations.put('i1', invocation('i1'));
        await browsers.put('b1', session('b1'), { parent: 'i1', isOpen: true });
      });
      ok(await store.invocations.get('i1'));
      ok(await store.browsers.get('b1'));
      await rejects(
        store.transaction(async ({ invocations, browsers }) => {
          await invocations.put('i1', invocation('i1', 'succeeded'));
          await browsers.delete('b1');
          await invocations.put('i2', invocation('i2'));
          throw new Error('changed my mind');
        }),
        /changed my mind/,
      );
      strictEqual((await store.invocations.get('i1'))?.status, 'running');
      ok(await store.browsers.get('b1'));
      strictEqual(await store.invocations.get('i2'), undefined);
      // A name refused inside a transaction undoes the rest of it.
      await store.profiles.put('p1', profile('p1', 'held'), { name: 'held' });
      await rejects(
        store.transaction(async ({ profiles, invocations }) => {
          await invocations.put('i3', invocation('i3'));
          await profiles.put('p2', profile('p2', 'held'), { name: 'held' });
        }),
        NameTaken,
      );
      strictEqual(await store.invocations.get('i3'), undefined);
    },
  },
  {
    name: 'runs a check-then-write transaction alone: of two at once, the second sees the first',
    async run(store) {
      await store.invocations.put('i1', invocation('i1'));
      const end = () =>
        store.transaction(async ({ invocations }) => {
          const found = await invocations.get('i1');
          if (found?.status !== 'running') throw new Error('ended already');
          // Give the other call every chance to run in between.
          await new Promise((resolve) => setTimeout(resolve, 20));
          await invocations.put('i1', { ...found, status: 'succeeded' });
        });
      const outcomes = await Promise.allSettled([end(), end()]);
      deepStrictEqual(outcomes.map((outcome) => outcome.status).sort(), ['fulfilled', 'rejected']);
      strictEqual((await store.invocations.get('i1'))?.status, 'succeeded');
    },
  },
  {
    name: 'keeps scopes apart: a record of one is not found from another, names repeat across them',
    async run(store, stores) {
      const other = stores.scope('proj_other');
      await store.profiles.put('p1', profile('p1', 'shop'), { name: 'shop' });
      await other.profiles.put('p2', profile('p2', 'shop'), { name: 'shop' });
      strictEqual(await other.profiles.get('p1'), undefined);
      strictEqual((await other.profiles.byName('shop'))?.id, 'p2');
      strictEqual((await store.profiles.byName('shop'))?.id, 'p1');
      deepStrictEqual(
        (await other.profiles.list()).map((found) => found.id),
        ['p2'],
      );
      // A write naming another scope's id changes nothing there, and a delete from here nothing.
      await other.profiles.delete('p1');
      strictEqual((await store.profiles.get('p1'))?.id, 'p1');
      await other.browsers.put('b1', session('b1'), { isOpen: true });
      deepStrictEqual(await store.browsers.list({ isOpen: true }), []);
      const inTransaction = await other.transaction(async ({ profiles }) => profiles.list());
      deepStrictEqual(
        inTransaction.map((found) => found.id),
        ['p2'],
      );
    },
  },
];
