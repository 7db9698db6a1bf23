import { readdirSync, readFileSync } from 'node:fs';

/** Ids of the processes whose command line mentions `text`, read from /proc. */
export function processesWith(text: string): string[] {
  return readdirSync('/proc').filter((entry) => {
    if (!/^\d+$/.test(entry)) return false;
    try {
      return readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(text);
    } catch {
      return false; // It ended while the list was read.
    }
  });
}
