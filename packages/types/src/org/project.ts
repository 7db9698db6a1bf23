import {
  array,
  type InferInput,
  type InferOutput,
  nullable,
  number,
  object,
  optional,
  picklist,
  string,
} from 'valibot';
import { described } from '../common/describe.js';
import { integerBetween } from '../common/numbers.js';
import { pageQueryEntries, QueryTextSchema } from '../common/pages.js';
import { requestObject } from '../common/request-object.js';
import { NameSchema, TimestampSchema } from '../common/scalars.js';

/** What a project may be: active (usable) or archived (kept, but no request reaches it). */
export const PROJECT_STATUSES = ['active', 'archived'] as const;

/** A project's status. */
export type ProjectStatus = (typeof PROJECT_STATUSES)[number];

/** The id of the project every server has, which a request without a project reaches. */
export const DEFAULT_PROJECT_ID = 'default';

/** Most projects one server keeps: each holds models and pools in memory. */
export const MAX_PROJECTS = 1000;

/**
 * A project: a wall around resources. Every browser, pool, extension, profile, proxy,
 * invocation and replay belongs to one, and names are unique within it.
 */
export const ProjectSchema = /* @__PURE__ */ object({
  id: /* @__PURE__ */ described(/* @__PURE__ */ string(), "the project's id"),
  name: /* @__PURE__ */ described(/* @__PURE__ */ string(), "the project's unique name"),
  status: /* @__PURE__ */ described(
    /* @__PURE__ */ picklist(PROJECT_STATUSES),
    'active, or archived (no request reaches it)',
  ),
  created_at: /* @__PURE__ */ described(TimestampSchema, 'when it was created (ISO 8601 UTC)'),
  updated_at: /* @__PURE__ */ described(TimestampSchema, 'when it last changed (ISO 8601 UTC)'),
});

/** A project. */
export type Project = InferOutput<typeof ProjectSchema>;

/** One page of a GET /org/projects call. */
export const ProjectListSchema = /* @__PURE__ */ array(ProjectSchema);

/** Body of POST /org/projects. */
export const CreateProjectBodySchema = /* @__PURE__ */ requestObject({
  name: /* @__PURE__ */ described(NameSchema, 'unique name, [A-Za-z0-9._-], 1–255 characters'),
});

/** What a create-project call asks for. */
export type CreateProjectInput = InferInput<typeof CreateProjectBodySchema>;

/** Body of PATCH /org/projects/{id_or_name}: a new name, a new status, or both. */
export const UpdateProjectBodySchema = /* @__PURE__ */ requestObject({
  name: /* @__PURE__ */ described(/* @__PURE__ */ optional(NameSchema), 'new unique name'),
  status: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(
      /* @__PURE__ */ picklist(PROJECT_STATUSES, 'must be active or archived'),
    ),
    'active or archived',
  ),
});

/** What an update-project call asks for. */
export type UpdateProjectInput = InferInput<typeof UpdateProjectBodySchema>;

/** Query of GET /org/projects: a page, `name` (exactly) and `query` (in the id or name). */
export const ListProjectsQuerySchema = /* @__PURE__ */ requestObject({
  ...pageQueryEntries,
  name: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(NameSchema),
    'only the project with exactly this name',
  ),
  query: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(QueryTextSchema),
    'only projects whose id or name contains this, any case',
  ),
});

/** A query of GET /org/projects, validated. */
export type ProjectListQuery = InferOutput<typeof ListProjectsQuerySchema>;

/** Largest number a limit takes. */
export const MAX_LIMIT_VALUE = 100_000;

/** A limit as a request sets it: a number, 0 (or null) to remove the cap. */
const LimitInputSchema = /* @__PURE__ */ optional(
  /* @__PURE__ */ nullable(/* @__PURE__ */ integerBetween(0, MAX_LIMIT_VALUE)),
);

/** A limit as an answer gives it: a number, or null for none. */
const LimitSchema = /* @__PURE__ */ nullable(/* @__PURE__ */ number());

/** A project's own caps; null: the organization's default applies (or none). */
export const ProjectLimitsSchema = /* @__PURE__ */ object({
  max_concurrent_sessions: /* @__PURE__ */ described(
    LimitSchema,
    "most browsers at once, pools' sizes included; null: the organization's default",
  ),
  max_concurrent_invocations: /* @__PURE__ */ described(
    LimitSchema,
    "most running invocations at once; null: the organization's default",
  ),
});

/** A project's limits. */
export type ProjectLimits = InferOutput<typeof ProjectLimitsSchema>;

/** Body of PATCH /org/projects/{id_or_name}/limits: a field left out stays; 0 or null removes it. */
export const UpdateProjectLimitsBodySchema = /* @__PURE__ */ requestObject({
  max_concurrent_sessions: /* @__PURE__ */ described(
    LimitInputSchema,
    `most browsers at once, pools' sizes included, 0–${MAX_LIMIT_VALUE}; 0 or null removes the cap`,
  ),
  max_concurrent_invocations: /* @__PURE__ */ described(
    LimitInputSchema,
    `most running invocations at once, 0–${MAX_LIMIT_VALUE}; 0 or null removes the cap`,
  ),
});

/** What an update-limits call asks for. */
export type UpdateProjectLimitsInput = InferInput<typeof UpdateProjectLimitsBodySchema>;

/** The organization's limits: the server's own cap, and the defaults of projects. */
export const OrgLimitsSchema = /* @__PURE__ */ object({
  max_concurrent_sessions: /* @__PURE__ */ described(
    /* @__PURE__ */ number(),
    'most browsers the server runs at once, all projects together (read-only)',
  ),
  default_project_max_concurrent_sessions: /* @__PURE__ */ described(
    LimitSchema,
    'the cap of a project that sets none; null: none',
  ),
  default_project_max_concurrent_invocations: /* @__PURE__ */ described(
    LimitSchema,
    'the invocation cap of a project that sets none; null: none',
  ),
});

/** The organization's limits. */
export type OrgLimits = InferOutput<typeof OrgLimitsSchema>;

/** Body of PATCH /org/limits: a field left out stays; 0 or null removes the default. */
export const UpdateOrgLimitsBodySchema = /* @__PURE__ */ requestObject({
  default_project_max_concurrent_sessions: /* @__PURE__ */ described(
    LimitInputSchema,
    `the cap of projects that set none, 0–${MAX_LIMIT_VALUE}; 0 or null removes it`,
  ),
  default_project_max_concurrent_invocations: /* @__PURE__ */ described(
    LimitInputSchema,
    `the invocation cap of projects that set none, 0–${MAX_LIMIT_VALUE}; 0 or null removes it`,
  ),
});

/** What an update-org-limits call asks for. */
export type UpdateOrgLimitsInput = InferInput<typeof UpdateOrgLimitsBodySchema>;
