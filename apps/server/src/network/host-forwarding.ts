import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The host's IPv4 forwarding, which a root server's session links need, and its undoing. */

/** Where a server notes that it turned IPv4 forwarding on (tmpfs: gone with a reboot, as the setting). */
const FORWARDING_MARK = '/run/xb-server/ip_forward-was-off';

/** A file's text, or '' when it cannot be read. */
export function readText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

/**
 * Turns IPv4 forwarding on for the sessions' NAT; whether the host forwarded nothing before (then
 * the policy's table drops whatever else would now be forwarded). A mark in /run remembers that it
 * was off, for the next start after a crash and for the last server to stop.
 */
export function turnForwardingOn(): boolean {
  const setting = '/proc/sys/net/ipv4/ip_forward';
  if (readText(setting).trim() === '1') return existsSync(FORWARDING_MARK);
  mkdirSync(join(FORWARDING_MARK, '..'), { recursive: true, mode: 0o700 });
  writeFileSync(FORWARDING_MARK, '');
  writeFileSync(setting, '1');
  return true;
}

/** Turns forwarding off again when it was off before and no other server's sessions need it. */
export function restoreForwarding(nft: string): void {
  const tables = spawnSync(nft, ['list', 'tables'], { encoding: 'utf8' }).stdout ?? '';
  if (/table inet xb_[0-9a-f]{4}\b/.test(tables)) return;
  writeFileSync('/proc/sys/net/ipv4/ip_forward', '0');
  rmSync(FORWARDING_MARK, { force: true });
}
