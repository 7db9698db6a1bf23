import { describe, expect, it } from 'vitest';
import { shellRunner, useTestServer } from '../test-support/servers.js';
import { seccompProgram } from './seccomp.js';

const test = useTestServer();
const shell = shellRunner(() => test.server.url);

/** System call numbers the test calls through perl (which every Debian has). */
const NUMBERS = {
  x64: { getpid: 39, io_uring_setup: 425, keyctl: 250, ptrace: 101, userfaultfd: 323, setns: 308 },
  arm64: {
    getpid: 172,
    io_uring_setup: 425,
    keyctl: 219,
    ptrace: 117,
    userfaultfd: 282,
    setns: 268,
  },
}[process.arch as 'x64' | 'arm64'];

/** `name=errno` for each call (0 when it succeeded), as a session's process sees it. */
async function errnos(
  browser: string,
  calls: Record<string, string>,
): Promise<Record<string, number>> {
  const lines = Object.entries(calls)
    .map(
      ([name, call]) =>
        `$! = 0; my $r = syscall(${call}); print "${name}=", ($r == -1 ? $! + 0 : 0), "\\n";`,
    )
    .join(' ');
  const { stdout } = await shell(browser, `perl -e '${lines}'`);
  return Object.fromEntries(
    stdout
      .trim()
      .split('\n')
      .map((line) => line.split('='))
      .map(([name, value]) => [name, Number(value)]),
  );
}

describe("the kernel a session's processes reach", () => {
  it('refuses new namespaces, io_uring, keyrings, ptrace and userfaultfd; plain calls work', async () => {
    const id = (
      (await test.api.call('POST', '/browsers', { json: {} })).json as { session_id: string }
    ).session_id;
    try {
      const seen = await errnos(id, {
        io_uring: `${NUMBERS.io_uring_setup}, 1, 0`,
        keyctl: `${NUMBERS.keyctl}, 0, -3, 0`,
        ptrace: `${NUMBERS.ptrace}, 0, 0, 0, 0`,
        userfaultfd: `${NUMBERS.userfaultfd}, 0`,
        setns: `${NUMBERS.setns}, 0, 0`,
        getpid: `${NUMBERS.getpid}`,
      });
      expect(seen).toEqual({
        io_uring: 1,
        keyctl: 1,
        ptrace: 1,
        userfaultfd: 1,
        setns: 1,
        getpid: 0,
      });
      // A user namespace (the way to nf_tables, mount and the rest) cannot be made, by any flag.
      for (const flags of ['-U', '-r', '-Un', '-Um', '-p -f']) {
        const made = await shell(id, `unshare ${flags} true; echo "exit $?"`);
        expect([flags, made.stdout.trim()]).toEqual([flags, 'exit 1']);
        expect(made.stderr).toMatch(/Operation not permitted/);
      }
      // Control: threads and child processes (clone without namespace flags) still work.
      const ordinary = await shell(id, 'sh -c "echo child" & wait; (sleep 0 &); echo done');
      expect(ordinary.stdout).toBe('child\ndone\n');
    } finally {
      await test.api.call('DELETE', `/browsers/${id}`);
    }
  });

  it('assembles a filter for each architecture the server runs on', () => {
    for (const arch of ['x64', 'arm64'])
      for (const policy of ['process', 'browser'] as const) {
        const program = seccompProgram(policy, arch);
        expect(program.byteLength % 8).toBe(0);
        // The last instruction refuses with EPERM; the first loads the architecture.
        expect(program.readUInt32LE(program.byteLength - 4)).toBe(0x00050001);
        expect(program.readUInt32LE(4)).toBe(4);
      }
    expect(() => seccompProgram('process', 'riscv64')).toThrow(/riscv64/);
  });
});
