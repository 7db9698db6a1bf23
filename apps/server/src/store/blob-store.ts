import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import type { Pool } from 'pg';
import { storeFailure, storeRows } from './postgres/postgres-errors.js';

/** Bytes of one chunk of a blob: what one query carries, and what is held in memory at once. */
export const BLOB_CHUNK_BYTES = 1024 * 1024;

/** How long chunks no blob names are kept (a put still running elsewhere) before they go. */
const ORPHAN_AGE = '1 hour';

/**
 * Files the records name, kept in the store beside them so that another server on the same
 * database (or this one after its disk was lost) has them too: the data directory keeps working
 * copies, the store the lasting one. Streamed both ways in chunks, never held whole.
 */
export interface BlobStore {
  /** Keeps the file at `path` under `key`, replacing what was there, whole or not at all. */
  put(key: string, path: string): Promise<void>;
  /**
   * Writes the blob of `key` to `path` (through a temporary file beside it, renamed into place
   * when whole). False when there is none.
   */
  fetch(key: string, path: string): Promise<boolean>;
  remove(key: string): Promise<void>;
}

/**
 * Blobs in PostgreSQL: a blob (`xb_blobs`) names its generation of chunks (`xb_blob_chunks`,
 * `bytea` of 1 MiB). A put writes a new generation chunk by chunk, then switches the blob to it
 * and drops the old one in one transaction: a reader sees the old file or the new, never a mix.
 * A fetch reads the generation it started with; if a put replaced it meanwhile it starts again.
 */
export function postgresBlobStore(pool: Pool): BlobStore {
  const query = <R extends object>(sql: string, values: unknown[] = []) =>
    storeRows<R>(pool, sql, values);
  const dropGeneration = (generation: string) =>
    query('DELETE FROM xb_blob_chunks WHERE generation = $1', [generation]);

  async function fetchOnce(key: string, path: string): Promise<'done' | 'none' | 'replaced'> {
    const [blob] = await query<{ generation: string; size: string }>(
      'SELECT generation, size FROM xb_blobs WHERE key = $1',
      [key],
    );
    if (!blob) return 'none';
    const partial = `${path}.partial-${randomUUID()}`;
    const file = await open(partial, 'wx', 0o600);
    try {
      let written = 0;
      for (let seq = 0; written < Number(blob.size); seq++) {
        const [row] = await query<{ chunk: Buffer }>(
          'SELECT chunk FROM xb_blob_chunks WHERE generation = $1 AND seq = $2',
          [blob.generation, seq],
        );
        if (!row) return 'replaced';
        await file.write(row.chunk);
        written += row.chunk.byteLength;
      }
      await file.sync();
      await file.close();
      await rename(partial, path);
      return 'done';
    } finally {
      // It is closed already when the file came whole; a read that failed is the one told.
      await file.close().catch(() => undefined);
      await rm(partial, { force: true });
    }
  }

  return {
    async put(key, path) {
      const generation = randomUUID();
      let size = 0;
      try {
        let seq = 0;
        for await (const chunk of createReadStream(path, { highWaterMark: BLOB_CHUNK_BYTES })) {
          await query('INSERT INTO xb_blob_chunks (generation, seq, chunk) VALUES ($1, $2, $3)', [
            generation,
            seq++,
            chunk,
          ]);
          size += (chunk as Buffer).byteLength;
        }
        const client = await pool.connect().catch((error: unknown) => {
          throw storeFailure(error);
        });
        try {
          await client.query('BEGIN');
          const { rows } = await client.query<{ generation: string }>(
            'SELECT generation FROM xb_blobs WHERE key = $1 FOR UPDATE',
            [key],
          );
          await client.query(
            `INSERT INTO xb_blobs (key, generation, size) VALUES ($1, $2, $3)
             ON CONFLICT (key) DO UPDATE SET generation = excluded.generation,
               size = excluded.size, stored_at = now()`,
            [key, generation, size],
          );
          const old = rows[0]?.generation;
          if (old !== undefined)
            await client.query('DELETE FROM xb_blob_chunks WHERE generation = $1', [old]);
          await client.query('COMMIT');
        } catch (error) {
          // A rollback fails only with the connection broken, which ends the transaction too.
          await client.query('ROLLBACK').catch(() => undefined);
          throw storeFailure(error);
        } finally {
          client.release();
        }
      } catch (error) {
        // Chunks left behind are dropped by a later start's sweep (`sweepBlobChunks`).
        await dropGeneration(generation).catch(() => undefined);
        throw error;
      }
    },

    async fetch(key, path) {
      for (let attempt = 0; attempt < 5; attempt++) {
        const outcome = await fetchOnce(key, path);
        if (outcome !== 'replaced') return outcome === 'done';
      }
      throw new Error(`blob ${key} kept being replaced while it was read`);
    },

    async remove(key) {
      const rows = await query<{ generation: string }>(
        'DELETE FROM xb_blobs WHERE key = $1 RETURNING generation',
        [key],
      );
      for (const { generation } of rows) await dropGeneration(generation);
    },
  };
}

/** Drops chunks no blob names that are older than a put could take (a put a crash cut short). */
export async function sweepBlobChunks(pool: Pool): Promise<number> {
  const { rowCount } = await pool.query(
    `DELETE FROM xb_blob_chunks c WHERE c.written_at < now() - interval '${ORPHAN_AGE}'
       AND NOT EXISTS (SELECT 1 FROM xb_blobs b WHERE b.generation = c.generation)`,
  );
  return rowCount ?? 0;
}
