import {
  array,
  boolean,
  check,
  type InferInput,
  type InferOutput,
  maxLength,
  minLength,
  object,
  optional,
  picklist,
  pipe,
  string,
} from 'valibot';
import { described } from '../common/describe.js';
import { integerBetween } from '../common/numbers.js';
import { pageQueryEntries, QueryTextSchema } from '../common/pages.js';
import { requestObject } from '../common/request-object.js';
import { NameSchema, TimestampSchema } from '../common/scalars.js';

/** The kinds of credential provider: 1Password, through a 1Password Connect server. */
export const CREDENTIAL_PROVIDER_TYPES = ['onepassword'] as const;

/** Bounds of a credential provider's settings. */
export const CREDENTIAL_PROVIDER_LIMITS = {
  /** Longest token. */
  tokenChars: 8192,
  /** Longest and default time its item lists are kept, in seconds. */
  cacheTtlMaxSeconds: 86_400,
  cacheTtlDefaultSeconds: 300,
  /** Lowest and highest priority. */
  priorityMax: 1000,
  /** Most projects a provider may be opened to. */
  allowedProjects: 100,
} as const;

/** The projects a provider is opened to, by id. */
const AllowedProjectsSchema = /* @__PURE__ */ pipe(
  /* @__PURE__ */ array(NameSchema, 'must be an array of project ids'),
  /* @__PURE__ */ maxLength(
    CREDENTIAL_PROVIDER_LIMITS.allowedProjects,
    `must name at most ${CREDENTIAL_PROVIDER_LIMITS.allowedProjects} projects`,
  ),
);

/** An http or https URL with no credentials, query or fragment in it: where a provider answers. */
const ProviderUrlSchema = /* @__PURE__ */ pipe(
  /* @__PURE__ */ string('must be a string'),
  /* @__PURE__ */ maxLength(2048, 'must be at most 2048 characters'),
  /* @__PURE__ */ check((value) => {
    try {
      const url = new URL(value);
      return (
        (url.protocol === 'http:' || url.protocol === 'https:') &&
        url.username === '' &&
        url.password === '' &&
        url.search === '' &&
        url.hash === ''
      );
    } catch {
      return false;
    }
  }, 'must be an http or https URL without credentials, query or fragment'),
);

/** A provider's token: write-only, sealed at rest. */
const ProviderTokenSchema = /* @__PURE__ */ pipe(
  /* @__PURE__ */ string('must be a string'),
  /* @__PURE__ */ minLength(1, 'must not be empty'),
  /* @__PURE__ */ maxLength(
    CREDENTIAL_PROVIDER_LIMITS.tokenChars,
    `must be at most ${CREDENTIAL_PROVIDER_LIMITS.tokenChars} characters`,
  ),
);

const CacheTtlSchema = /* @__PURE__ */ integerBetween(
  0,
  CREDENTIAL_PROVIDER_LIMITS.cacheTtlMaxSeconds,
);

const PrioritySchema = /* @__PURE__ */ integerBetween(0, CREDENTIAL_PROVIDER_LIMITS.priorityMax);

/**
 * An external store of logins (a 1Password vault, through a 1Password Connect server) that sign-ins
 * read from. Its token is write-only: no answer carries it.
 */
export const CredentialProviderSchema = /* @__PURE__ */ object({
  id: /* @__PURE__ */ described(/* @__PURE__ */ string(), "the provider's id"),
  name: /* @__PURE__ */ described(
    /* @__PURE__ */ string(),
    "the provider's name, unique in the organization",
  ),
  provider_type: /* @__PURE__ */ described(
    /* @__PURE__ */ picklist(CREDENTIAL_PROVIDER_TYPES),
    'what kind of store it is: onepassword',
  ),
  url: /* @__PURE__ */ described(
    /* @__PURE__ */ string(),
    'where its server answers (the 1Password Connect server)',
  ),
  enabled: /* @__PURE__ */ described(
    /* @__PURE__ */ boolean(),
    'whether sign-ins look items up in it',
  ),
  priority: /* @__PURE__ */ described(
    /* @__PURE__ */ integerBetween(0, CREDENTIAL_PROVIDER_LIMITS.priorityMax),
    'its place when several providers are asked for a site: lower first',
  ),
  cache_ttl_seconds: /* @__PURE__ */ described(
    /* @__PURE__ */ integerBetween(0, CREDENTIAL_PROVIDER_LIMITS.cacheTtlMaxSeconds),
    'how long its lists of vaults and items are kept before it is asked again',
  ),
  allowed_projects: /* @__PURE__ */ described(
    /* @__PURE__ */ array(/* @__PURE__ */ string()),
    'the projects whose own keys may sign in with its items (by id); organization-wide keys always may',
  ),
  created_at: /* @__PURE__ */ described(TimestampSchema, 'when it was made (ISO 8601 UTC)'),
  updated_at: /* @__PURE__ */ described(TimestampSchema, 'when it last changed (ISO 8601 UTC)'),
});

/** A credential provider, as answered. */
export type CredentialProvider = InferOutput<typeof CredentialProviderSchema>;

/** One page of a GET /org/credential_providers call. */
export const CredentialProviderListSchema = /* @__PURE__ */ array(CredentialProviderSchema);

/** Body of POST /org/credential_providers. */
export const CreateCredentialProviderBodySchema = /* @__PURE__ */ requestObject({
  name: /* @__PURE__ */ described(
    NameSchema,
    'unique name in the organization, [A-Za-z0-9._-], 1–255 characters',
  ),
  provider_type: /* @__PURE__ */ described(
    /* @__PURE__ */ picklist(CREDENTIAL_PROVIDER_TYPES, 'must be onepassword'),
    'what kind of store it is: onepassword',
  ),
  token: /* @__PURE__ */ described(
    ProviderTokenSchema,
    'the token its server accepts (a 1Password Connect access token); write-only',
  ),
  url: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(ProviderUrlSchema),
    "its server's address (the 1Password Connect server); the operator's default when left out",
  ),
  cache_ttl_seconds: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(CacheTtlSchema, CREDENTIAL_PROVIDER_LIMITS.cacheTtlDefaultSeconds),
    `how long its lists are kept, in seconds (0–${CREDENTIAL_PROVIDER_LIMITS.cacheTtlMaxSeconds}, default ${CREDENTIAL_PROVIDER_LIMITS.cacheTtlDefaultSeconds})`,
  ),
  enabled: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ boolean('must be a boolean'), true),
    'whether sign-ins look items up in it (default true)',
  ),
  priority: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(PrioritySchema, 0),
    `its place among providers, lower first (0–${CREDENTIAL_PROVIDER_LIMITS.priorityMax}, default 0)`,
  ),
  allowed_projects: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(AllowedProjectsSchema, []),
    'the projects whose own keys may sign in with its items, by id (default none: only organization-wide keys may)',
  ),
});

/** What a create-provider call asks for. */
export type CreateCredentialProviderBody = InferOutput<typeof CreateCredentialProviderBodySchema>;

/** What a create-provider call takes, as a caller writes it. */
export type CreateCredentialProviderInput = InferInput<typeof CreateCredentialProviderBodySchema>;

/** Body of PATCH /org/credential_providers/{id_or_name}: the fields given change. */
export const UpdateCredentialProviderBodySchema = /* @__PURE__ */ requestObject({
  name: /* @__PURE__ */ described(/* @__PURE__ */ optional(NameSchema), 'new unique name'),
  token: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(ProviderTokenSchema),
    'a new token (rotation); write-only',
  ),
  url: /* @__PURE__ */ described(/* @__PURE__ */ optional(ProviderUrlSchema), 'a new address'),
  cache_ttl_seconds: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(CacheTtlSchema),
    'how long its lists are kept, in seconds',
  ),
  enabled: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ boolean('must be a boolean')),
    'whether sign-ins look items up in it',
  ),
  priority: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(PrioritySchema),
    'its place among providers, lower first',
  ),
  allowed_projects: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(AllowedProjectsSchema),
    'the projects whose own keys may sign in with its items, by id (replaces the list)',
  ),
});

/** What an update-provider call asks for. */
export type UpdateCredentialProviderBody = InferOutput<typeof UpdateCredentialProviderBodySchema>;

/** Query of GET /org/credential_providers. */
export const ListCredentialProvidersQuerySchema = /* @__PURE__ */ requestObject({
  ...pageQueryEntries,
  query: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(QueryTextSchema),
    'only providers whose name contains this (any case), or whose id it is',
  ),
});

/** A vault a provider's token reaches. */
export const ProviderVaultSchema = /* @__PURE__ */ object({
  id: /* @__PURE__ */ described(/* @__PURE__ */ string(), "the vault's id in the provider"),
  name: /* @__PURE__ */ described(/* @__PURE__ */ string(), "the vault's name"),
});

/** What POST /org/credential_providers/{id_or_name}/test answers. */
export const CredentialProviderTestResultSchema = /* @__PURE__ */ object({
  success: /* @__PURE__ */ described(
    /* @__PURE__ */ boolean(),
    'whether the provider answered and took the token',
  ),
  vaults: /* @__PURE__ */ described(
    /* @__PURE__ */ array(ProviderVaultSchema),
    'the vaults the token reaches (empty when it failed)',
  ),
  error: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ string()),
    'why it failed: refused, unreachable, the token not accepted',
  ),
});

/** The result of testing a credential provider. */
export type CredentialProviderTestResult = InferOutput<typeof CredentialProviderTestResultSchema>;

/** A login item of a provider (never its values). */
export const CredentialProviderItemSchema = /* @__PURE__ */ object({
  id: /* @__PURE__ */ described(/* @__PURE__ */ string(), "the item's id in the provider"),
  path: /* @__PURE__ */ described(
    /* @__PURE__ */ string(),
    'how a sign-in names it: "<vault name>/<item title>"',
  ),
  title: /* @__PURE__ */ described(/* @__PURE__ */ string(), "the item's title"),
  vault_id: /* @__PURE__ */ described(/* @__PURE__ */ string(), "its vault's id"),
  vault_name: /* @__PURE__ */ described(/* @__PURE__ */ string(), "its vault's name"),
  urls: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ array(/* @__PURE__ */ string())),
    'the sites it is for, as the item lists them',
  ),
});

/** A provider's login item. */
export type CredentialProviderItem = InferOutput<typeof CredentialProviderItemSchema>;

/** What GET /org/credential_providers/{id_or_name}/items answers. */
export const CredentialProviderItemsSchema = /* @__PURE__ */ object({
  items: /* @__PURE__ */ described(
    /* @__PURE__ */ array(CredentialProviderItemSchema),
    'the login items of every vault the token reaches',
  ),
});

/** A provider's login items. */
export type CredentialProviderItems = InferOutput<typeof CredentialProviderItemsSchema>;
