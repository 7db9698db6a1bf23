import {
  array,
  boolean,
  check,
  type InferInput,
  type InferOutput,
  maxLength,
  nullable,
  object,
  optional,
  pipe,
  record,
  regex,
  string,
  transform,
} from 'valibot';
import { described } from '../common/describe.js';
import { pageQueryEntries, QueryTextSchema } from '../common/pages.js';
import { requestObject } from '../common/request-object.js';
import { NameSchema, TimestampSchema } from '../common/scalars.js';

/** Bounds of a credential's values. */
export const CREDENTIAL_LIMITS = {
  /** Most named values one credential holds. */
  values: 50,
  /** Longest value name. */
  keyChars: 64,
  /** Longest value. */
  valueChars: 4096,
  /** Shortest and longest TOTP secret, in base32 characters (80 to 640 bits). */
  totpSecretMinChars: 16,
  totpSecretMaxChars: 128,
} as const;

/** A value's name: what the sign-in form's field is (`username`, `email`, `password`, `otp`). */
const ValueKeySchema = /* @__PURE__ */ pipe(
  /* @__PURE__ */ string('must be a string'),
  /* @__PURE__ */ regex(/^[A-Za-z0-9_.-]{1,64}$/, 'must be 1–64 characters of [A-Za-z0-9_.-]'),
);

/** The named values of a credential: `{ "username": "…", "password": "…" }`. */
const CredentialValuesSchema = /* @__PURE__ */ pipe(
  /* @__PURE__ */ record(
    ValueKeySchema,
    /* @__PURE__ */ pipe(
      /* @__PURE__ */ string('must be a string'),
      /* @__PURE__ */ maxLength(
        CREDENTIAL_LIMITS.valueChars,
        `must be at most ${CREDENTIAL_LIMITS.valueChars} characters`,
      ),
    ),
    'must be an object of named strings',
  ),
  /* @__PURE__ */ check(
    (values) => Object.keys(values).length <= CREDENTIAL_LIMITS.values,
    `must have at most ${CREDENTIAL_LIMITS.values} values`,
  ),
);

/** The site a credential signs in to: a host name, as its URL would show it. */
export const CredentialDomainSchema = /* @__PURE__ */ pipe(
  /* @__PURE__ */ string('must be a string'),
  /* @__PURE__ */ regex(
    /^(?=.{1,253}$)(\*\.)?[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/,
    'must be a host name such as example.com (or *.example.com)',
  ),
  /* @__PURE__ */ transform((domain) => domain.toLowerCase()),
);

/**
 * A TOTP secret as sites show it: base32, any case, spaces and `=` padding allowed (they are
 * dropped); 16–128 characters once they are.
 */
const TotpSecretSchema = /* @__PURE__ */ pipe(
  /* @__PURE__ */ string('must be a string'),
  /* @__PURE__ */ transform((secret) => secret.replace(/[\s=]/g, '').toUpperCase()),
  /* @__PURE__ */ check(
    (secret) => secret === '' || /^[A-Z2-7]+$/.test(secret),
    'must be base32 (A–Z, 2–7)',
  ),
  /* @__PURE__ */ check(
    (secret) =>
      secret === '' ||
      (secret.length >= CREDENTIAL_LIMITS.totpSecretMinChars &&
        secret.length <= CREDENTIAL_LIMITS.totpSecretMaxChars),
    `must be ${CREDENTIAL_LIMITS.totpSecretMinChars}–${CREDENTIAL_LIMITS.totpSecretMaxChars} base32 characters`,
  ),
);

/** An identity provider whose button a sign-in clicks first (`google`, `github`, `microsoft`, …). */
const SsoProviderSchema = /* @__PURE__ */ pipe(
  /* @__PURE__ */ string('must be a string'),
  /* @__PURE__ */ regex(/^[a-z0-9_-]{1,64}$/, 'must be 1–64 characters of [a-z0-9_-]'),
);

/**
 * A stored credential: a login for one site. Its values and TOTP secret are write-only: no answer
 * carries them, only which values it has and whether it has a TOTP secret.
 */
export const CredentialSchema = /* @__PURE__ */ object({
  id: /* @__PURE__ */ described(/* @__PURE__ */ string(), "the credential's id"),
  name: /* @__PURE__ */ described(
    /* @__PURE__ */ string(),
    "the credential's name, unique in its project",
  ),
  domain: /* @__PURE__ */ described(/* @__PURE__ */ string(), 'the site it signs in to'),
  created_at: /* @__PURE__ */ described(TimestampSchema, 'when it was made (ISO 8601 UTC)'),
  updated_at: /* @__PURE__ */ described(TimestampSchema, 'when it last changed (ISO 8601 UTC)'),
  has_values: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ boolean()),
    'whether it holds any value',
  ),
  has_totp_secret: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ boolean()),
    'whether it holds a TOTP secret',
  ),
  sso_provider: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ nullable(/* @__PURE__ */ string())),
    'the identity provider its sign-in goes through, if any',
  ),
  value_keys: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ array(/* @__PURE__ */ string())),
    'the names of its values (never the values); on single credentials, not in lists',
  ),
  totp_code: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ string()),
    'the current TOTP code, only in the answer to a call that just set the secret',
  ),
  totp_code_expires_at: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(TimestampSchema),
    'when that code stops being valid (ISO 8601 UTC)',
  ),
});

/** A stored credential, as answered. */
export type Credential = InferOutput<typeof CredentialSchema>;

/** One page of a GET /credentials call. */
export const CredentialListSchema = /* @__PURE__ */ array(CredentialSchema);

/** Body of POST /credentials. */
export const CreateCredentialBodySchema = /* @__PURE__ */ requestObject({
  domain: /* @__PURE__ */ described(
    CredentialDomainSchema,
    'the site it signs in to: a host name (example.com, or *.example.com for its subdomains)',
  ),
  name: /* @__PURE__ */ described(
    NameSchema,
    'unique name in the project, [A-Za-z0-9._-], 1–255 characters',
  ),
  values: /* @__PURE__ */ described(
    CredentialValuesSchema,
    `the values its sign-in fills, by name (username, email, password, …), at most ${CREDENTIAL_LIMITS.values}; write-only`,
  ),
  sso_provider: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(SsoProviderSchema),
    'an identity provider whose button its sign-in clicks first (google, github, microsoft, …)',
  ),
  totp_secret: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(TotpSecretSchema),
    'the base32 secret of its one-time codes (RFC 6238: 6 digits, 30 s, SHA-1); write-only',
  ),
});

/** What a create-credential call asks for. */
export type CreateCredentialBody = InferOutput<typeof CreateCredentialBodySchema>;

/** Body of PATCH /credentials/{id_or_name}: the fields given change; the rest stay. */
export const UpdateCredentialBodySchema = /* @__PURE__ */ requestObject({
  name: /* @__PURE__ */ described(/* @__PURE__ */ optional(NameSchema), 'new unique name'),
  values: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(CredentialValuesSchema),
    'values to add or overwrite, by name (the others stay)',
  ),
  remove_value_keys: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(
      /* @__PURE__ */ pipe(
        /* @__PURE__ */ array(ValueKeySchema, 'must be an array of value names'),
        /* @__PURE__ */ maxLength(
          CREDENTIAL_LIMITS.values,
          `must name at most ${CREDENTIAL_LIMITS.values} values`,
        ),
      ),
    ),
    'names of values to remove, applied before `values`',
  ),
  sso_provider: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ nullable(SsoProviderSchema)),
    'a new identity provider; null or "" clears it',
  ),
  totp_secret: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(TotpSecretSchema),
    'a new base32 TOTP secret; "" removes it',
  ),
});

/** What an update-credential call asks for. */
export type UpdateCredentialBody = InferOutput<typeof UpdateCredentialBodySchema>;

/** Query of GET /credentials. */
export const ListCredentialsQuerySchema = /* @__PURE__ */ requestObject({
  ...pageQueryEntries,
  domain: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(CredentialDomainSchema),
    'only credentials for exactly this site',
  ),
  query: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(QueryTextSchema),
    'only credentials whose name or site contains this (any case), or whose id it is',
  ),
});

/** What GET /credentials/{id_or_name}/totp-code answers. */
export const TotpCodeSchema = /* @__PURE__ */ object({
  code: /* @__PURE__ */ described(/* @__PURE__ */ string(), 'the current code, 6 digits'),
  expires_at: /* @__PURE__ */ described(
    TimestampSchema,
    'when it stops being valid: the end of its 30-second step (ISO 8601 UTC)',
  ),
});

/** A TOTP code and when it expires. */
export type TotpCode = InferOutput<typeof TotpCodeSchema>;

/** What a create-credential call takes, as a caller writes it. */
export type CreateCredentialInput = InferInput<typeof CreateCredentialBodySchema>;
