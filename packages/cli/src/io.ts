/** Where a stream of the CLI writes: process.stdout and process.stderr, or a test's buffer. */
export interface CliOutput {
  write(chunk: string | Uint8Array): unknown;
  /** Whether it is a terminal: tables, color and progress only go to one. */
  readonly isTTY?: boolean;
  /** Width of the terminal, when it is one. */
  readonly columns?: number;
}

/** Everything the CLI touches outside itself, so tests can run it in-process. */
export interface CliIo {
  readonly stdout: CliOutput;
  readonly stderr: CliOutput;
  /** Read for `-` arguments (text to type, a token). */
  readonly stdin: AsyncIterable<Uint8Array | string>;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Relative paths are read and written from here. */
  readonly cwd: string;
  /** The fetch the client uses (a fake's in-process fetch in tests); the global one by default. */
  readonly fetch?: typeof fetch;
  /** Aborts on Ctrl-C: the command stops and the CLI exits 130. */
  readonly signal?: AbortSignal;
  /** The terminal stdin and stdout are on, when they are (`xb process attach` drives it). */
  readonly terminal?: CliTerminal;
}

/** A person's terminal: raw input, its size, and its changes of size. */
export interface CliTerminal {
  /** Raw: every key goes through as it is typed (Ctrl-C too), nothing is echoed locally. */
  setRawMode(isRaw: boolean): void;
  size(): { readonly rows: number; readonly cols: number };
  /** Calls `listener` on each change of size (SIGWINCH); gives the function that stops it. */
  onResize(listener: () => void): () => void;
}

/** The process's terminal, when both stdin and stdout are one. */
function processTerminal(): CliTerminal | undefined {
  if (!process.stdin.isTTY || !process.stdout.isTTY) return undefined;
  return {
    setRawMode: (isRaw) => process.stdin.setRawMode(isRaw),
    size: () => ({ rows: process.stdout.rows, cols: process.stdout.columns }),
    onResize: (listener) => {
      process.stdout.on('resize', listener);
      return () => process.stdout.off('resize', listener);
    },
  };
}

/** The real process's streams, environment and Ctrl-C. */
export function nodeIo(signal?: AbortSignal): CliIo {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    env: process.env,
    cwd: process.cwd(),
    ...(signal ? { signal } : {}),
    ...(processTerminal() ? { terminal: processTerminal() } : {}),
  };
}
