import { formatTimestamp, type Page, type Profile, type ProfileArchiveFormat } from '@x/types';
import type { BrowserInstance } from '../engines.js';
import { notFound, refusals } from '../messages.js';
import type { ModelContext } from '../model-context.js';
import { type NamedListQuery, namedPage } from '../records/named-page.js';
import { findByIdOrName, putNamed } from '../records/named-records.js';

/** A reference to a profile, by id or by name. */
export interface ProfileReference {
  readonly id?: string | undefined;
  readonly name?: string | undefined;
}

/**
 * Every rule of profiles: names unique, `{id_or_name}` lookups, one browser saving into a profile
 * at a time, `last_used_at` when a browser loads one and `updated_at` when one saves into it. The
 * profile store keeps the data; browsers load and save it through their engine.
 */
export class ProfileModel<I extends BrowserInstance> {
  readonly #context: ModelContext<I>;
  /** The browser session saving into each profile held for writing, by profile id. */
  readonly #writers = new Map<string, string>();
  /** The pool whose configuration names a profile, if any (set by the service model). */
  namingPool: (profile: Profile) => string | undefined = () => undefined;

  constructor(context: ModelContext<I>) {
    this.#context = context;
  }

  get #records() {
    return this.#context.engines.records.profiles;
  }

  async create(name: string | undefined): Promise<Profile> {
    if (name !== undefined && (await this.#records.byName(name)))
      throw refusals.nameTaken('profile', name);
    const record: Profile = {
      id: this.#context.nextId('prof'),
      created_at: formatTimestamp(this.#context.clock()),
    };
    if (name !== undefined) record.name = name;
    await putNamed(this.#records, record.id, record, name, 'profile');
    return record;
  }

  async list(query: NamedListQuery): Promise<Page<Profile>> {
    return namedPage(await this.#records.list(), query);
  }

  /** A profile by id, then by name; 404 when neither. */
  async find(idOrName: string): Promise<Profile> {
    const record = await findByIdOrName(this.#records, idOrName);
    if (!record) throw notFound('profile', idOrName);
    return record;
  }

  /** A profile a browser or pool names; 404 when it is not there. */
  resolve(reference: ProfileReference): Promise<Profile> {
    return this.find((reference.id ?? reference.name) as string);
  }

  async rename(idOrName: string, name: string): Promise<Profile> {
    const record = await this.find(idOrName);
    if (record.name === name) return record;
    if (await this.#records.byName(name)) throw refusals.nameTaken('profile', name);
    const pool = this.namingPool(record);
    if (record.name !== undefined && pool !== undefined)
      throw refusals.namedByPool('Profile', idOrName, pool);
    const renamed = { ...record, name };
    await putNamed(this.#records, record.id, renamed, name, 'profile');
    return renamed;
  }

  /** 409 while a browser saves into it or a pool names it; its data goes with it. */
  async delete(idOrName: string): Promise<void> {
    const record = await this.find(idOrName);
    const writer = this.#writers.get(record.id);
    if (writer !== undefined) throw refusals.profileHeld(idOrName, writer);
    const pool = this.namingPool(record);
    if (pool !== undefined) throw refusals.namedByPool('Profile', idOrName, pool);
    await this.#records.delete(record.id);
    await this.#context.engines.profiles.remove(record.id);
  }

  async download(
    idOrName: string,
    format: ProfileArchiveFormat,
  ): Promise<ReadableStream<Uint8Array>> {
    return this.#context.engines.profiles.download((await this.find(idOrName)).id, format);
  }

  /** Throws 409 when another browser saves into the profile. */
  checkWritable(profile: Profile, idOrName: string): void {
    const writer = this.#writers.get(profile.id);
    if (writer !== undefined) throw refusals.profileHeld(idOrName, writer);
  }

  /** Holds a profile for `sessionId` to save into (checked writable just before). */
  hold(profile: Profile, sessionId: string): void {
    this.#writers.set(profile.id, sessionId);
  }

  /** Lets go of a profile `sessionId` held. */
  release(profileId: string, sessionId: string): void {
    if (this.#writers.get(profileId) === sessionId) this.#writers.delete(profileId);
  }

  /** A browser loads the profile now. */
  markUsed(profile: Profile): Promise<Profile> {
    return this.#touch(profile.id, { last_used_at: formatTimestamp(this.#context.clock()) });
  }

  /** A browser saved its state into the profile now. */
  async markSaved(profileId: string): Promise<void> {
    await this.#touch(profileId, { updated_at: formatTimestamp(this.#context.clock()) });
  }

  async #touch(profileId: string, change: Partial<Profile>): Promise<Profile> {
    const record = await this.#records.get(profileId);
    if (!record) return change as Profile; // Deleted meanwhile: nothing to record.
    const changed = { ...record, ...change };
    await this.#records.put(profileId, changed);
    return changed;
  }
}
