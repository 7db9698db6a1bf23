import type {
  HandlerContext as KernelHandlerContext,
  HandlerTable as KernelHandlerTable,
} from '@x/service-kernel';
import type { OperationName } from '@x/types';
import type { FakeRuntime } from './runtime.js';

/** What a fake handler is given: the validated request and the fake's runtime. */
export type HandlerContext<N extends OperationName = OperationName> = KernelHandlerContext<
  N,
  FakeRuntime
>;

/** The fake's handlers, one per operation of the catalog. */
export type HandlerTable = KernelHandlerTable<FakeRuntime>;
