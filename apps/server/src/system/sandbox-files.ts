import { chmodSync, writeFileSync } from 'node:fs';

/**
 * Files the server makes for its sandboxes to read. The server runs with umask 077
 * (`server-main.ts`: what it makes is its own), which turns a mode asked at creation (`0o644`) into
 * `0o600`: a sandbox's user (never the server's) could then not read its own resolv.conf. So the
 * mode is set after the file is made, whatever the umask; every file bound into a sandbox for
 * reading is made here.
 */

/** Writes `path` readable by every user (0644), whatever the process's umask. */
export function writeSandboxFile(path: string, content: string | Uint8Array): void {
  writeFileSync(path, content);
  chmodSync(path, 0o644);
}
