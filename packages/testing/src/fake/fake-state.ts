import type { EventBuffer, PoolView, ServiceModel } from '@x/service-kernel';
import type {
  BrowserProxy,
  BrowserSession,
  Extension,
  Invocation,
  Profile,
  Replay,
  WatchEvent,
} from '@x/types';
import type { FakeInstance } from './browsers/fake-instance.js';
import type { FakeEngines } from './fake-engines.js';
import type { FakeProcess } from './processes/fake-process.js';

/** A directory watch as the fake holds it. */
export interface FakeWatch {
  readonly id: string;
  readonly path: string;
  readonly recursive: boolean;
  /** Its events waiting for the reader, with OVERFLOW for what a slow reader lost. */
  readonly events: EventBuffer<WatchEvent>;
}

/** One browser session, live or deleted, and what lived on its instance. */
export interface FakeBrowser {
  readonly session: BrowserSession;
  /** Everything typed into it, in order. */
  readonly typedText: string;
  /** Paths on the instance (`/home/browser/…`) and whether each is a directory or a file. */
  readonly files: ReadonlyMap<string, 'dir' | 'file'>;
  /** Every process it ran, by id (kept after the browser is deleted, to inspect). */
  readonly processes: ReadonlyMap<string, FakeProcess>;
  /** Its running watches, by id (none once it is deleted). */
  readonly watches: ReadonlyMap<string, FakeWatch>;
  readonly replays: ReadonlyMap<string, Replay>;
}

/** An uploaded extension: its record and its archive. */
export interface FakeExtension {
  readonly record: Extension;
  readonly archive: Uint8Array;
}

/** A pool and the browsers it holds (live: it changes as the pool does). */
export type FakePool = PoolView;

/**
 * Everything the fake holds, to read (`fake.state` builds it when asked). Tests change it through
 * the API and the fake's methods (`seed`, `emitFsEvent`, …), which keep its parts consistent.
 */
export interface FakeState {
  readonly browsers: ReadonlyMap<string, FakeBrowser>;
  readonly pools: ReadonlyMap<string, FakePool>;
  readonly extensions: ReadonlyMap<string, FakeExtension>;
  readonly invocations: ReadonlyMap<string, Invocation>;
  readonly profiles: ReadonlyMap<string, Profile>;
  /** Proxies as the API shows them: no password. */
  readonly proxies: ReadonlyMap<string, BrowserProxy>;
}

/** Reads the fake's state out of its model and engines. */
export function readFakeState(model: ServiceModel<FakeInstance>, engines: FakeEngines): FakeState {
  const browsers = new Map<string, FakeBrowser>();
  for (const session of engines.records.browsers.rows()) {
    const id = session.session_id;
    const instance = engines.browsers.instances.get(id);
    const live = model.browsers.peek(id);
    browsers.set(id, {
      session: live ? model.browsers.record(live) : session,
      typedText: instance?.typedText ?? '',
      files: new Map(
        [...(instance?.files.nodes ?? [])].map(([path, node]) => [path, node.kind] as const),
      ),
      processes: instance?.processes ?? new Map(),
      watches: live?.watches ?? new Map(),
      replays: new Map(
        engines.records.replays.rows({ parent: id }).map((replay) => [replay.replay_id, replay]),
      ),
    });
  }
  const extensions = new Map(
    engines.records.extensions
      .rows()
      .map(({ record, key }) => [
        record.id,
        { record, archive: engines.archives.archives.get(key) ?? new Uint8Array() },
      ]),
  );
  return {
    browsers,
    pools: new Map(model.pools.entries().map((pool) => [pool.id, pool])),
    extensions,
    invocations: new Map(
      engines.records.invocations.rows().map((invocation) => [invocation.id, invocation]),
    ),
    profiles: new Map(engines.records.profiles.rows().map((profile) => [profile.id, profile])),
    proxies: new Map(
      engines.records.proxies.rows().map(({ record }) => [record.id, structuredClone(record)]),
    ),
  };
}
