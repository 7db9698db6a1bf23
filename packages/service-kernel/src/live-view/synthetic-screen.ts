import type { ScreenFrame, ScreenSize, ScreenStream } from '../engines.js';

interface OpenStream {
  readonly onFrame: (frame: ScreenFrame) => void;
  size: ScreenSize;
  wants: boolean;
  /** The screen changed since its last frame. */
  isStale: boolean;
}

/**
 * The screen streams of an in-memory browser (the fake's, a test's): `render` draws the screen as
 * it is now; `changed()` says it changed. Each stream gets the current picture at once, then one
 * after each change once it asked for the next, as a real engine's do.
 */
export class SyntheticScreen {
  readonly #render: (size: ScreenSize) => ScreenFrame;
  readonly #streams = new Set<OpenStream>();
  /** Frames drawn for streams so far (a test tells a stopped stream by it). */
  framesDrawn = 0;
  /** Size changes asked for so far. */
  resizes = 0;

  constructor(render: (size: ScreenSize) => ScreenFrame) {
    this.#render = render;
  }

  /** Streams open now. */
  get streamCount(): number {
    return this.#streams.size;
  }

  open(size: ScreenSize, onFrame: (frame: ScreenFrame) => void): ScreenStream {
    const stream: OpenStream = { onFrame, size, wants: true, isStale: true };
    this.#streams.add(stream);
    queueMicrotask(() => this.#deliver(stream));
    return {
      next: () => {
        stream.wants = true;
        this.#deliver(stream);
      },
      resize: (next) => {
        this.resizes += 1;
        stream.size = next;
      },
      stop: async () => {
        this.#streams.delete(stream);
      },
    };
  }

  /** The screen changed: every stream that asked for the next frame gets it. */
  changed(): void {
    for (const stream of this.#streams) {
      stream.isStale = true;
      this.#deliver(stream);
    }
  }

  #deliver(stream: OpenStream): void {
    if (!this.#streams.has(stream) || !stream.wants || !stream.isStale) return;
    stream.wants = false;
    stream.isStale = false;
    this.framesDrawn += 1;
    stream.onFrame(this.#render(stream.size));
  }
}
