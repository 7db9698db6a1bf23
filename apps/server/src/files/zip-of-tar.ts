import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { Zip, ZipDeflate, ZipPassThrough } from 'fflate';
import { extract } from 'tar-stream';

/** Chunks of zip held for a slow reader before the tar is paused. */
const HIGH_WATER_CHUNKS = 8;

/** A tar member's name as a zip entry's: `./a/b` is `a/b`; the root itself has none. */
function entryName(name: string): string {
  return name.replace(/^(\.\/)+/, '').replace(/^\.$/, '');
}

/**
 * Repacks a tar stream as a zip stream as it arrives: regular files deflated (fast level: the
 * cost is the network's, not the CPU's), directories as entries of their own, links and devices
 * left out (a link is never followed, so nothing outside reaches the zip). A slow reader pauses
 * the tar, so memory stays flat; cancelling the zip cancels the tar.
 */
export function zipOfTar(tar: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
  const unpacker = extract();
  const source = Readable.fromWeb(tar as NodeReadableStream<Uint8Array>);
  let resume: (() => void) | undefined;
  let output!: ReadableStreamDefaultController<Uint8Array>;
  let isDone = false;
  const fail = (error: unknown) => {
    if (isDone) return;
    isDone = true;
    output.error(error);
    source.destroy();
  };
  const zip = new Zip((error, chunk, final) => {
    if (isDone) return;
    if (error) {
      fail(error);
      return;
    }
    output.enqueue(chunk);
    if (final) {
      isDone = true;
      output.close();
    }
  });
  unpacker.on('entry', (header, stream, next) => {
    const name = entryName(header.name);
    if (name === '' || (header.type !== 'file' && header.type !== 'directory')) {
      stream.on('end', next);
      stream.resume();
      return;
    }
    if (header.type === 'directory') {
      const folder = new ZipPassThrough(name.endsWith('/') ? name : `${name}/`);
      if (header.mtime) folder.mtime = header.mtime;
      zip.add(folder);
      folder.push(new Uint8Array(), true);
      stream.on('end', next);
      stream.resume();
      return;
    }
    const file = new ZipDeflate(name, { level: 1 });
    if (header.mtime) file.mtime = header.mtime;
    zip.add(file);
    stream.on('data', (data) => {
      const chunk = data as Buffer;
      file.push(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
      if ((output.desiredSize ?? 1) <= 0) {
        stream.pause();
        resume = () => stream.resume();
      }
    });
    stream.on('end', () => {
      file.push(new Uint8Array(), true);
      next();
    });
  });
  unpacker.on('finish', () => zip.end());
  unpacker.on('error', fail);
  source.on('error', fail);
  source.pipe(unpacker);
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        output = controller;
      },
      pull() {
        const next = resume;
        resume = undefined;
        next?.();
      },
      cancel() {
        isDone = true;
        source.destroy();
        unpacker.destroy();
      },
    },
    { highWaterMark: HIGH_WATER_CHUNKS },
  );
}
