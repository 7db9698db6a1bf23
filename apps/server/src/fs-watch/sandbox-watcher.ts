import type { ChildProcess } from 'node:child_process';
import { posix } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import {
  FileFailure,
  type FsChange,
  fileError,
  notFound,
  refusals,
  type WatchEvents,
  type Watcher,
} from '@x/service-kernel';
import type { Logger } from 'pino';
import type { ChromiumInstance } from '../browsers/chromium-instance.js';
import { PRELUDE } from '../files/file-scripts.js';
import { reportedFailure } from '../files/sandbox-file-system.js';
import { endSandbox, spawnSandbox } from '../sandbox/bubblewrap.js';
import { describeOverflow, type Overflow, readBoundedRecords } from '../system/bounded-records.js';

/** What the server gives watches, in inotify entries (one per watched directory). */
export interface WatchBudget {
  /** All watches of one session together. */
  readonly perSession: number;
  /** All watches of every session together. */
  readonly total: number;
}

export const DEFAULT_WATCH_BUDGET: WatchBudget = { perSession: 8192, total: 65_536 };

/** Room a watch gets to grow past the directories it covers at start, at least. */
const MIN_GROWTH = 64;

/** Most bytes of one event line waited for (inotifywait cuts an event at about 4,000). */
const MAX_PENDING_BYTES = 64 * 1024;

/** Most bytes of stderr kept before the watch is in place (refusals, the ready line). */
const MAX_STDERR_BYTES = 64 * 1024;

/** The inotify events a watch asks for, as inotifywait names them. */
const EVENTS = 'create,delete,modify,moved_from,moved_to,delete_self,move_self';

/**
 * Runs in the session's sandbox as its user: $1 the path, $2 1 when recursive, $3 most directories
 * to count. Resolves the path there (links followed as the session would follow them, refused
 * outside the home), counts the directories the watch will cover, prints the resolved path and
 * that count, then waits for the server's word: how many inotify entries the watch may hold. It
 * then becomes inotifywait inside a user namespace of its own whose inotify limits are that word
 * and one instance, so the kernel holds the watch to what the server reserved for it. inotifywait
 * never follows a link (`-P`): a link in the tree is watched as the link it is.
 */
const WATCH_SCRIPT = String.raw`${PRELUDE}
full "$1"
[ -e "$r" ] || fail missing "$r"
[ -d "$r" ] || fail notDirectory "$r"
if [ "$2" = 1 ]; then
  n=$(find "$r" -type d -print 2>/dev/null | head -n $(($3 + 1)) | wc -l)
  set -- "$r" -r
else
  n=1
  set -- "$r"
fi
printf '%s\0%s\0' "$1" "$n"
IFS= read -r entries || exit 3
exec unshare --user --map-root-user /bin/sh -c '
echo "$1" > /proc/sys/user/max_inotify_watches &&
echo 1 > /proc/sys/user/max_inotify_instances || exit 4
shift
exec inotifywait -m -P --format "%e%0%w%f%0" --no-newline -e ${EVENTS} "$@"' sh "$entries" "$@"`;

/** What inotifywait says once every watch is in place. */
const READY = 'Watches established.';

/** What it says when a directory made later could not be watched (its entries all held). */
const CANNOT_GROW = "Couldn't watch new directory";

/** The entries a session's watches hold. */
interface Holding {
  held: number;
}

/**
 * Watches directories of instances from inside each session's own sandbox, as its user
 * (inotifywait, no network, its cgroup): the path is resolved there, so no link the session
 * plants, or swaps in while the watch starts, reaches a folder of the host or of another session;
 * inotify's kernel memory is charged to the session. Each watch reserves inotify entries from its
 * session's budget and the server's (one when not recursive; else what it covers at start and as
 * much again to grow, at least MIN_GROWTH more) and the kernel holds it to them: a tree too large is refused at start, and a
 * watch that outgrows its reservation ends (its stream closes).
 */
export class SandboxWatcher implements Watcher<ChromiumInstance> {
  readonly #bubblewrap: string | undefined;
  readonly #inotifywait: string | undefined;
  readonly #budget: WatchBudget;
  readonly #logger: Logger;
  readonly #sessions = new WeakMap<ChromiumInstance, Holding>();
  #held = 0;

  constructor(options: {
    bubblewrap: string | undefined;
    inotifywait: string | undefined;
    logger: Logger;
    budget?: WatchBudget;
  }) {
    this.#bubblewrap = options.bubblewrap;
    this.#inotifywait = options.inotifywait;
    this.#budget = options.budget ?? DEFAULT_WATCH_BUDGET;
    this.#logger = options.logger;
  }

  /** Inotify entries every session's watches hold together now. */
  get held(): number {
    return this.#held;
  }

  async watch(
    instance: ChromiumInstance,
    spec: { readonly path: string; readonly recursive: boolean },
    events: WatchEvents,
  ): Promise<{ close(): void }> {
    if (!this.#bubblewrap) throw refusals.missingTool('Watches', 'bubblewrap', 'bubblewrap');
    if (!this.#inotifywait) throw refusals.missingTool('Watches', 'inotifywait', 'inotify-tools');
    const session = this.#sessions.get(instance) ?? { held: 0 };
    this.#sessions.set(instance, session);
    const { perSession, total } = this.#budget;
    const child = spawnSandbox(
      this.#bubblewrap,
      // The browser filter: the watch sets its inotify limit in a user namespace of its own.
      {
        home: instance.home,
        shareNetwork: false,
        user: instance.user,
        cgroup: instance.cgroup,
        seccomp: 'browser',
      },
      '/bin/sh',
      ['-c', WATCH_SCRIPT, 'sh', spec.path, spec.recursive ? '1' : '0', String(perSession)],
      ['pipe', 'pipe', 'pipe'],
    );
    const output = new NulFields(child.stdout as Readable);
    const stderr = new Lines(child.stderr as Readable);
    let reserved = 0;
    const release = () => {
      session.held -= reserved;
      this.#held -= reserved;
      reserved = 0;
    };
    const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
    try {
      const head = await Promise.race([output.take(2), exited.then(() => undefined)]);
      if (!head) throw await this.#refusal(stderr, spec.path);
      const [root, count] = head as [string, string];
      const covered = Number(count);
      if (covered > perSession) throw refusals.watchTooLarge(root, perSession);
      const sessionLeft = perSession - session.held;
      if (covered > sessionLeft) throw refusals.watchEntriesTaken(covered, sessionLeft, perSession);
      if (covered > total - this.#held) throw refusals.watchEntriesExhausted(total);
      // A watch that is not recursive never takes another entry.
      const wanted = spec.recursive ? covered + Math.max(covered, MIN_GROWTH) : 1;
      reserved = Math.min(wanted, sessionLeft, total - this.#held);
      session.held += reserved;
      this.#held += reserved;
      const stdin = child.stdin as Writable;
      stdin.on('error', () => undefined); // the script may have ended: its exit is the answer
      stdin.end(`${reserved}\n`);
      const ready = await Promise.race([stderr.waitFor(READY), exited.then(() => false)]);
      if (!ready) throw await this.#refusal(stderr, root, reserved, sessionLeft);
      return this.#follow(child, output, stderr, root, events, release, exited);
    } catch (error) {
      release();
      await endSandbox(child);
      throw error;
    }
  }

  /** Turns inotifywait's output into changes until the watch ends, by a stop or by itself. */
  #follow(
    child: ChildProcess,
    output: NulFields,
    stderr: Lines,
    root: string,
    events: WatchEvents,
    release: () => void,
    exited: Promise<void>,
  ): { close(): void } {
    let isClosed = false;
    const close = () => {
      if (isClosed) return;
      isClosed = true;
      release();
      void endSandbox(child);
    };
    const end = (why: string) => {
      if (isClosed) return;
      this.#logger.info({ path: root }, `a watch ended: ${why}`);
      close();
      events.error();
    };
    output.onFields((kinds, path) => {
      const change = changeOf(root, kinds, path);
      if (change === 'root-gone') end('its directory was deleted or moved');
      else if (change) events.change(change);
    }, 2);
    output.onOverflow((overflow) => end(describeOverflow(overflow, 'inotifywait')));
    stderr.onLine((line) => {
      if (line.startsWith(CANNOT_GROW)) end('it outgrew the inotify entries it reserved');
    });
    void exited.then(() => end('inotifywait exited'));
    return { close };
  }

  /** The refusal a watch that did not start stands for. */
  async #refusal(stderr: Lines, path: string, reserved?: number, left?: number): Promise<Error> {
    await stderr.ended;
    const text = stderr.text();
    const failure = reportedFailure(text);
    if (failure)
      return fileError(failure, PATH_FIELD, { isMaking: false, hint: ': watch a directory' });
    // The tree grew between the count and the watch past what was reserved for it.
    if (reserved !== undefined && /upper limit on inotify watches/.test(text))
      return refusals.watchEntriesTaken(reserved + 1, left ?? 0, this.#budget.perSession);
    // The directory went, or became a link, between the checks and the watch.
    if (/Couldn't watch .*(No such file|Not a directory|Too many levels)/.test(text))
      return notFound('directory', path);
    if (/Couldn't watch .*Permission denied/.test(text))
      return fileError(new FileFailure('denied', path), PATH_FIELD, { isMaking: false });
    return new Error(`the watch of ${path} did not start: ${text.slice(0, 500)}`);
  }
}

const PATH_FIELD = { location: 'body', name: 'path' } as const;

/**
 * The change an inotifywait event stands for (`kinds` such as `CREATE,ISDIR`, `path` as it
 * printed it), 'root-gone' when the watched directory itself went, undefined for what a watch does
 * not report (a subdirectory's own deletion, already reported by its parent).
 */
export function changeOf(
  root: string,
  kinds: string,
  printed: string,
): FsChange | 'root-gone' | undefined {
  const flags = new Set(kinds.split(','));
  const path = posix.normalize(printed).replace(/(.)\/$/, '$1');
  if (flags.has('DELETE_SELF') || flags.has('MOVE_SELF'))
    return path === root ? 'root-gone' : undefined;
  const type =
    flags.has('CREATE') || flags.has('MOVED_TO')
      ? 'CREATE'
      : flags.has('DELETE') || flags.has('MOVED_FROM')
        ? 'DELETE'
        : flags.has('MODIFY')
          ? 'WRITE'
          : undefined;
  if (!type) return undefined;
  return { type, path, name: posix.basename(path), is_dir: flags.has('ISDIR') };
}

/**
 * NUL-ended fields of a stream, taken a few at a time, read with the bounded reader: a field
 * past MAX_PENDING_BYTES, or a listener that throws, ends the reading and is told to
 * `onOverflow`, which ends the watch.
 */
class NulFields {
  readonly #stream: Readable;
  readonly #fields: string[] = [];
  #listener: ((fields: string[]) => void) | undefined;
  #group = 1;
  #onOverflow: (overflow: Overflow) => void = () => undefined;

  constructor(stream: Readable) {
    this.#stream = stream;
    readBoundedRecords(stream, {
      delimiter: 0,
      maxRecordBytes: MAX_PENDING_BYTES,
      onRecord: (field) => {
        this.#fields.push(field.toString('utf8'));
        this.#deliver();
      },
      onOverflow: (overflow) => this.#onOverflow(overflow),
    });
  }

  /** The next `count` fields, once they are there. */
  take(count: number): Promise<string[]> {
    return new Promise((resolve) => {
      this.#group = count;
      this.#listener = (fields) => {
        this.#listener = undefined;
        resolve(fields);
      };
      this.#deliver();
    });
  }

  /** Every group of `count` fields from now on. */
  onFields(listener: (...fields: string[]) => void, count: number): void {
    this.#group = count;
    this.#listener = (fields) => listener(...fields);
    this.#deliver();
  }

  onOverflow(listener: (overflow: Overflow) => void): void {
    this.#onOverflow = listener;
  }

  #deliver(): void {
    while (this.#listener && this.#fields.length >= this.#group)
      this.#listener(this.#fields.splice(0, this.#group));
    if (this.#fields.length > 0 && !this.#listener) this.#stream.pause();
    else this.#stream.resume();
  }
}

/** A stream's lines, the first MAX_STDERR_BYTES of them kept, and a wait for a given one. */
class Lines {
  #text = '';
  #pending = '';
  readonly #listeners = new Set<(line: string) => void>();
  readonly ended: Promise<void>;

  constructor(stream: Readable) {
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      if (this.#text.length < MAX_STDERR_BYTES) this.#text += chunk;
      this.#pending += chunk;
      const lines = this.#pending.split('\n');
      this.#pending = (lines.pop() ?? '').slice(-MAX_STDERR_BYTES);
      for (const line of lines) {
        for (const listener of this.#listeners) {
          try {
            listener(line);
          } catch {
            // A listener that fails misses the line; it never throws into the process.
          }
        }
      }
    });
    this.ended = new Promise((resolve) => stream.once('close', () => resolve()));
  }

  text(): string {
    return this.#text;
  }

  onLine(listener: (line: string) => void): void {
    this.#listeners.add(listener);
  }

  /** Resolves true once a line starting with `start` is seen. */
  waitFor(start: string): Promise<boolean> {
    if (this.#text.split('\n').some((line) => line.startsWith(start))) return Promise.resolve(true);
    return new Promise((resolve) => {
      const listener = (line: string) => {
        if (!line.startsWith(start)) return;
        this.#listeners.delete(listener);
        resolve(true);
      };
      this.#listeners.add(listener);
    });
  }
}
