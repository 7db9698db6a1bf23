import type { Caller } from '../pipeline/auth.js';

/** An operator's token: organization-wide, may write. */
export const OPERATOR: Caller = {
  token: 't',
  isReadOnly: false,
  keyId: 'op_1',
  keyName: 'operator token',
  strategy: 'operator_token',
  project: undefined,
};

/** A key of one project, as `POST /org/api_keys` makes one (or a deployed app is given). */
export const keyOf = (project: string): Caller => ({
  ...OPERATOR,
  keyId: 'key_1',
  strategy: 'api_key',
  project,
});
