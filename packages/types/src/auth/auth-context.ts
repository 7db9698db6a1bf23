import { boolean, type InferOutput, nullable, object, picklist, string } from 'valibot';
import { described } from '../common/describe.js';

/** The id of the one organization a server (or a cluster over one store) serves. */
export const ORGANIZATION_ID = 'default';

/** A scope: the one project it is limited to, or null for the whole organization. */
const ScopeSchema = /* @__PURE__ */ object({
  project_id: /* @__PURE__ */ described(
    /* @__PURE__ */ nullable(/* @__PURE__ */ string()),
    'the project; null: the whole organization',
  ),
});

/**
 * Who the caller is and what it reaches, as `GET /auth/context` answers it: Kernel's shape, with
 * three fields of this project's own (`auth_strategy`, `credential_name`, `read_only`). A
 * caller here always shows a token: an operator's token (`XB_TOKENS`) or an API key, both
 * principals of type `api_key` (neither is a person).
 */
export const AuthContextSchema = /* @__PURE__ */ object({
  authentication: /* @__PURE__ */ described(
    /* @__PURE__ */ object({
      method: /* @__PURE__ */ described(
        /* @__PURE__ */ picklist(['api_key', 'jwt']),
        'how the caller proved who it is: api_key (a bearer token) here',
      ),
      source: /* @__PURE__ */ described(
        /* @__PURE__ */ picklist(['api_key', 'oauth', 'dashboard']),
        'where the credential came from: api_key here',
      ),
      credential_id: /* @__PURE__ */ described(
        /* @__PURE__ */ nullable(/* @__PURE__ */ string()),
        "the API key's id, or op_ and a short hash of an operator's token (the audit log's key_id)",
      ),
      credential_name: /* @__PURE__ */ described(
        /* @__PURE__ */ string(),
        "this project's own: the API key's name, or `operator token` (`operator token (read-only)`)",
      ),
      auth_strategy: /* @__PURE__ */ described(
        /* @__PURE__ */ picklist(['operator_token', 'api_key']),
        "this project's own: operator_token (XB_TOKENS) or api_key, as the audit log names it",
      ),
    }),
    'how the caller authenticated',
  ),
  authorization: /* @__PURE__ */ described(
    /* @__PURE__ */ object({
      credential_scope: /* @__PURE__ */ described(
        ScopeSchema,
        "the widest the credential reaches: a project key's project, else null",
      ),
      effective_scope: /* @__PURE__ */ described(
        ScopeSchema,
        'the project this call acts in: X-Kernel-Project-Id, else the key’s project, else default; never null here',
      ),
      read_only: /* @__PURE__ */ described(
        /* @__PURE__ */ boolean(),
        "this project's own: true when the credential reads records and metrics only",
      ),
    }),
    'what the caller reaches',
  ),
  organization: /* @__PURE__ */ described(
    /* @__PURE__ */ object({
      id: /* @__PURE__ */ described(
        /* @__PURE__ */ string(),
        'the organization: a server serves one, `default`',
      ),
    }),
    'the organization the caller belongs to',
  ),
  principal: /* @__PURE__ */ described(
    /* @__PURE__ */ object({
      id: /* @__PURE__ */ described(/* @__PURE__ */ string(), 'the same id as credential_id'),
      type: /* @__PURE__ */ described(
        /* @__PURE__ */ picklist(['api_key', 'user']),
        'api_key here: no caller is a signed-in person',
      ),
    }),
    'who calls',
  ),
});

/** Who the caller is and what it reaches. */
export type AuthContext = InferOutput<typeof AuthContextSchema>;
