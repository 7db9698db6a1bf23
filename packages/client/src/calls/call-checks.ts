// The local checks of a call, in a file of their own: the client's options name them, and the
// modules that send a call import the options, so this file imports nothing.

/**
 * Local checks of a call against its operation's schemas (see `checked` and `catalogChecks`):
 * the input before anything is sent, the answer and each event after. Without them a call sends
 * what it is given and the service checks it.
 */
export interface CallChecks {
  /** Throws an InputValidationError naming every field that breaks the operation's rules. */
  input(input: Record<string, unknown>): void;
  /** The JSON answer of a status, as the schema gives it; a ResponseValidationError otherwise. */
  answer(value: unknown, status: number, response: Response): unknown;
  /** One event of an event stream, as the schema gives it; a ResponseValidationError otherwise. */
  event(value: unknown, response: Response): unknown;
}

/**
 * The checks of every call a client makes, by the call's operation name (`catalogChecks` gives
 * the catalog's); undefined for an operation it has none for, whose calls then go unchecked.
 */
export type ChecksByOperation = (route: { readonly name: string }) => CallChecks | undefined;
