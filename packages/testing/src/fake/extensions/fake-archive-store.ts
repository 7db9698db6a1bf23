import { createHash, randomUUID } from 'node:crypto';
import { type ArchiveStore, checkExtensionArchive } from '@x/service-kernel';

/** Keeps extension archives in memory, checked as the contract says. */
export class FakeArchiveStore implements ArchiveStore {
  readonly archives = new Map<string, Uint8Array>();

  async store(file: Blob): Promise<{ key: string; sizeBytes: number; sha256: string }> {
    const archive = new Uint8Array(await file.arrayBuffer());
    checkExtensionArchive(archive);
    const sha256 = createHash('sha256').update(archive).digest('hex');
    return { key: this.keep(archive), sizeBytes: archive.byteLength, sha256 };
  }

  /** Keeps an archive as it is (a seed's), unchecked. */
  keep(archive: Uint8Array): string {
    const key = randomUUID();
    this.archives.set(key, archive);
    return key;
  }

  async open(key: string): Promise<Uint8Array> {
    const archive = this.archives.get(key);
    if (!archive) throw new Error(`The fake lost archive ${key}.`);
    return archive;
  }

  remove(key: string): void {
    this.archives.delete(key);
  }
}
