import { type Extension, formatTimestamp, type Page } from '@x/types';
import type { BrowserInstance } from '../engines.js';
import { notFound, refusals } from '../messages.js';
import type { ModelContext } from '../model-context.js';
import { type NamedListQuery, namedPage } from '../records/named-page.js';
import { findByIdOrName, putNamed } from '../records/named-records.js';
import type { StoredExtension } from '../records/record-store.js';

/** A reference to an extension, by id or by name. */
export interface ExtensionReference {
  readonly id?: string | undefined;
  readonly name?: string | undefined;
}

/**
 * Every rule of uploaded extensions: names unique, `{id_or_name}` lookups, `last_used_at` when a
 * browser loads one; the archive store checks and keeps the archives.
 */
export class ExtensionModel<I extends BrowserInstance> {
  readonly #context: ModelContext<I>;

  constructor(context: ModelContext<I>) {
    this.#context = context;
  }

  get #records() {
    return this.#context.engines.records.extensions;
  }

  /** Checks and stores an archive: 400/413 for one the contract refuses, 409 for a taken name. */
  async upload(file: Blob, name: string | undefined): Promise<Extension> {
    const { archives } = this.#context.engines;
    const { key, sizeBytes, sha256 } = await archives.store(file);
    if (name !== undefined && (await this.#records.byName(name))) {
      await this.#releaseArchive(key);
      throw refusals.extensionNameTaken(name);
    }
    const record: Extension = {
      id: this.#context.nextId('ext'),
      created_at: formatTimestamp(this.#context.clock()),
      size_bytes: sizeBytes,
      checksum: sha256,
    };
    if (name !== undefined) record.name = name;
    try {
      await putNamed(this.#records, record.id, { record, key }, name, 'extension', {}, (taken) =>
        refusals.extensionNameTaken(taken),
      );
    } catch (error) {
      await this.#releaseArchive(key);
      throw error;
    }
    return record;
  }

  async list(): Promise<Extension[]> {
    return (await this.#records.list()).map((stored) => stored.record);
  }

  /** One page of the extensions, oldest first, by `name` or `query`. */
  async page(query: NamedListQuery): Promise<Page<Extension>> {
    return namedPage(await this.list(), query);
  }

  /** The archive as uploaded. */
  async download(idOrName: string): Promise<Blob | Uint8Array> {
    return this.#context.engines.archives.open((await this.find(idOrName)).key);
  }

  async delete(idOrName: string): Promise<void> {
    const { record, key } = await this.find(idOrName);
    await this.#records.delete(record.id);
    await this.#releaseArchive(key);
  }

  /** An extension by id, then by name; 404 when neither. */
  async find(idOrName: string): Promise<StoredExtension> {
    const stored = await findByIdOrName(this.#records, idOrName);
    if (!stored) throw notFound('extension', idOrName);
    return stored;
  }

  /** The extensions a browser or pool names, 404 for the first that is not there. */
  async resolve(references: readonly ExtensionReference[]): Promise<StoredExtension[]> {
    const found: StoredExtension[] = [];
    for (const reference of references)
      found.push(await this.find((reference.id ?? reference.name) as string));
    return found;
  }

  /** Marks extensions used now: a browser loads them. */
  async markUsed(extensions: readonly StoredExtension[]): Promise<void> {
    const now = formatTimestamp(this.#context.clock());
    for (const { record, key } of extensions)
      await this.#records.put(record.id, { record: { ...record, last_used_at: now }, key });
  }

  /** Seeds an extension whose archive is stored already (the fake, whose store writes at once). */
  seed(stored: StoredExtension): Promise<void> {
    return this.#records.put(stored.record.id, stored, { name: stored.record.name });
  }

  /** The archive goes once no extension refers to it (the same archive may be uploaded twice). */
  async #releaseArchive(key: string): Promise<void> {
    if (!(await this.#records.list()).some((stored) => stored.key === key))
      await this.#context.engines.archives.remove(key);
  }
}
