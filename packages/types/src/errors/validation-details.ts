import { type BaseIssue, getDotPath } from 'valibot';
import type { ErrorDetail } from './error-body.js';
import { INVALID_INPUT } from './error-codes.js';

/**
 * Turns validation issues into error details, one per problem, each naming the field path
 * (`delay: must be >= 0`), so a person can see at once which field to fix.
 */
export function validationDetails(
  issues: readonly BaseIssue<unknown>[],
  location?: string,
): ErrorDetail[] {
  return issues.map((issue) => {
    const path = /* @__PURE__ */ getDotPath(issue);
    const field = [location, path].filter(Boolean).join('.');
    return { code: INVALID_INPUT, message: field ? `${field}: ${issue.message}` : issue.message };
  });
}
