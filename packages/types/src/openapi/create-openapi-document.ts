import {
  type ConversionConfig,
  type JsonSchema,
  toJsonSchema,
  toJsonSchemaDefs,
} from '@valibot/to-json-schema';
import { schemaEntries } from '../catalog/fields.js';
import type { AnySchema, Operation, OperationResponse } from '../catalog/operation.js';
import { operations } from '../catalog/operations.js';
import { fieldDescription } from '../common/describe.js';
import { API_VERSION, HEADERS } from '../common/limits.js';
import { JsonObjectSchema } from '../common/request-object.js';
import { componentSchemas } from './component-schemas.js';

/** An OpenAPI 3.1 document, as plain JSON. */
export type OpenApiDocument = Record<string, unknown> & {
  openapi: '3.1.0';
  paths: Record<string, Record<string, unknown>>;
};

const ERROR_RESPONSE = { $ref: '#/components/responses/Error' };

/** Conversion settings shared by every schema: components by reference, Blob as binary. */
const baseConfig: ConversionConfig = {
  target: 'draft-2020-12',
  errorMode: 'ignore',
  definitions: componentSchemas,
  overrideRef: ({ referenceId }) => `#/components/schemas/${referenceId}`,
  overrideSchema: ({ valibotSchema }) => {
    if (valibotSchema.type === 'blob') return { type: 'string', format: 'binary' };
    if (valibotSchema === JsonObjectSchema) return { type: 'object' };
    return undefined;
  },
};

const { definitions: _components, ...componentConfig } = baseConfig;

/** Converts one schema to an embeddable JSON Schema (no `$schema`, no local `$defs`). */
function toEmbeddedSchema(schema: AnySchema, typeMode: 'input' | 'ignore'): JsonSchema {
  const {
    $schema: _dialect,
    $defs: _defs,
    ...rest
  } = toJsonSchema(schema, {
    ...baseConfig,
    typeMode,
  }) as JsonSchema & { $defs?: unknown };
  return rest;
}

/** Whether a schema lets its value be left out. */
function isOptional(schema: AnySchema): boolean {
  return schema.type === 'optional' || schema.type === 'exact_optional';
}

function parametersOf(operation: Operation): Record<string, unknown>[] {
  const path = Object.entries(schemaEntries(operation.pathParams)).map(([name, schema]) => ({
    name,
    in: 'path',
    description: fieldDescription(schema),
    required: true,
    schema: toEmbeddedSchema(schema, 'input'),
  }));
  const query = Object.entries(schemaEntries(operation.query)).map(([name, schema]) => ({
    name,
    in: 'query',
    description: fieldDescription(schema),
    required: !isOptional(schema),
    schema: toEmbeddedSchema(schema, 'input'),
  }));
  // Every operation of a project may name it; the organization's own do not.
  const project =
    operation.scope === 'org'
      ? []
      : [
          {
            name: 'X-Kernel-Project-Id',
            in: 'header',
            description:
              "the project the call acts in, by id or name; absent: the key's own project, else the default project",
            required: false,
            schema: { type: 'string', pattern: '^(?!\\.{1,2}$)[A-Za-z0-9._-]{1,255}$' },
          },
        ];
  return [...path, ...query, ...project];
}

function requestBodyOf(operation: Operation): Record<string, unknown> | undefined {
  if (operation.acceptsQueryInBody && operation.query) {
    const schema = toEmbeddedSchema(operation.query, 'input');
    return {
      required: false,
      description: 'The query parameters, as a JSON body instead (a field given here wins).',
      content: { 'application/json': { schema } },
    };
  }
  const body = operation.body;
  if (!body) return undefined;
  if (body.encoding === 'binary') {
    return {
      required: true,
      content: { [body.mediaType]: { schema: { type: 'string', format: 'binary' } } },
    };
  }
  const mediaType = body.encoding === 'json' ? 'application/json' : 'multipart/form-data';
  return {
    required: !isOptional(body.schema),
    content: { [mediaType]: { schema: toEmbeddedSchema(body.schema, 'input') } },
  };
}

function responseOf(status: number, response: OperationResponse): Record<string, unknown> {
  const description = status === 202 ? 'Not ready yet; retry after Retry-After.' : 'Success.';
  switch (response.kind) {
    case 'json':
      return {
        description,
        content: { 'application/json': { schema: toEmbeddedSchema(response.schema, 'ignore') } },
      };
    case 'binary':
      return {
        description,
        content: Object.fromEntries(
          [response.mediaType, ...(response.otherMediaTypes ?? [])].map((type) => [
            type,
            { schema: { type: 'string', format: 'binary' } },
          ]),
        ),
      };
    case 'event-stream':
      return {
        description: 'Server-sent events; each `data:` line is one JSON event.',
        content: {
          'text/event-stream': {
            schema: { type: 'string' },
            'x-event-schema': toEmbeddedSchema(response.eventSchema, 'ignore'),
          },
        },
      };
    case 'none':
      return { description };
  }
}

/** The headers a page of a paginated list answers with. */
const PAGE_HEADERS = {
  'X-Has-More': {
    description: 'Whether more records follow this page.',
    schema: { type: 'string', enum: ['true', 'false'] },
  },
  'X-Next-Offset': {
    description:
      'The `offset` of the next page (absolute), present when `X-Has-More` is true. Absent, or `X-Has-More: false`, ends the list.',
    schema: { type: 'integer', minimum: 0 },
  },
};

/** The headers a page of a list that goes on by cursor answers with. */
const TOKEN_PAGE_HEADERS = {
  'X-Has-More': PAGE_HEADERS['X-Has-More'],
  'X-Next-Page-Token': {
    description:
      'The `page_token` of the next page, present when `X-Has-More` is true. Absent ends the list.',
    schema: { type: 'string' },
  },
};

function operationObject(operation: Operation): Record<string, unknown> {
  const responses: Record<string, unknown> = {};
  const pageHeaders = operation.pageToken ? TOKEN_PAGE_HEADERS : PAGE_HEADERS;
  for (const [status, response] of Object.entries(operation.responses)) {
    const described = responseOf(Number(status), response);
    responses[status] =
      operation.paginated && status === '200' ? { ...described, headers: pageHeaders } : described;
  }
  for (const status of operation.errorStatuses) responses[String(status)] = ERROR_RESPONSE;
  const parameters = parametersOf(operation);
  const requestBody = requestBodyOf(operation);
  return {
    operationId: operation.name,
    summary: operation.summary,
    tags: [operation.name.split('.')[0]],
    ...(operation.specSection ? { 'x-spec-section': operation.specSection } : {}),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(requestBody ? { requestBody } : {}),
    responses,
  };
}

/**
 * Builds the OpenAPI 3.1 document of the API from the operation catalog: every operation, its
 * parameters, bodies, success responses and error statuses, with the records as components.
 */
export function createOpenApiDocument(
  options: { serverUrl?: string; within?: readonly Operation[] } = {},
): OpenApiDocument {
  const paths: OpenApiDocument['paths'] = {};
  for (const operation of options.within ?? operations) {
    const pathItem = paths[operation.path] ?? {};
    pathItem[operation.method.toLowerCase()] = operationObject(operation);
    paths[operation.path] = pathItem;
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Cloud browser service',
      version: API_VERSION,
      description:
        'Real web browsers for AI agents: create and pool them, type into them, record them, run processes beside them.',
    },
    ...(options.serverUrl ? { servers: [{ url: options.serverUrl }] } : {}),
    security: [{ bearerAuth: [] }],
    paths,
    components: {
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } },
      schemas: toJsonSchemaDefs(componentSchemas, componentConfig),
      responses: {
        Error: {
          description: 'An error, with a machine-readable code and a message for people.',
          headers: {
            [HEADERS.requestId]: { schema: { type: 'string' } },
          },
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
        },
      },
    },
  };
}
