import { closeSync, readdirSync, readFileSync } from 'node:fs';

/** open(2)'s O_CLOEXEC on Linux, as /proc/<pid>/fdinfo prints flags (octal). */
const O_CLOEXEC = 0o2000000;

/**
 * Closes every file descriptor the server inherited from whatever started it (past stdin, stdout
 * and stderr) and would pass on to each program it starts: a descriptor without close-on-exec is
 * handed to every child, so every sandbox would hold it (an open file of the operator's shell, a
 * socket of a supervisor). Node's own descriptors are all close-on-exec, and the IPC channel of a
 * parent Node (NODE_CHANNEL_FD) is kept. Call once, first thing. Returns what it closed.
 */
export function closeInheritedDescriptors(): number[] {
  const channel = Number(process.env.NODE_CHANNEL_FD ?? -1);
  const closed: number[] = [];
  for (const name of readdirSync('/proc/self/fdinfo')) {
    const fd = Number(name);
    if (!Number.isInteger(fd) || fd <= 2 || fd === channel) continue;
    let flags: number;
    try {
      const match = /^flags:\s+([0-7]+)$/m.exec(readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8'));
      if (!match) continue;
      flags = Number.parseInt(match[1] as string, 8);
    } catch {
      continue; // closed meanwhile (the directory's own descriptor)
    }
    if ((flags & O_CLOEXEC) !== 0) continue;
    try {
      closeSync(fd);
      closed.push(fd);
    } catch {
      // gone already
    }
  }
  return closed;
}
