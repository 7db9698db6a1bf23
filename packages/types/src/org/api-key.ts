import {
  array,
  boolean,
  type InferInput,
  type InferOutput,
  maxLength,
  minLength,
  nullable,
  object,
  optional,
  picklist,
  pipe,
  regex,
  string,
} from 'valibot';
import { QueryBooleanSchema } from '../browser-pools/pool-requests.js';
import { described } from '../common/describe.js';
import { integerBetween } from '../common/numbers.js';
import { pageQueryEntries, QueryTextSchema } from '../common/pages.js';
import { requestObject } from '../common/request-object.js';
import { IdOrNameSchema, TimestampSchema } from '../common/scalars.js';

/** Longest a key may be made to last, in days. */
export const MAX_KEY_DAYS = 3650;

/** Most API keys one server keeps (deleted ones included, until they are pruned with the log). */
export const MAX_API_KEYS = 10_000;

/**
 * An API key as it is listed: never the key itself (kept only as a hash), but its last
 * characters (`masked_key`), what it reaches and until when.
 */
export const ApiKeySchema = /* @__PURE__ */ object({
  id: /* @__PURE__ */ described(/* @__PURE__ */ string(), "the key's id"),
  name: /* @__PURE__ */ described(/* @__PURE__ */ string(), 'its label (not unique)'),
  masked_key: /* @__PURE__ */ described(
    /* @__PURE__ */ string(),
    'the key with all but its prefix and last four characters hidden',
  ),
  project_id: /* @__PURE__ */ described(
    /* @__PURE__ */ nullable(/* @__PURE__ */ string()),
    'the one project it reaches; null: every project',
  ),
  project_name: /* @__PURE__ */ described(
    /* @__PURE__ */ nullable(/* @__PURE__ */ string()),
    "that project's name; null for an organization-wide key",
  ),
  read_only: /* @__PURE__ */ described(
    /* @__PURE__ */ boolean(),
    'whether it may only read records and metrics',
  ),
  created_at: /* @__PURE__ */ described(TimestampSchema, 'when it was made (ISO 8601 UTC)'),
  expires_at: /* @__PURE__ */ described(
    /* @__PURE__ */ nullable(TimestampSchema),
    'when it stops working; null: never',
  ),
  deleted_at: /* @__PURE__ */ described(
    /* @__PURE__ */ nullable(TimestampSchema),
    'when it was deleted or rotated away; null while it works',
  ),
});

/** An API key as listed. */
export type ApiKey = InferOutput<typeof ApiKeySchema>;

/** An API key just made or rotated: the key itself, shown this once. */
export const CreatedApiKeySchema = /* @__PURE__ */ object({
  ...ApiKeySchema.entries,
  key: /* @__PURE__ */ described(
    /* @__PURE__ */ string(),
    'the key: shown only now, kept only as a hash',
  ),
});

/** An API key just made or rotated. */
export type CreatedApiKey = InferOutput<typeof CreatedApiKeySchema>;

/** One page of a GET /org/api_keys call. */
export const ApiKeyListSchema = /* @__PURE__ */ array(ApiKeySchema);

/** A key's label: 1–255 printable characters. */
const KeyNameSchema = /* @__PURE__ */ pipe(
  /* @__PURE__ */ string('must be a string'),
  /* @__PURE__ */ minLength(1, 'must not be empty'),
  /* @__PURE__ */ maxLength(255, 'must be at most 255 characters'),
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters
  /* @__PURE__ */ regex(/^[^\u0000-\u001f\u007f]*$/, 'must not hold control characters'),
);

const DaysSchema = /* @__PURE__ */ optional(
  /* @__PURE__ */ nullable(/* @__PURE__ */ integerBetween(1, MAX_KEY_DAYS)),
);

/** Body of POST /org/api_keys. */
export const CreateApiKeyBodySchema = /* @__PURE__ */ requestObject({
  name: /* @__PURE__ */ described(KeyNameSchema, 'a label, 1–255 characters'),
  project_id: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ nullable(IdOrNameSchema)),
    'the one project it reaches (id or name); absent: every project',
  ),
  read_only: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ boolean(), false),
    'it may only read records and metrics, default false',
  ),
  days_to_expire: /* @__PURE__ */ described(
    DaysSchema,
    `days until it stops working, 1–${MAX_KEY_DAYS}; absent or null: never`,
  ),
});

/** What a create-key call asks for. */
export type CreateApiKeyInput = InferInput<typeof CreateApiKeyBodySchema>;

/** Body of PATCH /org/api_keys/{id}: a new label. */
export const UpdateApiKeyBodySchema = /* @__PURE__ */ requestObject({
  name: /* @__PURE__ */ described(KeyNameSchema, 'the new label'),
});

/** Body of POST /org/api_keys/{id}/rotate. */
export const RotateApiKeyBodySchema = /* @__PURE__ */ optional(
  /* @__PURE__ */ requestObject({
    days_to_expire: /* @__PURE__ */ described(
      DaysSchema,
      "the new key's lifetime in days; absent: the old key's lifetime",
    ),
    expire_in_days: /* @__PURE__ */ described(
      /* @__PURE__ */ optional(/* @__PURE__ */ nullable(/* @__PURE__ */ integerBetween(0, 30))),
      'days the old key keeps working, 0–30; absent or 0: it stops now',
    ),
  }),
);

/** What a rotate-key call asks for. */
export type RotateApiKeyInput = InferInput<typeof RotateApiKeyBodySchema>;

/** Which keys a list gives. */
export const API_KEY_LIST_STATUSES = ['active', 'deleted', 'all'] as const;

/** Query of GET /org/api_keys. */
export const ListApiKeysQuerySchema = /* @__PURE__ */ requestObject({
  ...pageQueryEntries,
  status: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(
      /* @__PURE__ */ picklist(API_KEY_LIST_STATUSES, 'must be active, deleted or all'),
      'active',
    ),
    'active (default), deleted, or all',
  ),
  name: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(KeyNameSchema),
    'only keys with exactly this label',
  ),
  query: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(QueryTextSchema),
    'only keys whose id, label or project contains this, any case',
  ),
});

/** A query of GET /org/api_keys, validated. */
export type ApiKeyListQuery = InferOutput<typeof ListApiKeysQuerySchema>;

/** Query of GET /org/api_keys/{id}. */
export const GetApiKeyQuerySchema = /* @__PURE__ */ requestObject({
  include_deleted: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(QueryBooleanSchema, false),
    'answer for a deleted key too, default false',
  ),
});
