import {
  array,
  boolean,
  check,
  type InferInput,
  type InferOutput,
  literal,
  maxLength,
  nullable,
  object,
  optional,
  picklist,
  pipe,
  record,
  regex,
  string,
  union,
} from 'valibot';
import { described } from '../common/describe.js';
import { integerBetween } from '../common/numbers.js';
import { pageQueryEntries, QueryTextSchema } from '../common/pages.js';
import { requestObject } from '../common/request-object.js';
import { NameSchema, TimestampSchema } from '../common/scalars.js';
import { HeartbeatEventSchema, StreamErrorEventSchema } from '../common/stream-events.js';
import { CredentialDomainSchema } from '../credentials/credential.js';

/** Bounds of an auth connection. */
export const AUTH_CONNECTION_LIMITS = {
  /** Shortest, longest and default time between health checks, in seconds. */
  healthCheckMinSeconds: 300,
  healthCheckMaxSeconds: 86_400,
  healthCheckDefaultSeconds: 3600,
  /** Most extra domains a sign-in may pass through. */
  allowedDomains: 20,
  /** Most values one submit gives. */
  submitValues: 20,
  /** Longest submitted value. */
  submitValueChars: 4096,
} as const;

/** Whether the profile is signed in to the site, as the last sign-in or check found it. */
export const AUTH_STATUSES = ['AUTHENTICATED', 'NEEDS_AUTH'] as const;

/** How a sign-in flow stands. */
export const FLOW_STATUSES = ['IN_PROGRESS', 'SUCCESS', 'FAILED', 'EXPIRED', 'CANCELED'] as const;

/** What a sign-in flow is doing. */
export const FLOW_STEPS = [
  'DISCOVERING',
  'AWAITING_INPUT',
  'AWAITING_EXTERNAL_ACTION',
  'SUBMITTING',
  'COMPLETED',
] as const;

/** Who started a flow: a caller (`LOGIN`) or the service after a failed health check (`REAUTH`). */
export const FLOW_TYPES = ['LOGIN', 'REAUTH'] as const;

/** What a field of a sign-in form asks for. */
export const AUTH_FIELD_TYPES = [
  'identifier',
  'password',
  'code',
  'totp_code',
  'totp_secret',
  'text',
] as const;

/** Kinds of entry in a connection's timeline. */
export const AUTH_TIMELINE_TYPES = ['login', 'reauth', 'health_check'] as const;

/** A login url: http or https. */
const LoginUrlSchema = /* @__PURE__ */ pipe(
  /* @__PURE__ */ string('must be a string'),
  /* @__PURE__ */ maxLength(2048, 'must be at most 2048 characters'),
  /* @__PURE__ */ check((value) => {
    if (value === '') return true;
    try {
      const { protocol } = new URL(value);
      return protocol === 'http:' || protocol === 'https:';
    } catch {
      return false;
    }
  }, 'must be an http or https URL'),
);

/**
 * Where a sign-in's values come from: a stored credential by name, a provider's item by path
 * (`"<vault>/<item>"`), or a provider's item found by the site (`auto: true`).
 */
const CredentialRefSchema = /* @__PURE__ */ union(
  [
    /* @__PURE__ */ requestObject({
      name: /* @__PURE__ */ described(NameSchema, 'a credential of the project, by name'),
    }),
    /* @__PURE__ */ requestObject({
      provider: /* @__PURE__ */ described(NameSchema, 'a credential provider, by name or id'),
      path: /* @__PURE__ */ described(
        /* @__PURE__ */ pipe(
          /* @__PURE__ */ string('must be a string'),
          /* @__PURE__ */ regex(/^[^/]+\/[^/]+$/, 'must be "<vault>/<item>"'),
        ),
        'the item, as "<vault>/<item>"',
      ),
    }),
    /* @__PURE__ */ requestObject({
      provider: /* @__PURE__ */ described(NameSchema, 'a credential provider, by name or id'),
      auto: /* @__PURE__ */ described(
        /* @__PURE__ */ literal(true, 'must be true'),
        "the provider's first item for the site",
      ),
    }),
  ],
  'must be {name}, {provider, path} or {provider, auto: true}',
);

/** A credential reference, as answered. */
const CredentialRefRecordSchema = /* @__PURE__ */ object({
  name: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ string()),
    'a credential of the project',
  ),
  provider: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ string()),
    'a credential provider',
  ),
  path: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ string()),
    'its item, "<vault>/<item>"',
  ),
  auto: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ boolean()),
    "the provider's item for the site",
  ),
});

/** A proxy by id or by name. */
const ProxyRefSchema = /* @__PURE__ */ union(
  [
    /* @__PURE__ */ requestObject({
      id: /* @__PURE__ */ described(NameSchema, "the proxy's id"),
    }),
    /* @__PURE__ */ requestObject({
      name: /* @__PURE__ */ described(NameSchema, "the proxy's name"),
    }),
  ],
  'must be {id} or {name}',
);

const AllowedDomainsSchema = /* @__PURE__ */ pipe(
  /* @__PURE__ */ array(CredentialDomainSchema, 'must be an array of host names'),
  /* @__PURE__ */ maxLength(
    AUTH_CONNECTION_LIMITS.allowedDomains,
    `must have at most ${AUTH_CONNECTION_LIMITS.allowedDomains} domains`,
  ),
);

const HealthCheckIntervalSchema = /* @__PURE__ */ integerBetween(
  AUTH_CONNECTION_LIMITS.healthCheckMinSeconds,
  AUTH_CONNECTION_LIMITS.healthCheckMaxSeconds,
);

/** A field a sign-in asks for, as the flow names it. */
export const AuthFieldSchema = /* @__PURE__ */ object({
  id: /* @__PURE__ */ described(
    /* @__PURE__ */ string(),
    'what `submit` names its value by (field_values)',
  ),
  ref: /* @__PURE__ */ described(/* @__PURE__ */ string(), 'the same, as the page names it'),
  type: /* @__PURE__ */ described(
    /* @__PURE__ */ picklist(AUTH_FIELD_TYPES),
    'what it asks for: identifier, password, code, totp_code, totp_secret, text',
  ),
  label: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ string()),
    'its label on the page',
  ),
  observed_selector: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ nullable(/* @__PURE__ */ string())),
    'a CSS selector of it on the page',
  ),
  required: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ boolean()),
    'whether the form needs it',
  ),
});

/** A field a sign-in asks for. */
export type AuthField = InferOutput<typeof AuthFieldSchema>;

/** A field as the page shows it (the older shape of `fields`). */
export const DiscoveredFieldSchema = /* @__PURE__ */ object({
  label: /* @__PURE__ */ described(/* @__PURE__ */ string(), 'its label on the page'),
  name: /* @__PURE__ */ described(/* @__PURE__ */ string(), 'what `submit` names it by (fields)'),
  selector: /* @__PURE__ */ described(/* @__PURE__ */ string(), 'a CSS selector of it on the page'),
  type: /* @__PURE__ */ described(
    /* @__PURE__ */ picklist(['text', 'email', 'password', 'tel', 'number', 'url', 'code', 'totp']),
    'its kind of input',
  ),
  placeholder: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ string()),
    'its placeholder text',
  ),
  required: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ boolean()),
    'whether the form needs it',
  ),
});

/** A field as the page shows it. */
export type DiscoveredField = InferOutput<typeof DiscoveredFieldSchema>;

/** The state of a flow, as a connection and its events carry it. */
const flowEntries = {
  flow_status: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ nullable(/* @__PURE__ */ picklist(FLOW_STATUSES))),
    'how the current or last flow stands (null: none yet)',
  ),
  flow_step: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ nullable(/* @__PURE__ */ picklist(FLOW_STEPS))),
    'what it is doing',
  ),
  flow_type: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ nullable(/* @__PURE__ */ picklist(FLOW_TYPES))),
    'LOGIN (a caller started it) or REAUTH (the service, after a failed health check)',
  ),
  flow_expires_at: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ nullable(TimestampSchema)),
    'when it expires unless it ends first',
  ),
  hosted_url: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ nullable(/* @__PURE__ */ string())),
    "where a person finishes the sign-in: the flow browser's live view, with control",
  ),
  live_view_url: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ nullable(/* @__PURE__ */ string())),
    'a read-only live view of the flow browser',
  ),
  browser_session_id: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ nullable(/* @__PURE__ */ string())),
    'the browser the flow runs in',
  ),
  fields: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ nullable(/* @__PURE__ */ array(AuthFieldSchema))),
    'what the flow asks for (AWAITING_INPUT): submit their values by id',
  ),
  discovered_fields: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(
      /* @__PURE__ */ nullable(/* @__PURE__ */ array(DiscoveredFieldSchema)),
    ),
    'the same fields as the page shows them',
  ),
  external_action_message: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ nullable(/* @__PURE__ */ string())),
    'what a person must do at hosted_url (AWAITING_EXTERNAL_ACTION)',
  ),
  error_code: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ nullable(/* @__PURE__ */ string())),
    'why it failed: credentials_invalid, site_unreachable, no_login_form, not_signed_in, domain_not_allowed, browser_failed',
  ),
  error_message: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ nullable(/* @__PURE__ */ string())),
    'why it failed, in words',
  ),
  website_error: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ nullable(/* @__PURE__ */ string())),
    "the site's own error message, when it showed one",
  ),
  post_login_url: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ string()),
    'the page the last successful sign-in ended on',
  ),
};

/**
 * An auth connection: a profile kept signed in to a site. A login runs a flow in a browser of
 * that profile; health checks reopen the site and say whether the profile is still signed in.
 */
export const AuthConnectionSchema = /* @__PURE__ */ object({
  id: /* @__PURE__ */ described(/* @__PURE__ */ string(), "the connection's id"),
  domain: /* @__PURE__ */ described(/* @__PURE__ */ string(), 'the site it signs in to'),
  profile_name: /* @__PURE__ */ described(
    /* @__PURE__ */ string(),
    'the profile it keeps signed in',
  ),
  status: /* @__PURE__ */ described(
    /* @__PURE__ */ picklist(AUTH_STATUSES),
    'AUTHENTICATED or NEEDS_AUTH, as the last sign-in or health check found it',
  ),
  save_credentials: /* @__PURE__ */ described(
    /* @__PURE__ */ boolean(),
    'whether values typed in a flow are kept for the next (one-time codes never)',
  ),
  record_session: /* @__PURE__ */ described(
    /* @__PURE__ */ boolean(),
    "whether its flows' browsers are recorded",
  ),
  allowed_domains: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ array(/* @__PURE__ */ string())),
    'other sites the sign-in may pass through (its values are filled there too)',
  ),
  auto_reauth: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ boolean()),
    'whether a failed health check signs in again when it can',
  ),
  health_checks: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ boolean()),
    'whether the profile is checked periodically',
  ),
  health_check_interval: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ nullable(/* @__PURE__ */ integerBetween(0, 86_400))),
    'seconds between health checks',
  ),
  login_url: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ string()),
    'where sign-ins start (else https://<domain>/)',
  ),
  proxy_id: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ string()),
    'the proxy its browsers use',
  ),
  credential: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(CredentialRefRecordSchema),
    'where its values come from: {name}, {provider, path} or {provider, auto}',
  ),
  can_reauth: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ boolean()),
    'whether the service can sign in again by itself',
  ),
  can_reauth_reason: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ string()),
    'why (has_credential, external_credential, no_prior_successful_login, no_credential, requires_external_action, requires_totp_without_secret)',
  ),
  last_auth_check_at: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(TimestampSchema),
    'when a sign-in or health check last found out',
  ),
  ...flowEntries,
  created_at: /* @__PURE__ */ described(TimestampSchema, 'when it was made (ISO 8601 UTC)'),
  updated_at: /* @__PURE__ */ described(TimestampSchema, 'when it last changed (ISO 8601 UTC)'),
});

/** An auth connection, as answered. */
export type AuthConnection = InferOutput<typeof AuthConnectionSchema>;

/** One page of a GET /auth/connections call. */
export const AuthConnectionListSchema = /* @__PURE__ */ array(AuthConnectionSchema);

/** What may change on a connection (create and update share them). */
const settingEntries = {
  allowed_domains: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(AllowedDomainsSchema),
    `other sites the sign-in may pass through (at most ${AUTH_CONNECTION_LIMITS.allowedDomains}); an update replaces the list`,
  ),
  auto_reauth: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ boolean('must be a boolean')),
    'sign in again after a failed health check, when it can (default true)',
  ),
  credential: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(CredentialRefSchema),
    'where its values come from: {name}, {provider, path} or {provider, auto: true}',
  ),
  health_check_interval: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(HealthCheckIntervalSchema),
    `seconds between health checks (${AUTH_CONNECTION_LIMITS.healthCheckMinSeconds}–${AUTH_CONNECTION_LIMITS.healthCheckMaxSeconds}, default ${AUTH_CONNECTION_LIMITS.healthCheckDefaultSeconds})`,
  ),
  health_checks: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ boolean('must be a boolean')),
    'check the profile periodically (default true)',
  ),
  login_url: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(LoginUrlSchema),
    'where sign-ins start (else https://<domain>/); "" clears it on update',
  ),
  proxy: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(ProxyRefSchema),
    'a proxy of the project its browsers use, {id} or {name}',
  ),
  record_session: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ boolean('must be a boolean')),
    "record its flows' browsers (default false)",
  ),
  save_credentials: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ boolean('must be a boolean')),
    'keep values typed in a flow for the next (default true; one-time codes never)',
  ),
};

/** Body of POST /auth/connections. */
export const CreateAuthConnectionBodySchema = /* @__PURE__ */ requestObject({
  domain: /* @__PURE__ */ described(CredentialDomainSchema, 'the site, a host name'),
  profile_name: /* @__PURE__ */ described(
    NameSchema,
    'the profile to keep signed in (made when missing)',
  ),
  ...settingEntries,
});

/** What a create-connection call asks for. */
export type CreateAuthConnectionBody = InferOutput<typeof CreateAuthConnectionBodySchema>;

/** What a create-connection call takes, as a caller writes it. */
export type CreateAuthConnectionInput = InferInput<typeof CreateAuthConnectionBodySchema>;

/** Body of PATCH /auth/connections/{id}: the fields given change. */
export const UpdateAuthConnectionBodySchema = /* @__PURE__ */ requestObject(settingEntries);

/** What an update-connection call asks for. */
export type UpdateAuthConnectionBody = InferOutput<typeof UpdateAuthConnectionBodySchema>;

/** Query of GET /auth/connections. */
export const ListAuthConnectionsQuerySchema = /* @__PURE__ */ requestObject({
  ...pageQueryEntries,
  domain: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(CredentialDomainSchema),
    'only connections for this site',
  ),
  profile_name: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(NameSchema),
    'only connections of this profile',
  ),
  query: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(QueryTextSchema),
    'only connections whose site or profile contains this, or whose id it is',
  ),
});

/** Body of POST /auth/connections/{id}/login (all optional). */
export const LoginBodySchema = /* @__PURE__ */ optional(
  /* @__PURE__ */ requestObject({
    proxy: /* @__PURE__ */ described(
      /* @__PURE__ */ optional(ProxyRefSchema),
      "a proxy for this flow's browser, instead of the connection's",
    ),
    record_session: /* @__PURE__ */ described(
      /* @__PURE__ */ optional(/* @__PURE__ */ boolean('must be a boolean')),
      "record this flow's browser, whatever the connection says",
    ),
  }),
);

/** What a login call asks for. */
export type LoginBody = InferOutput<typeof LoginBodySchema>;

/** What POST /auth/connections/{id}/login answers. */
export const LoginResponseSchema = /* @__PURE__ */ object({
  id: /* @__PURE__ */ described(/* @__PURE__ */ string(), "the connection's id"),
  flow_type: /* @__PURE__ */ described(/* @__PURE__ */ picklist(FLOW_TYPES), 'LOGIN'),
  flow_expires_at: /* @__PURE__ */ described(TimestampSchema, 'when the flow expires'),
  hosted_url: /* @__PURE__ */ described(
    /* @__PURE__ */ string(),
    "where a person can watch and finish it: the flow browser's live view, with control",
  ),
  live_view_url: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ string()),
    'a read-only live view of the flow browser',
  ),
});

/** The answer to a login call. */
export type LoginResponse = InferOutput<typeof LoginResponseSchema>;

const SubmitValuesSchema = /* @__PURE__ */ pipe(
  /* @__PURE__ */ record(
    /* @__PURE__ */ pipe(/* @__PURE__ */ string(), /* @__PURE__ */ maxLength(256)),
    /* @__PURE__ */ pipe(
      /* @__PURE__ */ string('must be a string'),
      /* @__PURE__ */ maxLength(
        AUTH_CONNECTION_LIMITS.submitValueChars,
        `must be at most ${AUTH_CONNECTION_LIMITS.submitValueChars} characters`,
      ),
    ),
    'must be an object of named strings',
  ),
  /* @__PURE__ */ check(
    (values) => Object.keys(values).length <= AUTH_CONNECTION_LIMITS.submitValues,
    `must have at most ${AUTH_CONNECTION_LIMITS.submitValues} values`,
  ),
);

/** Body of POST /auth/connections/{id}/submit: the values a flow asked for. */
export const SubmitBodySchema = /* @__PURE__ */ requestObject({
  field_values: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(SubmitValuesSchema),
    'values by the ids of the flow’s `fields`',
  ),
  fields: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(SubmitValuesSchema),
    'values by the names of its `discovered_fields` (the older shape)',
  ),
});

/** What a submit call gives. */
export type SubmitBody = InferOutput<typeof SubmitBodySchema>;

/** What POST /auth/connections/{id}/submit answers. */
export const SubmitResponseSchema = /* @__PURE__ */ object({
  accepted: /* @__PURE__ */ described(
    /* @__PURE__ */ boolean(),
    'whether the flow took the values (it goes on: follow its events)',
  ),
});

/** One entry of a connection's timeline: a login, a re-authentication or a health check. */
export const AuthTimelineEventSchema = /* @__PURE__ */ object({
  id: /* @__PURE__ */ described(/* @__PURE__ */ string(), "the entry's id"),
  type: /* @__PURE__ */ described(
    /* @__PURE__ */ picklist(AUTH_TIMELINE_TYPES),
    'login, reauth or health_check',
  ),
  status: /* @__PURE__ */ described(
    /* @__PURE__ */ picklist([...FLOW_STATUSES, ...AUTH_STATUSES]),
    'how it ended or stands (a health check: AUTHENTICATED or NEEDS_AUTH)',
  ),
  step: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ picklist(FLOW_STEPS)),
    "a flow's last step",
  ),
  timestamp: /* @__PURE__ */ described(TimestampSchema, 'when it started'),
  updated_at: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(TimestampSchema),
    'when it last changed',
  ),
  browser_session_id: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ string()),
    'the browser it ran in',
  ),
  replay_id: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ string()),
    "the replay of the flow's browser, when it was recorded",
  ),
  previous_status: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ picklist(AUTH_STATUSES)),
    "the connection's status before it",
  ),
  error_code: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ string()),
    'why it failed',
  ),
  error_message: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ string()),
    'why it failed, in words',
  ),
  website_error: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ string()),
    "the site's error message",
  ),
});

/** One entry of a connection's timeline. */
export type AuthTimelineEvent = InferOutput<typeof AuthTimelineEventSchema>;

/** One page of a GET /auth/connections/{id}/timeline call, newest first. */
export const AuthTimelineSchema = /* @__PURE__ */ array(AuthTimelineEventSchema);

/** Query of GET /auth/connections/{id}/timeline. */
export const AuthTimelineQuerySchema = /* @__PURE__ */ requestObject({
  ...pageQueryEntries,
  type: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(
      /* @__PURE__ */ picklist(AUTH_TIMELINE_TYPES, 'must be login, reauth or health_check'),
    ),
    'only entries of this kind',
  ),
});

/** An event of GET /auth/connections/{id}/events. */
export const AuthEventSchema = /* @__PURE__ */ union([
  /* @__PURE__ */ object({
    event: /* @__PURE__ */ described(
      /* @__PURE__ */ literal('managed_auth_state'),
      'the flow changed',
    ),
    timestamp: /* @__PURE__ */ described(TimestampSchema, 'when'),
    ...flowEntries,
    flow_status: /* @__PURE__ */ described(
      /* @__PURE__ */ picklist(FLOW_STATUSES),
      'how the flow stands',
    ),
    flow_step: /* @__PURE__ */ described(/* @__PURE__ */ picklist(FLOW_STEPS), 'what it is doing'),
  }),
  StreamErrorEventSchema,
  HeartbeatEventSchema,
]);

/** An event of a connection's flow. */
export type AuthEvent = InferOutput<typeof AuthEventSchema>;
