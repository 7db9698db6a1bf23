import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second of /proc/<pid>/stat's times (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** One process of a group, as /proc/<pid>/stat tells it. */
export interface GroupMember {
  readonly pid: number;
  /** Executable name: `bwrap` for the sandbox's own processes. */
  readonly name: string;
  /** User and system CPU time, in ticks. */
  readonly ticks: number;
  readonly residentBytes: number;
}

/** The processes of a process group (a sandbox and everything in it). */
export function groupMembers(processGroup: number): GroupMember[] {
  const members: GroupMember[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // Fields after the name, which may hold spaces: state is field 3, pgrp field 5.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) !== processGroup) continue;
      members.push({
        pid: Number(entry),
        name: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')),
        ticks: Number(fields[11]) + Number(fields[12]),
        residentBytes: Number(fields[21]) * 4096,
      });
    } catch {
      // It ended while it was read.
    }
  }
  return members;
}

/** Turns two usage samples into the share of one core used between them, in percent. */
export function cpuPercent(
  previous: { ticks: number; at: number },
  current: { ticks: number; at: number },
): number {
  const seconds = (current.at - previous.at) / 1000;
  if (seconds <= 0) return 0;
  return Math.max(0, ((current.ticks - previous.ticks) / TICKS_PER_SECOND / seconds) * 100);
}
