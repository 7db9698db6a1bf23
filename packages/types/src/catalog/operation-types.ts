import type { InferInput, InferOutput } from 'valibot';
import type { AnySchema, Operation, OperationResponse } from './operation.js';

type InputOfSchema<TSchema> = TSchema extends AnySchema
  ? NonNullable<InferInput<TSchema>>
  : Record<never, never>;

type OutputOfSchema<TSchema> = TSchema extends AnySchema
  ? NonNullable<InferOutput<TSchema>>
  : Record<never, never>;

/** The path parameters an operation takes, as a caller writes them. */
export type OperationPathInput<T extends Operation> = InputOfSchema<T['pathParams']>;

/** The query parameters an operation takes, as a caller writes them. */
export type OperationQueryInput<T extends Operation> = InputOfSchema<T['query']>;

/** The path parameters an operation receives once validated. */
export type OperationPathParams<T extends Operation> = OutputOfSchema<T['pathParams']>;

/** The query parameters an operation receives once validated, with defaults applied. */
export type OperationQuery<T extends Operation> = OutputOfSchema<T['query']>;

/** The body fields (or form parts) an operation takes, as a caller writes them. */
export type OperationBodyInput<T extends Operation> = T['body'] extends { schema: infer S }
  ? InputOfSchema<S>
  : Record<never, never>;

/** The body fields an operation receives once validated, with defaults applied. */
export type OperationBody<T extends Operation> = T['body'] extends { schema: infer S }
  ? OutputOfSchema<S>
  : Record<never, never>;

/**
 * Everything a caller passes to one operation, flat: path parameters, query parameters and body
 * fields side by side (the catalog keeps their names apart).
 */
export type OperationInput<T extends Operation> = Simplify<
  OperationPathInput<T> & OperationQueryInput<T> & OperationBodyInput<T>
>;

/** Flattens an intersection into one object type, for readable hovers and exact type tests. */
type Simplify<T> = { [K in keyof T]: T[K] } & {};

/** What one success response of an operation carries. */
export type ResponseValue<TResponse extends OperationResponse> = TResponse extends {
  kind: 'json';
  schema: infer S extends AnySchema;
}
  ? InferOutput<S>
  : TResponse extends { kind: 'event-stream'; eventSchema: infer S extends AnySchema }
    ? InferOutput<S>
    : TResponse extends { kind: 'binary' }
      ? ReadableStream<Uint8Array>
      : undefined;

/** The success statuses of an operation, as a union of numbers. */
export type OperationSuccessStatus<T extends Operation> = keyof T['responses'] & number;

/** Every success outcome of an operation: its status with what that response carries. */
export type OperationOutcome<T extends Operation> = {
  [S in OperationSuccessStatus<T>]: { status: S; value: ResponseValue<T['responses'][S]> };
}[OperationSuccessStatus<T>];
