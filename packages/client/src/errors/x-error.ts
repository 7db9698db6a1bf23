/**
 * The root of every error this package throws. `instanceof` (and `isInstance`) work across two
 * copies of the package in one bundle: they compare the kind names along the value's class
 * chain, not class identity.
 */
export class XError extends Error {
  /** The kind name `instanceof` compares; unique per class. */
  static readonly kind: string = 'XError';
  /** Machine-readable code: the server's error code for API errors, or this package's own. */
  declare readonly code: string;

  /** `facts` become the error's own fields (`status`, `details`, …), as each subclass declares. */
  constructor(code: string, message: string, options?: { cause?: unknown }, facts?: object) {
    super(message, options);
    const type = new.target as unknown as typeof XError;
    // The name is the kind, not the class's own name: a bundler may rename a class, never a string.
    Object.assign(this, facts, { code, name: Object.hasOwn(type, 'kind') ? type.kind : type.name });
  }

  /** Whether `value` is an error of this class (or a subclass), from any copy of the package. */
  static isInstance<T extends abstract new (...args: never[]) => XError>(
    this: T,
    value: unknown,
  ): value is InstanceType<T> {
    // `this` is the class the check was called on (a subclass too), which is the point.
    // biome-ignore lint/complexity/noThisInStatic: the check is polymorphic on purpose
    const kind = (this as unknown as typeof XError).kind;
    let type = (value as object | null | undefined)?.constructor;
    for (; type; type = Object.getPrototypeOf(type)) {
      // A class that declares no kind of its own is still one of each kind above it.
      if (Object.hasOwn(type, 'kind') && (type as typeof XError).kind === kind) return true;
    }
    return false;
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
