import { CliError } from '../cli-error.js';
import { EXIT_CODES } from '../exit-codes.js';
import type { CommandContext } from './command.js';

/** Longest answer read, in characters. */
const MAX_ANSWER = 4096;

/**
 * Asks questions on stderr and reads the answers from stdin, a line each. On a terminal a
 * secret's keys are not shown (raw mode, Backspace erases, Ctrl-C stops); from a pipe, the lines
 * come in the order of the questions.
 */
export class Prompter {
  readonly #context: CommandContext;
  readonly #input: AsyncIterator<Uint8Array | string>;
  #buffer = '';
  #isEnded = false;

  constructor(context: CommandContext) {
    this.#context = context;
    this.#input = context.io.stdin[Symbol.asyncIterator]();
  }

  async ask(question: string, isSecret: boolean): Promise<string> {
    const { stderr, terminal } = this.#context.io;
    stderr.write(question);
    const isHidden = isSecret && terminal !== undefined;
    if (isHidden) terminal.setRawMode(true);
    try {
      return await this.#line(isHidden);
    } finally {
      if (isHidden) {
        terminal.setRawMode(false);
        stderr.write('\n');
      }
    }
  }

  async #line(isRaw: boolean): Promise<string> {
    return isRaw ? this.#keys() : this.#nextLine();
  }

  /** A line typed in raw mode, key by key: Enter ends it, Backspace erases, Ctrl-C stops. */
  async #keys(): Promise<string> {
    let answer = '';
    for (;;) {
      while (this.#buffer.length > 0) {
        const character = this.#buffer[0] as string;
        this.#buffer = this.#buffer.slice(1);
        if (character === '\u0003') throw new CliError('Interrupted.', EXIT_CODES.interrupted);
        if (character === '\r' || character === '\n') return answer;
        if (character === '\u007f' || character === '\b') answer = answer.slice(0, -1);
        else if (answer.length < MAX_ANSWER) answer += character;
      }
      const more = await this.#more();
      if (more === undefined) return answer;
      this.#buffer += more;
    }
  }

  /** The next line of stdin (its end ends the last one); an error when nothing is left. */
  async #nextLine(): Promise<string> {
    for (;;) {
      const end = this.#buffer.search(/\r?\n/);
      if (end !== -1) {
        const line = this.#buffer.slice(0, end);
        this.#buffer = this.#buffer.slice(end).replace(/^\r?\n/, '');
        return line.slice(0, MAX_ANSWER);
      }
      const more = await this.#more();
      if (more === undefined) {
        const rest = this.#buffer;
        this.#buffer = '';
        if (rest === '')
          throw new CliError('stdin ended before every answer was given.', EXIT_CODES.usage);
        return rest.slice(0, MAX_ANSWER);
      }
      this.#buffer += more;
    }
  }

  async #more(): Promise<string | undefined> {
    if (this.#isEnded) return undefined;
    const next = await this.#input.next();
    if (next.done) {
      this.#isEnded = true;
      return undefined;
    }
    return typeof next.value === 'string' ? next.value : Buffer.from(next.value).toString('utf8');
  }
}
