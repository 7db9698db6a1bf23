import type { Logger } from 'pino';

/**
 * What the stages of a start took, in order, each with how to give it back: a start that fails
 * half-way gives back what it took, newest first, so a failed start leaves nothing behind.
 */
export class Teardown {
  readonly #undo: { readonly what: string; readonly undo: () => unknown }[] = [];

  /** Notes what a stage took (`what`, for the log) and how to give it back. */
  add(what: string, undo: () => unknown): void {
    this.#undo.push({ what, undo });
  }

  /** Gives back everything taken, newest first; a failure is logged and the rest still go. */
  async unwind(logger: Logger): Promise<void> {
    for (const { what, undo } of this.#undo.splice(0).reverse()) {
      try {
        await undo();
      } catch (error) {
        logger.error({ err: error, what }, 'a failed start could not give back what it took');
      }
    }
  }
}
