import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { closeSync, constants, lstatSync, mkdirSync, openSync, unlinkSync } from 'node:fs';
import { Socket } from 'node:net';
import { join } from 'node:path';

/** Where mkfifo is (coreutils, in every Debian). */
const MKFIFO = '/usr/bin/mkfifo';

/** One output pipe of a process: the end it writes to, and when the server has read it all. */
export interface OutputPipe {
  /** Given to the process as its stdout or stderr, then closed by the caller. */
  readonly writeFd: number;
  /** Resolves once every byte was read (every writer closed its end). */
  readonly drained: Promise<void>;
}

/**
 * Pipes for processes' output that the server reads into one buffer of its own, reused for
 * every chunk of every process, instead of a new buffer per chunk as Node's child-process pipes
 * do. A flood of output then costs no allocation per chunk: allocations freed only by the
 * garbage collector piled up by the tens of megabytes between collections and left the allocator
 * holding them (a 300 MB flood kept ~90 MiB of server RSS for good). Each pipe is a FIFO made in
 * a private folder and unlinked once both ends are open: nothing of it stays on disk.
 */
export class OutputPipes {
  readonly #folder: string;
  readonly #buffer = Buffer.allocUnsafe(64 * 1024);

  constructor(folder: string) {
    this.#folder = folder;
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    // In a shared folder such as /tmp another user could have made it first: it must be ours.
    const made = lstatSync(folder);
    if (!made.isDirectory() || made.uid !== process.getuid?.() || (made.mode & 0o077) !== 0)
      throw new Error(`${folder} is not a private folder of this user (0700): remove it`);
  }

  /**
   * `count` pipes; each chunk that arrives on pipe i is handed to `onData(i, bytes)`, which must
   * copy what it keeps before it returns (the bytes are overwritten by the next chunk).
   */
  open(count: number, onData: (index: number, bytes: Uint8Array) => void): OutputPipe[] {
    const paths = Array.from({ length: count }, () => join(this.#folder, randomUUID()));
    execFileSync(MKFIFO, ['-m', '600', ...paths]);
    // The ends this call still owns: a reading end is the socket's once it is made.
    const owned = new Set<number>();
    try {
      return paths.map((path, index) => {
        // The reading end first (a FIFO's writing end cannot open before a reader is there).
        const readFd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
        owned.add(readFd);
        const writeFd = openSync(path, constants.O_WRONLY);
        owned.add(writeFd);
        owned.delete(readFd);
        return { writeFd, drained: this.#read(readFd, (bytes) => onData(index, bytes)) };
      });
    } catch (error) {
      // Closing the writing ends lets the sockets already made see the end and close.
      for (const fd of owned) closeSync(fd);
      throw error;
    } finally {
      for (const path of paths) unlinkSync(path);
    }
  }

  #read(fd: number, onData: (bytes: Uint8Array) => void): Promise<void> {
    const socket = new Socket({
      fd,
      readable: true,
      writable: false,
      onread: {
        buffer: this.#buffer,
        callback: (length: number, buffer: Uint8Array) => {
          onData(buffer.subarray(0, length));
          return true;
        },
      },
    });
    socket.resume();
    return new Promise((resolve) => {
      socket.once('end', () => resolve());
      socket.once('close', () => resolve());
      // A read that fails ends what can be read; the process's exit is reported all the same.
      socket.once('error', () => resolve());
    });
  }
}
