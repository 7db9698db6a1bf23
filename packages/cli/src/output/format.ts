import type { Colors } from './colors.js';

/** ANSI style sequences: escape, `[`, numbers, `m`. */
const ANSI_STYLE = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');

/** Strips ANSI styles, to measure what a person sees. */
const visibleLength = (text: string) => text.replace(ANSI_STYLE, '').length;

/** A table with a bold header row, columns padded to their widest cell. */
export function renderTable(
  colors: Colors,
  headers: readonly string[],
  rows: readonly (readonly string[])[],
): string {
  const widths = headers.map((header, column) =>
    Math.max(header.length, ...rows.map((row) => visibleLength(row[column] ?? ''))),
  );
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, column) =>
        column === cells.length - 1
          ? cell
          : cell + ' '.repeat((widths[column] ?? 0) - visibleLength(cell)),
      )
      .join('  ')
      .trimEnd();
  return [colors.bold(line(headers)), ...rows.map(line)].join('\n');
}

/** A record as aligned `key  value` lines; nested values as compact JSON. */
export function renderRecord(colors: Colors, record: Readonly<Record<string, unknown>>): string {
  const entries = Object.entries(record).filter(([, value]) => value !== undefined);
  const width = Math.max(0, ...entries.map(([key]) => key.length));
  return entries
    .map(
      ([key, value]) =>
        `${colors.dim(key.padEnd(width))}  ${typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value)}`,
    )
    .join('\n');
}

/** Bytes for people: `1.5 MiB`. */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${bytes} B` : `${value.toFixed(1)} ${units[unit]}`;
}

/** A timestamp for a table: `2026-11-22 10:00:00` (UTC), or `-` when absent. */
export function formatTime(timestamp: string | undefined): string {
  return timestamp ? timestamp.replace('T', ' ').replace(/\.\d+Z$|Z$/, '') : '-';
}
