import type {
  AnySchema,
  CatalogOperation,
  Operation,
  OperationInput,
  OperationName,
} from '@x/types';
import type { InferOutput } from 'valibot';
import type { PagePromise } from '../calls/list-page.js';
import type { CallPromise } from '../client/call-promise.js';
import type { CallOptions } from '../client/options.js';
import type { BinaryBody } from '../streams/binary-body.js';
import type { EventStream } from '../streams/event-stream.js';
import type { UploadSource } from '../uploads/upload-source.js';

/*
 * The client's types as the catalog's schemas infer them. The client itself uses the generated
 * named types of `areas/` (cheap to check, readable in an editor); the type
 * tests prove those equal to these.
 */

/** What one described response gives the caller. */
export type ResponseResult<TResponse> = TResponse extends {
  kind: 'json';
  schema: infer S extends AnySchema;
}
  ? InferOutput<S>
  : TResponse extends { kind: 'event-stream'; eventSchema: infer S extends AnySchema }
    ? EventStream<InferOutput<S>>
    : TResponse extends { kind: 'binary' }
      ? BinaryBody
      : undefined;

type Statuses<T extends Operation> = keyof T['responses'] & number;

type IsUnion<T> = [T] extends [UnionToIntersection<T>] ? false : true;

/**
 * What a method resolves to: the value itself when the operation has one success response;
 * `{ status, value }` for each success status when it has several (acquire: 200 or 204).
 */
export type CallResult<T extends Operation> =
  IsUnion<Statuses<T>> extends true
    ? { [S in Statuses<T>]: { status: S; value: ResponseResult<T['responses'][S]> } }[Statuses<T>]
    : ResponseResult<T['responses'][Statuses<T>]>;

/** A field's type with a file taking any upload source, not only a Blob. */
type FileAsUpload<T> = T extends Blob ? UploadSource : T;

/**
 * A method's input: file fields take any upload source, not only a Blob, in the input and in
 * the objects of its lists (`files[].file`).
 */
export type CallInput<T extends Operation> = {
  [K in keyof OperationInput<T>]: OperationInput<T>[K] extends readonly (infer I)[]
    ? FilesAsUploads<I>[]
    : FileAsUpload<OperationInput<T>[K]>;
};

/** An object of a list with its files as upload sources (each member of a union alike). */
type FilesAsUploads<I> =
  I extends Record<string, unknown> ? { [F in keyof I]: FileAsUpload<I[F]> } : I;

/** The element type of a list operation's answer. */
export type ListItem<T extends Operation> = CallResult<T> extends readonly (infer I)[] ? I : never;

/** What a method returns: a page promise for a paginated list, else a call promise. */
export type MethodResult<T extends Operation> = T extends { readonly paginated: true }
  ? PagePromise<ListItem<T>>
  : CallPromise<CallResult<T>>;

/** One client method; its input may be left out when every field is optional. */
export type ClientMethod<T extends Operation> =
  Partial<CallInput<T>> extends CallInput<T>
    ? (input?: CallInput<T>, options?: CallOptions) => MethodResult<T>
    : (input: CallInput<T>, options?: CallOptions) => MethodResult<T>;

type Nest<TPath extends string, TLeaf> = TPath extends `${infer Head}.${infer Rest}`
  ? { readonly [K in Head]: Nest<Rest, TLeaf> }
  : { readonly [K in TPath]: TLeaf };

type UnionToIntersection<U> = (U extends unknown ? (value: U) => void : never) extends (
  value: infer I,
) => void
  ? I
  : never;

/** Every operation of the catalog as a method, grouped as the API is. */
export type ClientMethods = UnionToIntersection<
  {
    [N in OperationName]: Nest<N, ClientMethod<Extract<CatalogOperation, { name: N }>>>;
  }[OperationName]
>;
