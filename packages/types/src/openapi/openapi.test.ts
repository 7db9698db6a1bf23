import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { operations } from '../catalog/operations.js';
import { API_VERSION } from '../common/limits.js';
import { createOpenApiDocument } from './create-openapi-document.js';

describe('createOpenApiDocument', () => {
  const document = createOpenApiDocument({ serverUrl: 'http://127.0.0.1:8080' });

  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(document));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('is checked by a validator that does reject a broken document', async () => {
    const broken = structuredClone(document) as Record<string, unknown>;
    delete broken.info;
    expect((await new Validator().validate(broken)).valid).toBe(false);
  });

  it('carries the interface version', () => {
    expect(document.openapi).toBe('3.1.0');
    expect((document.info as { version: string }).version).toBe(API_VERSION);
  });

  it('holds every operation of the catalog, under its own id', () => {
    for (const operation of operations) {
      const entry = document.paths[operation.path]?.[operation.method.toLowerCase()] as
        | { operationId: string; responses: Record<string, unknown> }
        | undefined;
      expect(entry?.operationId).toBe(operation.name);
      for (const status of [...Object.keys(operation.responses), ...operation.errorStatuses]) {
        expect(entry?.responses).toHaveProperty(String(status));
      }
    }
    const count = Object.values(document.paths).flatMap((item) => Object.keys(item)).length;
    expect(count).toBe(operations.length);
  });

  it('names the page headers on every paginated list and on nothing else', () => {
    for (const operation of operations) {
      const answer = document.paths[operation.path]?.[operation.method.toLowerCase()] as {
        responses: Record<string, { headers?: Record<string, unknown> }>;
      };
      const headers = Object.keys(answer.responses['200']?.headers ?? {});
      expect([operation.name, headers]).toEqual([
        operation.name,
        'paginated' in operation
          ? ['X-Has-More', 'pageToken' in operation ? 'X-Next-Page-Token' : 'X-Next-Offset']
          : [],
      ]);
    }
  });

  it('describes every parameter and every property, as the schemas do', () => {
    const parameters = Object.values(document.paths).flatMap((item) =>
      Object.values(item as Record<string, { parameters?: { description?: string }[] }>).flatMap(
        (entry) => entry.parameters ?? [],
      ),
    );
    expect(parameters.length).toBeGreaterThan(50);
    expect(parameters.filter((parameter) => !parameter.description)).toEqual([]);
    const text = JSON.stringify(document);
    expect(text).toContain('"description":"pause between keystrokes, ms, ≥ 0, default 0"');
    expect(text).toContain('"description":"warm browsers ready to acquire, ≥ 0"');
  });

  it('resolves every $ref to a component that exists', () => {
    const text = JSON.stringify(document);
    const components = document.components as Record<string, Record<string, unknown>>;
    for (const [, kind, name] of text.matchAll(/"#\/components\/(\w+)\/(\w+)"/g)) {
      expect(components[kind as string]).toHaveProperty(name as string);
    }
  });

  it('describes the upload as multipart with a binary file, and bodies as strict', () => {
    const upload = document.paths['/extensions']?.post as {
      requestBody: { content: Record<string, { schema: Record<string, unknown> }> };
    };
    const schema = upload.requestBody.content['multipart/form-data']?.schema;
    expect(schema).toMatchObject({
      properties: { file: { type: 'string', format: 'binary' } },
      required: ['file'],
      additionalProperties: false,
    });
    const type = document.paths['/browsers/{id}/computer/type']?.post as {
      requestBody: { content: Record<string, { schema: Record<string, unknown> }> };
    };
    expect(type.requestBody.content['application/json']?.schema).toMatchObject({
      properties: { text: { type: 'string' }, delay: { type: 'integer', minimum: 0 } },
      required: ['text'],
      additionalProperties: false,
    });
  });
});
