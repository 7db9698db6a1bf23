/** One entry of a tar archive. */
export interface TarEntry {
  /** Path inside the archive, relative, `/`-separated; a directory's without a trailing `/`. */
  readonly path: string;
  readonly isDirectory: boolean;
  readonly mode: number;
  readonly modTime: Date;
  readonly content?: Uint8Array;
}

const BLOCK = 512;
const encoder = new TextEncoder();

function writeString(header: Uint8Array, offset: number, length: number, value: string): void {
  const bytes = encoder.encode(value);
  if (bytes.byteLength > length) throw new RangeError(`"${value}" does not fit a tar header`);
  header.set(bytes, offset);
}

function writeOctal(header: Uint8Array, offset: number, length: number, value: number): void {
  writeString(header, offset, length, `${value.toString(8).padStart(length - 1, '0')}\0`);
}

/** Splits a long path into the ustar `prefix` and `name` fields. */
function splitPath(path: string): { prefix: string; name: string } {
  if (encoder.encode(path).byteLength <= 100) return { prefix: '', name: path };
  for (let cut = path.indexOf('/'); cut !== -1; cut = path.indexOf('/', cut + 1)) {
    const prefix = path.slice(0, cut);
    const name = path.slice(cut + 1);
    if (encoder.encode(prefix).byteLength <= 155 && encoder.encode(name).byteLength <= 100)
      return { prefix, name };
  }
  throw new RangeError(`The path "${path}" is too long for a tar header`);
}

function header(entry: TarEntry): Uint8Array {
  const block = new Uint8Array(BLOCK);
  const { prefix, name } = splitPath(entry.isDirectory ? `${entry.path}/` : entry.path);
  writeString(block, 0, 100, name);
  writeOctal(block, 100, 8, entry.mode & 0o7777);
  writeOctal(block, 108, 8, 0);
  writeOctal(block, 116, 8, 0);
  writeOctal(block, 124, 12, entry.isDirectory ? 0 : (entry.content?.byteLength ?? 0));
  writeOctal(block, 136, 12, Math.floor(entry.modTime.getTime() / 1000));
  block.fill(0x20, 148, 156); // The checksum counts its own field as spaces.
  block[156] = entry.isDirectory ? 0x35 : 0x30;
  writeString(block, 257, 6, 'ustar\0');
  writeString(block, 263, 2, '00');
  writeString(block, 345, 155, prefix);
  let sum = 0;
  for (const byte of block) sum += byte;
  writeString(block, 148, 8, `${sum.toString(8).padStart(6, '0')}\0 `);
  return block;
}

/** A POSIX ustar archive of `entries`, in order: what `tar -x` unpacks. */
export function ustar(entries: readonly TarEntry[]): Uint8Array {
  const parts: Uint8Array[] = [];
  for (const entry of entries) {
    parts.push(header(entry));
    if (!entry.isDirectory && entry.content && entry.content.byteLength > 0) {
      parts.push(entry.content);
      const padding = (BLOCK - (entry.content.byteLength % BLOCK)) % BLOCK;
      if (padding > 0) parts.push(new Uint8Array(padding));
    }
  }
  parts.push(new Uint8Array(BLOCK * 2));
  const archive = new Uint8Array(parts.reduce((total, part) => total + part.byteLength, 0));
  let offset = 0;
  for (const part of parts) {
    archive.set(part, offset);
    offset += part.byteLength;
  }
  return archive;
}
