import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The folder of Debian's PostgreSQL programs (the newest installed), or undefined. */
export function postgresBin(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((name) => existsSync(join(root, name, 'bin', 'postgres')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : join(root, versions[0], 'bin');
}

/** The uid and gid PostgreSQL runs as: Debian's `postgres` user when root (it refuses root). */
function runAs(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const line = execFileSync('getent', ['passwd', 'postgres'], { encoding: 'utf8' });
  const [, , uid, gid] = line.trim().split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/**
 * A throw-away PostgreSQL cluster of a test run: `initdb` in a temporary folder, `postgres` on a
 * random loopback port (trust for loopback only, no password), stopped and removed by `stop()`.
 * Never the machine's own cluster. `restart()` stops it and starts it again on the same port and
 * data, as an operator's restart would.
 */
export class PostgresCluster {
  readonly port: number;
  readonly #bin: string;
  readonly #dir: string;
  readonly #user: { uid: number; gid: number } | undefined;
  readonly #isDurable: boolean;
  #process: ChildProcess | undefined;

  private constructor(bin: string, dir: string, port: number, isDurable: boolean) {
    this.#bin = bin;
    this.#dir = dir;
    this.port = port;
    this.#user = runAs();
    this.#isDurable = isDurable;
  }

  /** The URL of a database of the cluster (`postgres`, the maintenance one, by default). */
  url(database = 'postgres'): string {
    return `postgres://xb@127.0.0.1:${this.port}/${database}`;
  }

  /**
   * Starts one. Tests run it without fsync (nothing of it outlives the run); `durable` keeps
   * PostgreSQL's defaults, for a benchmark that compares it with a store that syncs.
   */
  static async start(options: { readonly durable?: boolean } = {}): Promise<PostgresCluster> {
    const bin = postgresBin();
    if (!bin) throw new Error('PostgreSQL is not installed (apt-get install postgresql)');
    const user = runAs();
    // PostgreSQL's own user must reach the folder: the test run's temporary folder is root's
    // alone, so as root the cluster lives in /tmp (removed by stop all the same).
    const dir = mkdtempSync(join(user ? '/tmp' : tmpdir(), 'xb-postgres-'));
    if (user) chownSync(dir, user.uid, user.gid);
    execFileSync(
      join(bin, 'initdb'),
      ['-D', join(dir, 'data'), '-U', 'xb', '--auth=trust', '--no-sync', '-E', 'UTF8'],
      { stdio: 'ignore', ...(user ?? {}), cwd: dir },
    );
    // A free port can be taken by another process before PostgreSQL binds it: then a new one.
    for (let attempt = 1; ; attempt++) {
      const cluster = new PostgresCluster(bin, dir, await freePort(), options.durable === true);
      try {
        await cluster.#run();
        return cluster;
      } catch (error) {
        if (attempt === 5 || !/already in use|could not bind/i.test(String(error))) throw error;
      }
    }
  }

  /** Creates an empty database and gives its URL. */
  createDatabase(name: string): string {
    if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a plain database name: ${name}`);
    execFileSync(
      join(this.#bin, 'psql'),
      ['-q', '-d', this.url(), '-c', `CREATE DATABASE ${name}`],
      {
        stdio: 'ignore',
      },
    );
    return this.url(name);
  }

  async #run(): Promise<void> {
    const child = spawn(
      join(this.#bin, 'postgres'),
      [
        '-D',
        join(this.#dir, 'data'),
        '-p',
        String(this.port),
        '-k',
        this.#dir,
        '-c',
        'listen_addresses=127.0.0.1',
        '-c',
        'max_connections=300',
        ...(this.#isDurable ? [] : ['-c', 'fsync=off']),
      ],
      { stdio: ['ignore', 'ignore', 'pipe'], ...(this.#user ?? {}), cwd: this.#dir },
    );
    this.#process = child;
    let log = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      log = (log + chunk.toString()).slice(-4000);
    });
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`postgres exited at start: ${log}`);
      if (/ready to accept connections/.test(log)) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    child.kill('SIGKILL');
    throw new Error(`postgres did not start in 30 s: ${log}`);
  }

  /** Stops the server (a fast shutdown: connections are cut) and waits until it has exited. */
  async halt(): Promise<void> {
    const child = this.#process;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGINT');
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(timer);
  }

  /** Starts the server again on the same port and data after `halt`. */
  resume(): Promise<void> {
    return this.#run();
  }

  /** Stops the server and removes its files. */
  async stop(): Promise<void> {
    await this.halt();
    rmSync(this.#dir, { recursive: true, force: true });
  }
}
