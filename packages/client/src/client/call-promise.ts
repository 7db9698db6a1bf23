/** A call's value together with the HTTP facts of its final response. */
export interface WithResponse<T> {
  data: T;
  response: Response;
  status: number;
  /** The `X-Request-Id` of the response. */
  requestId: string | undefined;
}

/**
 * The promise a client method returns: awaits to the value, and `withResponse()` gives the
 * status, headers and request id as well. The call starts at once, whichever is used.
 */
export class CallPromise<T> implements PromiseLike<T> {
  readonly #result: Promise<WithResponse<T>>;

  constructor(result: Promise<WithResponse<T>>) {
    this.#result = result;
    // Whichever of the two views the caller awaits reports the failure; the other stays quiet.
    result.catch(() => {});
  }

  /** The value with the response it came from. */
  withResponse(): Promise<WithResponse<T>> {
    return this.#result;
  }

  // biome-ignore lint/suspicious/noThenProperty: a call is awaited like a promise, by design
  then<TResult1 = T, TResult2 = never>(
    onFulfilled?: ((value: T) => TResult1 | PromiseLike<TResult1>) | null,
    onRejected?: ((reason: unknown) => TResult2 | PromiseLike<TResult2>) | null,
  ): Promise<TResult1 | TResult2> {
    return this.#result.then((result) => result.data).then(onFulfilled, onRejected);
  }

  catch<TResult = never>(
    onRejected?: ((reason: unknown) => TResult | PromiseLike<TResult>) | null,
  ): Promise<T | TResult> {
    return this.then(undefined, onRejected);
  }

  finally(onFinally?: (() => void) | null): Promise<T> {
    return this.then().finally(onFinally);
  }
}
