import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestCluster } from '../test-support/test-cluster.js';
import { BLOB_CHUNK_BYTES, postgresBlobStore, sweepBlobChunks } from './blob-store.js';

const test = useTestCluster();
let pool: pg.Pool;
beforeAll(async () => {
  pool = await test.pool();
});

const folder = () => mkdtempSync(join(tmpdir(), 'xb-blobs-'));

function fileOf(bytes: Uint8Array): string {
  const path = join(folder(), 'source');
  writeFileSync(path, bytes);
  return path;
}

const chunkCount = async () =>
  (await pool.query('SELECT count(*)::int AS n FROM xb_blob_chunks')).rows[0].n as number;

describe('blobs in PostgreSQL', () => {
  it('keep a file of many chunks and give it back whole; a put replaces, a remove forgets', async () => {
    const blobs = postgresBlobStore(pool);
    const bytes = randomBytes(3 * BLOB_CHUNK_BYTES + 12_345);
    await blobs.put('a/b.zip', fileOf(bytes));
    const out = join(folder(), 'copy');
    expect(await blobs.fetch('a/b.zip', out)).toBe(true);
    expect(readFileSync(out).equals(bytes)).toBe(true);
    const next = randomBytes(10);
    await blobs.put('a/b.zip', fileOf(next));
    expect(await blobs.fetch('a/b.zip', out)).toBe(true);
    expect(readFileSync(out).equals(next)).toBe(true);
    expect(await chunkCount()).toBe(1); // the old generation went with the replace
    await blobs.remove('a/b.zip');
    expect(await blobs.fetch('a/b.zip', join(folder(), 'gone'))).toBe(false);
    expect(await chunkCount()).toBe(0);
    // An empty file is a blob too.
    await blobs.put('empty', fileOf(new Uint8Array()));
    expect(await blobs.fetch('empty', out)).toBe(true);
    expect(readFileSync(out).byteLength).toBe(0);
    await blobs.remove('empty');
  });

  it('leave the last version and no chunks when a put cannot finish, and no partial file on a fetch', async () => {
    const blobs = postgresBlobStore(pool);
    const kept = randomBytes(100);
    await blobs.put('k', fileOf(kept));
    // A source that fails part-way: the put fails, the blob is as it was.
    await expect(blobs.put('k', join(folder(), 'missing'))).rejects.toThrow(/ENOENT/);
    const target = folder();
    expect(await blobs.fetch('k', join(target, 'copy'))).toBe(true);
    expect(readFileSync(join(target, 'copy')).equals(kept)).toBe(true);
    expect(readdirSync(target)).toEqual(['copy']);
    await test.cluster.halt();
    try {
      await expect(blobs.put('k', fileOf(randomBytes(10)))).rejects.toMatchObject({ status: 503 });
      await expect(blobs.fetch('k', join(target, 'again'))).rejects.toMatchObject({ status: 503 });
      expect(existsSync(join(target, 'again'))).toBe(false);
      expect(readdirSync(target)).toEqual(['copy']);
    } finally {
      await test.cluster.resume();
    }
    expect(await blobs.fetch('k', join(target, 'copy'))).toBe(true);
    expect(readFileSync(join(target, 'copy')).equals(kept)).toBe(true);
    await blobs.remove('k');
  });

  it('sweeps chunks no blob names once they are older than a put could take', async () => {
    await pool.query(
      "INSERT INTO xb_blob_chunks (generation, seq, chunk, written_at) VALUES ('old', 0, '\\x00', now() - interval '2 hours'), ('fresh', 0, '\\x00', now())",
    );
    expect(await sweepBlobChunks(pool)).toBe(1);
    expect(
      (await pool.query('SELECT generation FROM xb_blob_chunks')).rows.map((row) => row.generation),
    ).toEqual(['fresh']);
    await pool.query("DELETE FROM xb_blob_chunks WHERE generation = 'fresh'");
  });
});
