/**
 * The API's error body, as the catalog describes it: every error answer carries one.
 *
 * Generated from the catalog of @x/types by `pnpm --filter @x/client generate`. Do not edit.
 */

export interface ErrorDetail {
  /** machine-readable code of this problem */
  code?: string | undefined;
  /** the problem, for people, naming its field */
  message?: string | undefined;
}

export interface ErrorBody {
  /** machine-readable error code */
  code: string;
  /** what went wrong, for people */
  message: string;
  /** one entry per problem, for validation errors */
  details?: ErrorDetail[] | undefined;
  /** the underlying error, when one caused this */
  inner_error?: ErrorDetail | undefined;
}
