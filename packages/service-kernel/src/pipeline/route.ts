import { allowedMethods, matchOperation, type Operation, type OperationName } from '@x/types';
import { ServiceError } from '../service-error.js';

/** A call matched to its operation of the catalog, with the raw (decoded) path parameters. */
export interface Route {
  readonly operation: Operation & { readonly name: OperationName };
  readonly params: Readonly<Record<string, string>>;
}

/**
 * Step: the operation a method and path name, by the catalog (the one route table). 405 with an
 * `Allow` header when the path exists under other methods, 404 when it does not.
 */
export function routeCall(method: string, pathname: string): Route {
  const match = matchOperation(method, pathname);
  if (match) return { operation: match.operation as Route['operation'], params: match.params };
  const allowed = allowedMethods(pathname);
  if (allowed.length > 0) {
    throw new ServiceError('method_not_allowed', `${method} is not allowed on ${pathname}.`, {
      headers: { allow: allowed.join(', ') },
    });
  }
  throw new ServiceError('not_found', `No operation at ${method} ${pathname}.`);
}

/** The operation a call will reach, when it names one; for deciding how to read its body. */
export function operationOf(method: string, pathname: string): Operation | undefined {
  return matchOperation(method, pathname)?.operation as Operation | undefined;
}
