import { type AuthContext, ORGANIZATION_ID } from '@x/types';
import type { Caller } from '../pipeline/auth.js';

/**
 * Who a caller is, as `GET /auth/context` answers it. An operator's token and an API key both
 * show as principals of type `api_key`: neither is a signed-in person. `project` is the one the
 * call acts in, as the pipeline resolved it, so the effective scope is never null: every call
 * here acts in one project.
 */
export function authContextOf(caller: Caller, project: string): AuthContext {
  // This operation takes no session jwt, so a caller here has a bearer token.
  const strategy = caller.strategy === 'operator_token' ? 'operator_token' : 'api_key';
  return {
    authentication: {
      method: 'api_key',
      source: 'api_key',
      credential_id: caller.keyId,
      credential_name: caller.keyName,
      auth_strategy: strategy,
    },
    authorization: {
      credential_scope: { project_id: caller.project ?? null },
      effective_scope: { project_id: project },
      read_only: caller.isReadOnly,
    },
    organization: { id: ORGANIZATION_ID },
    principal: { id: caller.keyId, type: 'api_key' },
  };
}
