/** Property on every error of this package listing the kinds it is, most general first. */
const KINDS = Symbol.for('@x/client.error-kinds');

interface ErrorKinds {
  readonly [KINDS]?: readonly string[];
}

/**
 * The root of every error this package throws. `instanceof` (and `isInstance`) work across two
 * copies of the package in one bundle: they compare kind names, not class identity.
 */
export class XError extends Error {
  /** The kind name `instanceof` compares; unique per class. */
  static readonly kind: string = 'XError';
  /** Machine-readable code: the server's error code for API errors, or this package's own. */
  readonly code: string;
  declare readonly [KINDS]: readonly string[];

  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    // The kind, not the class's own name: a bundler may rename a class, never a string.
    this.name = Object.hasOwn(new.target, 'kind')
      ? (new.target as unknown as typeof XError).kind
      : new.target.name;
    const kinds: string[] = [];
    // Walk the whole class chain: a subclass that declares no kind of its own still is one of
    // each kind above it.
    for (let type: unknown = new.target; typeof type === 'function' && type !== Error; ) {
      if (Object.hasOwn(type, 'kind')) kinds.unshift((type as typeof XError).kind);
      type = Object.getPrototypeOf(type);
    }
    Object.defineProperty(this, KINDS, { value: Object.freeze(kinds) });
  }

  /** Whether `value` is an error of this class (or a subclass), from any copy of the package. */
  static isInstance<T extends abstract new (...args: never[]) => XError>(
    this: T,
    value: unknown,
  ): value is InstanceType<T> {
    const kinds = (value as ErrorKinds | null | undefined)?.[KINDS];
    // `this` is the class the check was called on (a subclass too), which is the point.
    // biome-ignore lint/complexity/noThisInStatic: the check is polymorphic on purpose
    return Array.isArray(kinds) && kinds.includes((this as unknown as { kind: string }).kind);
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    // biome-ignore lint/complexity/noThisInStatic: `instanceof` asks the class on its right
    return XError.isInstance.call(this as unknown as typeof XError, value);
  }
}

/** The client was set up wrongly (no token, no base URL). */
export class ConfigurationError extends XError {
  static override readonly kind: string = 'ConfigurationError';
  constructor(message: string) {
    super('invalid_configuration', message);
  }
}
