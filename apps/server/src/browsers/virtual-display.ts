import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, constants, fchownSync, ftruncateSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { INSTANCE_HOME } from '@x/service-kernel';
import type { NamespaceJoin } from '../network/egress-networks.js';
import { endSandbox, type SandboxUser, spawnSandbox } from '../sandbox/bubblewrap.js';
import type { SessionCgroup } from '../sandbox/cgroups.js';
import { describeOverflow, readBoundedRecords } from '../system/bounded-records.js';

/** An X display of its own for one headed browser. */
export interface VirtualDisplay {
  /** `:N`, for DISPLAY. */
  readonly display: string;
  /** The X authority file holding the display's cookie, as the browser sees it. */
  readonly xauthority: string;
  readonly process: ChildProcess;
  close(): Promise<void>;
}

/** Longest line read from Xvfb's stdout, where it writes its display number and nothing else. */
const MAX_DISPLAY_LINE_BYTES = 64;

/** FamilyWild: an X authority entry that holds for any host. */
const FAMILY_WILD = 0xffff;

/** An X authority file (the format of libXau) with one MIT-MAGIC-COOKIE-1 entry. */
export function xauthorityFile(cookie: Buffer, displayNumber: string): Buffer {
  const field = (value: Buffer) => {
    const length = Buffer.alloc(2);
    length.writeUInt16BE(value.length);
    return Buffer.concat([length, value]);
  };
  const family = Buffer.alloc(2);
  family.writeUInt16BE(FAMILY_WILD);
  return Buffer.concat([
    family,
    field(Buffer.alloc(0)),
    field(Buffer.from(displayNumber)),
    field(Buffer.from('MIT-MAGIC-COOKIE-1')),
    field(cookie),
  ]);
}

/** Where the display starts: the instance it belongs to and the sandbox it runs in. */
export interface DisplaySandbox {
  readonly bubblewrap: string;
  /** The host folder that is the instance's /home/browser. */
  readonly home: string;
  readonly user: SandboxUser | undefined;
  /** The session's cgroup: the display counts against its limits. */
  readonly cgroup?: SessionCgroup | undefined;
  /** How to join the session's network namespace, which holds the display's abstract socket. */
  readonly network?: NamespaceJoin | undefined;
}

/**
 * Starts Xvfb on a free display of the viewport's size, in the browser's sandbox as the
 * browser's user. Only a client holding the display's cookie gets in (kept in the instance's
 * `.Xauthority`, which no other session can read), and it never listens on TCP. `-displayfd`
 * makes Xvfb pick the display and say it once the server is ready, so two browsers never race
 * for one.
 */
export async function startVirtualDisplay(
  xvfbPath: string,
  size: { width: number; height: number },
  sandbox: DisplaySandbox,
  timeoutMs = 10_000,
): Promise<VirtualDisplay> {
  const cookie = randomBytes(16);
  const hostFile = join(sandbox.home, '.Xauthority');
  // The folder belongs to the browser's user: a link put there is never followed.
  const writeAuthority = (displayNumber: string) => {
    const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_NOFOLLOW;
    const fd = openSync(hostFile, flags, 0o600);
    try {
      ftruncateSync(fd);
      writeSync(fd, xauthorityFile(cookie, displayNumber));
      if (sandbox.user) fchownSync(fd, sandbox.user.uid, sandbox.user.gid);
    } finally {
      closeSync(fd);
    }
  };
  // The server side reads the cookie at start and ignores the display number.
  writeAuthority('0');
  const xauthority = `${INSTANCE_HOME}/.Xauthority`;
  const xvfbArgs = [
    '-displayfd',
    '1',
    '-auth',
    xauthority,
    '-nolisten',
    'tcp',
    '-noreset',
    '-screen',
    '0',
    `${size.width}x${size.height}x24`,
  ];
  // Its socket is an abstract one, in the network namespace the browser shares (its session's).
  const child = spawnSandbox(
    sandbox.bubblewrap,
    {
      home: sandbox.home,
      shareNetwork: true,
      network: sandbox.network,
      user: sandbox.user,
      cgroup: sandbox.cgroup,
      seccomp: 'browser',
    },
    xvfbPath,
    xvfbArgs,
    ['ignore', 'pipe', 'ignore'],
  );
  const close = () => endSandbox(child);
  const number = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      void close();
      reject(new Error(`Xvfb did not start within ${timeoutMs} ms.`));
    }, timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`Xvfb exited at start (${code}).`));
    });
    // Its sandbox could not start: said once, as a failed start; later ones end nothing.
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(new Error(`Cannot start Xvfb: ${error.message}`));
    });
    const fail = (why: string) => {
      clearTimeout(timer);
      void close();
      reject(new Error(`Xvfb did not start: ${why}`));
    };
    // Its first line is read within bounds, then nothing more: the pipe is closed, so what
    // another process of the sandbox writes to it later finds no reader and costs the server
    // nothing.
    const stdout = child.stdout as Readable;
    let isHeard = false;
    readBoundedRecords(stdout, {
      delimiter: 0x0a,
      maxRecordBytes: MAX_DISPLAY_LINE_BYTES,
      onRecord: (line) => {
        if (isHeard) return;
        isHeard = true;
        stdout.destroy();
        const found = /^\d+$/.exec(line.toString())?.[0];
        if (found === undefined) {
          fail('it did not say its display number');
          return;
        }
        clearTimeout(timer);
        child.removeAllListeners('exit');
        resolve(found);
      },
      // Past its number nothing it writes matters: what came in the same read (a chunk with the
      // first line and more after it) is no overflow of a display that said its number.
      onOverflow: (overflow) => {
        if (!isHeard) fail(describeOverflow(overflow, 'it'));
      },
    });
  });
  writeAuthority(number);
  return { display: `:${number}`, xauthority, process: child, close };
}
