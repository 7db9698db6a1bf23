import {
  array,
  blob,
  type InferOutput,
  literal,
  maxLength,
  minLength,
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
import { pageQueryEntries } from '../common/pages.js';
import { requestObject } from '../common/request-object.js';
import { TimestampSchema } from '../common/scalars.js';
import { HeartbeatEventSchema, StreamErrorEventSchema } from '../common/stream-events.js';

/** Where a deployment is in its life: queued → in_progress → running | failed | stopped. */
export const DeploymentStatusSchema = /* @__PURE__ */ picklist([
  'queued',
  'in_progress',
  'running',
  'failed',
  'stopped',
]);

/** A deployment's status. */
export type DeploymentStatus = InferOutput<typeof DeploymentStatusSchema>;

/** The statuses a deployment ends in: its event stream ends there. */
export const FINAL_DEPLOYMENT_STATUSES: readonly DeploymentStatus[] = [
  'running',
  'failed',
  'stopped',
];

/** Most environment variables a deployment holds. */
export const MAX_DEPLOYMENT_ENV_VARS = 100;

/** Longest value of one environment variable, in characters. */
export const MAX_ENV_VAR_VALUE = 32_768;

/** An environment variable's name: a letter or `_`, then letters, digits and `_`. */
const EnvNameSchema = /* @__PURE__ */ pipe(
  /* @__PURE__ */ string(),
  /* @__PURE__ */ regex(
    /^[A-Za-z_][A-Za-z0-9_]{0,127}$/,
    'must be a variable name such as API_KEY',
  ),
);

/**
 * Environment variables as a record shows them: their names, each with an empty value (values
 * are sealed at rest and never answered).
 */
const RedactedEnvSchema = /* @__PURE__ */ record(EnvNameSchema, /* @__PURE__ */ literal(''));

/** One deployment of an app's code: an archive, its entrypoint and its version. */
export const DeploymentSchema = /* @__PURE__ */ object({
  id: /* @__PURE__ */ described(/* @__PURE__ */ string(), "the deployment's id"),
  created_at: /* @__PURE__ */ described(TimestampSchema, 'when it was made (ISO 8601 UTC)'),
  updated_at: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(TimestampSchema),
    'when its status last changed (ISO 8601 UTC)',
  ),
  status: /* @__PURE__ */ described(
    DeploymentStatusSchema,
    'queued, in_progress, running, failed or stopped',
  ),
  status_reason: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ string()),
    'why it failed or stopped',
  ),
  app_name: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ string()),
    'the app its code defines, once found (the first, when it defines several)',
  ),
  version: /* @__PURE__ */ described(/* @__PURE__ */ string(), "the apps' version"),
  entrypoint_rel_path: /* @__PURE__ */ described(
    /* @__PURE__ */ string(),
    'the file loaded, relative to the archive root',
  ),
  env_vars: /* @__PURE__ */ described(
    RedactedEnvSchema,
    "the code's environment variables: names only, each value ''",
  ),
  source_type: /* @__PURE__ */ described(/* @__PURE__ */ literal('file'), 'an uploaded archive'),
  source_checksum: /* @__PURE__ */ described(
    /* @__PURE__ */ string(),
    'SHA-256 of the archive as uploaded (lowercase hex)',
  ),
});

/** One deployment. */
export type Deployment = InferOutput<typeof DeploymentSchema>;

/** A label the form takes: 1–255 characters. */
// @__NO_SIDE_EFFECTS__
function label(field: string) {
  return /* @__PURE__ */ pipe(
    /* @__PURE__ */ string('must be a string'),
    /* @__PURE__ */ minLength(1, 'must not be empty'),
    /* @__PURE__ */ maxLength(255, `${field} must be at most 255 characters`),
  );
}

/** The form of POST /deployments. */
export const CreateDeploymentFormSchema = /* @__PURE__ */ requestObject({
  file: /* @__PURE__ */ described(
    /* @__PURE__ */ blob('must be a file'),
    'zip of the app folder (package.json and its lockfile at the root)',
  ),
  entrypoint_rel_path: /* @__PURE__ */ described(
    /* @__PURE__ */ label('entrypoint_rel_path'),
    'the file to load, relative to the archive root (app.ts, src/index.js)',
  ),
  version: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ label('version'), 'latest'),
    "the apps' version, default latest",
  ),
  force: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ picklist(['true', 'false']), 'false'),
    'replace a version deployed already (true or false)',
  ),
  region: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ picklist(['aws.us-east-1a'])),
    "accepted for the peer SDK's sake and ignored: this service has one place, its own",
  ),
  env_vars: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(
      /* @__PURE__ */ record(
        EnvNameSchema,
        /* @__PURE__ */ pipe(
          /* @__PURE__ */ string(),
          /* @__PURE__ */ maxLength(MAX_ENV_VAR_VALUE),
        ),
      ),
    ),
    `the code's environment, one part per variable (env_vars[NAME]), ≤ ${MAX_DEPLOYMENT_ENV_VARS}`,
  ),
});

/** The form parts of a deploy. */
export type CreateDeploymentForm = InferOutput<typeof CreateDeploymentFormSchema>;

/** The list of a GET /deployments call. */
export const DeploymentListSchema = /* @__PURE__ */ array(DeploymentSchema);

/** Query of GET /deployments: a page, and filters by app and version. */
export const ListDeploymentsQuerySchema = /* @__PURE__ */ requestObject({
  ...pageQueryEntries,
  app_name: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ label('app_name')),
    'only deployments of this app',
  ),
  app_version: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ label('app_version')),
    'only deployments of this version (with app_name)',
  ),
});

/** A GET /deployments query, defaults applied. */
export type DeploymentListQuery = InferOutput<typeof ListDeploymentsQuerySchema>;

/** An action of an app as its deployment found it. */
export const AppActionSchema = /* @__PURE__ */ object({
  name: /* @__PURE__ */ described(/* @__PURE__ */ string(), "the action's name"),
});

/** One version of an app: the deployment that brought it and its actions. */
export const AppVersionSchema = /* @__PURE__ */ object({
  id: /* @__PURE__ */ described(/* @__PURE__ */ string(), "the app version's id"),
  app_name: /* @__PURE__ */ described(/* @__PURE__ */ string(), "the app's name"),
  version: /* @__PURE__ */ described(/* @__PURE__ */ string(), 'the version'),
  deployment: /* @__PURE__ */ described(/* @__PURE__ */ string(), 'the deployment that brought it'),
  actions: /* @__PURE__ */ described(/* @__PURE__ */ array(AppActionSchema), 'its actions'),
  env_vars: /* @__PURE__ */ described(
    RedactedEnvSchema,
    "its deployment's environment variables: names only, each value ''",
  ),
});

/** One version of an app. */
export type AppVersion = InferOutput<typeof AppVersionSchema>;

/** An event of a deployment's stream (GET /deployments/{id}/events). */
export const DeploymentEventSchema = /* @__PURE__ */ union([
  /* @__PURE__ */ object({
    event: /* @__PURE__ */ described(/* @__PURE__ */ literal('log'), 'a line of the install'),
    timestamp: /* @__PURE__ */ described(TimestampSchema, 'when'),
    message: /* @__PURE__ */ described(/* @__PURE__ */ string(), 'the line'),
  }),
  /* @__PURE__ */ object({
    event: /* @__PURE__ */ described(
      /* @__PURE__ */ literal('deployment_state'),
      'the deployment changed status',
    ),
    timestamp: /* @__PURE__ */ described(TimestampSchema, 'when'),
    deployment: /* @__PURE__ */ described(DeploymentSchema, 'the deployment as it is now'),
  }),
  /* @__PURE__ */ object({
    event: /* @__PURE__ */ described(
      /* @__PURE__ */ literal('app_version_summary'),
      'an app the code defines',
    ),
    timestamp: /* @__PURE__ */ described(TimestampSchema, 'when'),
    ...AppVersionSchema.entries,
  }),
  StreamErrorEventSchema,
  HeartbeatEventSchema,
]);

/** An event of a deployment's stream. */
export type DeploymentEvent = InferOutput<typeof DeploymentEventSchema>;
