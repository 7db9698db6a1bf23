/**
 * The generated named types are what the catalog's schemas infer, exactly: every method of the
 * client and every operation function takes and answers the same types as the catalog-derived
 * ones of `test-support/catalog-types.ts`. A field added to a schema and not generated fails here.
 */

import type * as types from '@x/types';
import type { CatalogOperation, OperationName } from '@x/types';
import { describe, expectTypeOf, it } from 'vitest';
import type { OperationCall } from '../calls/define-call.js';
import type { CatalogEntry } from '../calls/route.js';
import type { ClientMethod } from '../test-support/catalog-types.js';
import type * as functions from './index.js';
import type { ClientMethods, ErrorBody, ErrorDetail } from './index.js';

/** Whether two types are identical (not merely assignable either way). */
type Equal<A, B> =
  (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

/** The member of `T` at a dotted path. */
type At<T, TPath extends string> = TPath extends `${infer Head}.${infer Rest}`
  ? Head extends keyof T
    ? At<T[Head], Rest>
    : never
  : TPath extends keyof T
    ? T[TPath]
    : never;

type OperationOf<N extends OperationName> = Extract<CatalogOperation, { name: N }>;

/** The operations whose generated method differs from what the catalog infers (none). */
type MethodMismatches = {
  [N in OperationName]: Equal<At<ClientMethods, N>, ClientMethod<OperationOf<N>>> extends true
    ? never
    : N;
}[OperationName];

/** The export name of each operation's function, by operation name. */
type FunctionNames = {
  [K in keyof typeof types as K extends `${string}Operation`
    ? (typeof types)[K] extends { readonly name: infer N extends OperationName }
      ? N
      : never
    : never]: K extends `${infer F}Operation` ? F : never;
};

/** The operations whose function's type is not its method's with a core in front (none). */
type FunctionMismatches = {
  [N in OperationName]: FunctionNames[N] extends keyof typeof functions
    ? At<ClientMethods, N> extends (...args: infer A) => infer R
      ? Equal<
          (typeof functions)[FunctionNames[N]],
          OperationCall<NonNullable<A[0]>, R>
        > extends true
        ? never
        : N
      : N
    : N;
}[OperationName];

describe('the generated types', () => {
  it('are exactly what the schemas infer, for every method', () => {
    expectTypeOf<MethodMismatches>().toEqualTypeOf<never>();
  });

  it('type every operation function as its method, with a core in front', () => {
    expectTypeOf<FunctionMismatches>().toEqualTypeOf<never>();
  });

  it('name the error body as the catalog does', () => {
    expectTypeOf<ErrorBody>().toEqualTypeOf<types.ErrorBody>();
    expectTypeOf<ErrorDetail>().toEqualTypeOf<types.ErrorDetail>();
  });

  it('take every catalog operation where an operation is asked for (checked, routeOf)', () => {
    expectTypeOf<CatalogOperation>().toExtend<CatalogEntry>();
  });
});
