import type { ServiceModel } from '@x/service-kernel';
import {
  type BrowserPool,
  BrowserPoolSchema,
  type BrowserSession,
  BrowserSessionSchema,
  type Extension,
  ExtensionSchema,
  type Invocation,
  InvocationSchema,
  validationDetails,
} from '@x/types';
import { type GenericSchema, safeParse } from 'valibot';
import { buildExtensionArchive } from '../fixtures/extension-archive.js';
import type { FakeInstance } from './browsers/fake-instance.js';
import type { FakeEngines } from './fake-engines.js';

/** Records to start from, e.g. made with the builders. */
export interface FakeSeed {
  readonly browsers?: readonly BrowserSession[];
  /** Pools are filled to their size; `acquired_count` of their browsers are handed out already. */
  readonly pools?: readonly BrowserPool[];
  /** Extensions with their archive; a valid archive is built when none is given. */
  readonly extensions?: readonly (Extension & { readonly archive?: Uint8Array })[];
  readonly invocations?: readonly Invocation[];
}

/** Checks seeded records against their schemas, so a bad seed fails where it is given. */
function checkSeed(seed: FakeSeed): void {
  const kinds: [string, readonly unknown[] | undefined, GenericSchema][] = [
    ['browsers', seed.browsers, BrowserSessionSchema],
    ['pools', seed.pools, BrowserPoolSchema],
    ['extensions', seed.extensions, ExtensionSchema],
    ['invocations', seed.invocations, InvocationSchema],
  ];
  for (const [kind, records, schema] of kinds) {
    if (records === undefined) continue;
    if (!Array.isArray(records)) throw new TypeError(`seed: ${kind} must be an array`);
    for (const [index, record] of records.entries()) {
      const result = safeParse(schema, record);
      if (!result.success) {
        const problems = validationDetails(result.issues, `${kind}[${index}]`).map(
          (detail) => detail.message,
        );
        throw new TypeError(`seed: ${problems.join('; ')}`);
      }
    }
  }
}

/**
 * Adds seeded records to a fake's model, checked against their schemas first so a bad seed fails
 * where it is given: invocations, extensions (with a valid archive when none is given), browsers
 * (live ones on fresh instances), then pools, filled to their size.
 */
export function seedModel(
  model: ServiceModel<FakeInstance>,
  engines: FakeEngines,
  seed: FakeSeed,
  origin: string,
): void {
  checkSeed(seed);
  for (const invocation of seed.invocations ?? [])
    model.invocations.seed(structuredClone(invocation));
  for (const extension of seed.extensions ?? []) {
    const { archive: given, ...record } = extension;
    const archive = given ?? buildExtensionArchive();
    model.extensions.seed({
      record: { ...structuredClone(record), size_bytes: archive.byteLength },
      key: engines.archives.keep(archive),
    });
  }
  for (const session of seed.browsers ?? []) model.browsers.seed(structuredClone(session));
  for (const pool of seed.pools ?? []) model.pools.seed(structuredClone(pool), origin);
}
