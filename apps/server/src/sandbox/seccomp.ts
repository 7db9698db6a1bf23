/**
 * The seccomp filters sandboxes start under (bubblewrap's `--seccomp`, applied just before the
 * command runs, after bubblewrap has set the sandbox up): classic BPF programs, assembled here so
 * no library is needed. Both refuse, with EPERM, what a browser and the tools a session runs never
 * need and what widens the kernel's surface: io_uring, kernel keyrings, bpf, ptrace and reading or
 * writing another process's memory, kexec, kernel modules, perf events, userfaultfd, and every
 * other architecture's system calls (x32, i386). The `process` filter also refuses new namespaces
 * of any kind (`unshare`, `clone` with a `CLONE_NEW*` flag, `setns`) and mounting, so a session's
 * processes cannot make a user namespace to reach nf_tables, mount or anything else a namespace's
 * root may do. The `browser` filter leaves namespaces and mounts to Chromium, whose own renderer
 * sandbox is made of them. `clone3` answers ENOSYS in the `process` filter (its flags sit behind
 * a pointer a filter cannot read): the C library then falls back to `clone`, which is checked.
 */

/** Which filter: what a session's processes get, or what its browser (and our own helpers) get. */
export type SeccompPolicy = 'process' | 'browser';

interface Architecture {
  /** AUDIT_ARCH_* of the architecture. */
  readonly audit: number;
  /** Whether system call numbers from 0x40000000 up are another ABI (x32) to refuse. */
  readonly hasX32: boolean;
  readonly calls: Readonly<Record<SystemCall, number>>;
}

type SystemCall =
  | 'io_uring_setup'
  | 'io_uring_enter'
  | 'io_uring_register'
  | 'add_key'
  | 'request_key'
  | 'keyctl'
  | 'bpf'
  | 'ptrace'
  | 'process_vm_readv'
  | 'process_vm_writev'
  | 'kexec_load'
  | 'kexec_file_load'
  | 'init_module'
  | 'finit_module'
  | 'delete_module'
  | 'perf_event_open'
  | 'userfaultfd'
  | 'unshare'
  | 'setns'
  | 'clone'
  | 'clone3'
  | 'mount'
  | 'umount2'
  | 'pivot_root'
  | 'open_tree'
  | 'move_mount'
  | 'fsopen'
  | 'fsconfig'
  | 'fsmount'
  | 'fspick'
  | 'mount_setattr';

/** System calls numbered alike on every architecture (the newer ones). */
const COMMON = {
  io_uring_setup: 425,
  io_uring_enter: 426,
  io_uring_register: 427,
  open_tree: 428,
  move_mount: 429,
  fsopen: 430,
  fsconfig: 431,
  fsmount: 432,
  fspick: 433,
  clone3: 435,
  mount_setattr: 442,
} as const;

const ARCHITECTURES: Readonly<Record<string, Architecture>> = {
  x64: {
    audit: 0xc000003e,
    hasX32: true,
    calls: {
      ...COMMON,
      add_key: 248,
      request_key: 249,
      keyctl: 250,
      bpf: 321,
      ptrace: 101,
      process_vm_readv: 310,
      process_vm_writev: 311,
      kexec_load: 246,
      kexec_file_load: 320,
      init_module: 175,
      finit_module: 313,
      delete_module: 176,
      perf_event_open: 298,
      userfaultfd: 323,
      unshare: 272,
      setns: 308,
      clone: 56,
      mount: 165,
      umount2: 166,
      pivot_root: 155,
    },
  },
  arm64: {
    audit: 0xc00000b7,
    hasX32: false,
    calls: {
      ...COMMON,
      add_key: 217,
      request_key: 218,
      keyctl: 219,
      bpf: 280,
      ptrace: 117,
      process_vm_readv: 270,
      process_vm_writev: 271,
      kexec_load: 104,
      kexec_file_load: 294,
      init_module: 105,
      finit_module: 273,
      delete_module: 106,
      perf_event_open: 241,
      userfaultfd: 282,
      unshare: 97,
      setns: 268,
      clone: 220,
      mount: 40,
      umount2: 39,
      pivot_root: 41,
    },
  },
};

/** Refused by both filters. */
const NEVER: readonly SystemCall[] = [
  'io_uring_setup',
  'io_uring_enter',
  'io_uring_register',
  'add_key',
  'request_key',
  'keyctl',
  'bpf',
  'ptrace',
  'process_vm_readv',
  'process_vm_writev',
  'kexec_load',
  'kexec_file_load',
  'init_module',
  'finit_module',
  'delete_module',
  'perf_event_open',
  'userfaultfd',
];

/** Refused to a session's processes besides: namespaces and mounts. */
const NOT_FOR_PROCESSES: readonly SystemCall[] = [
  'setns',
  'mount',
  'umount2',
  'pivot_root',
  'open_tree',
  'move_mount',
  'fsopen',
  'fsconfig',
  'fsmount',
  'fspick',
  'mount_setattr',
];

/** CLONE_NEWNS, NEWCGROUP, NEWUTS, NEWIPC, NEWUSER, NEWPID, NEWNET. */
const CLONE_NEW_FLAGS =
  0x00020000 | 0x02000000 | 0x04000000 | 0x08000000 | 0x10000000 | 0x20000000 | 0x40000000;
/** unshare also takes CLONE_NEWTIME (in clone, that bit is part of the exit signal). */
const UNSHARE_NEW_FLAGS = CLONE_NEW_FLAGS | 0x00000080;

const EPERM = 1;
const ENOSYS = 38;
const RET_ALLOW = 0x7fff0000;
const RET_ERRNO = 0x00050000;

// Classic BPF: load a word of seccomp_data, compare, return.
const LD_W_ABS = 0x20;
const JEQ_K = 0x15;
const JGE_K = 0x35;
const JSET_K = 0x45;
const RET_K = 0x06;

/** Offsets in struct seccomp_data: nr, arch, then args[0] (its low half, little-endian). */
const NR = 0;
const ARCH = 4;
const ARG0_LOW = 16;

type Label = 'allow' | 'deny' | 'enosys' | 'unshare' | 'clone';

interface Instruction {
  readonly code: number;
  readonly k: number;
  readonly jumpIfTrue?: Label;
  readonly jumpIfFalse?: Label;
  readonly label?: Label;
}

/** The filter's program for this machine's architecture, as bubblewrap reads it. */
export function seccompProgram(policy: SeccompPolicy, arch: string = process.arch): Buffer {
  const architecture = ARCHITECTURES[arch];
  if (!architecture) throw new Error(`no seccomp filter for the ${arch} architecture`);
  const { calls } = architecture;
  const blocked = policy === 'process' ? [...NEVER, ...NOT_FOR_PROCESSES] : NEVER;
  const program: Instruction[] = [
    { code: LD_W_ABS, k: ARCH },
    { code: JEQ_K, k: architecture.audit, jumpIfFalse: 'deny' },
    { code: LD_W_ABS, k: NR },
    ...(architecture.hasX32 ? [{ code: JGE_K, k: 0x40000000, jumpIfTrue: 'deny' as const }] : []),
    ...blocked.map((call) => ({ code: JEQ_K, k: calls[call], jumpIfTrue: 'deny' as const })),
    ...(policy === 'process'
      ? [
          { code: JEQ_K, k: calls.clone3, jumpIfTrue: 'enosys' as const },
          { code: JEQ_K, k: calls.unshare, jumpIfTrue: 'unshare' as const },
          { code: JEQ_K, k: calls.clone, jumpIfTrue: 'clone' as const },
        ]
      : []),
    { code: RET_K, k: RET_ALLOW, label: 'allow' },
    ...(policy === 'process'
      ? [
          { code: LD_W_ABS, k: ARG0_LOW, label: 'unshare' as const },
          { code: JSET_K, k: UNSHARE_NEW_FLAGS, jumpIfTrue: 'deny' as const },
          { code: RET_K, k: RET_ALLOW },
          { code: LD_W_ABS, k: ARG0_LOW, label: 'clone' as const },
          { code: JSET_K, k: CLONE_NEW_FLAGS, jumpIfTrue: 'deny' as const },
          { code: RET_K, k: RET_ALLOW },
          { code: RET_K, k: RET_ERRNO | ENOSYS, label: 'enosys' as const },
        ]
      : []),
    { code: RET_K, k: RET_ERRNO | EPERM, label: 'deny' },
  ];
  const at = new Map<Label, number>();
  program.forEach((instruction, index) => {
    if (instruction.label) at.set(instruction.label, index);
  });
  const offset = (index: number, label: Label | undefined) => {
    if (label === undefined) return 0;
    const jump = (at.get(label) as number) - index - 1;
    if (jump < 0 || jump > 255) throw new Error(`seccomp jump out of reach: ${label}`);
    return jump;
  };
  const bytes = Buffer.alloc(program.length * 8);
  program.forEach((instruction, index) => {
    bytes.writeUInt16LE(instruction.code, index * 8);
    bytes.writeUInt8(offset(index, instruction.jumpIfTrue), index * 8 + 2);
    bytes.writeUInt8(offset(index, instruction.jumpIfFalse), index * 8 + 3);
    bytes.writeUInt32LE(instruction.k >>> 0, index * 8 + 4);
  });
  return bytes;
}
