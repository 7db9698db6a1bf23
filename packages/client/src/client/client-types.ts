import type {
  AnySchema,
  CatalogOperation,
  Operation,
  OperationInput,
  OperationName,
} from '@x/types';
import type { InferOutput } from 'valibot';
import type { ListItem, PagePromise } from '../calls/list-page.js';
import type { BinaryBody } from '../streams/binary-body.js';
import type { EventStream } from '../streams/event-stream.js';
import type { UploadSource } from '../uploads/upload-source.js';
import type { CallPromise } from './call-promise.js';
import type { CallOptions } from './options.js';

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

/** A method's input: file fields take any upload source, not only a Blob. */
export type CallInput<T extends Operation> = {
  [K in keyof OperationInput<T>]: OperationInput<T>[K] extends Blob
    ? UploadSource
    : OperationInput<T>[K];
};

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
