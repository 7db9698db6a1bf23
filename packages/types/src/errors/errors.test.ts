import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { TypeTextBodySchema } from '../computer/type-text.js';
import { ErrorSchema, errorBody } from './error-body.js';
import {
  ERROR_CODES,
  ERROR_STATUS_BY_CODE,
  errorCodeOfStatus,
  statusOfErrorCode,
} from './error-codes.js';
import { validationDetails } from './validation-details.js';

describe('error codes', () => {
  it('maps every code of the contract to its status and back', () => {
    expect(ERROR_STATUS_BY_CODE).toEqual({
      bad_request: 400,
      unauthorized: 401,
      forbidden: 403,
      not_found: 404,
      method_not_allowed: 405,
      conflict: 409,
      payload_too_large: 413,
      unsupported_media_type: 415,
      idempotency_key_reused: 422,
      rate_limited: 429,
      internal_error: 500,
      bad_gateway: 502,
      unavailable: 503,
      gateway_timeout: 504,
      insufficient_storage: 507,
    });
    for (const code of ERROR_CODES) expect(errorCodeOfStatus(statusOfErrorCode(code))).toBe(code);
  });

  it('names no code for a status the contract does not use', () => {
    expect(errorCodeOfStatus(418)).toBeUndefined();
  });
});

describe('errorBody', () => {
  it('builds a valid Error with only code and message', () => {
    const body = errorBody('not_found', 'No browser pool named "x".');
    expect(body).toEqual({ code: 'not_found', message: 'No browser pool named "x".' });
    expect(v.is(ErrorSchema, body)).toBe(true);
  });

  it('keeps details and inner_error when given, and drops empty details', () => {
    const body = errorBody(
      'bad_request',
      'Invalid input.',
      [{ code: 'invalid_input', message: 'delay: must be >= 0' }],
      { code: 'schema', message: 'failed' },
    );
    expect(body.details).toHaveLength(1);
    expect(body.inner_error).toEqual({ code: 'schema', message: 'failed' });
    expect(v.is(ErrorSchema, body)).toBe(true);
    expect(errorBody('bad_request', 'x', [])).not.toHaveProperty('details');
  });
});

describe('ErrorSchema', () => {
  it('tolerates unknown fields a newer server adds', () => {
    expect(v.is(ErrorSchema, { code: 'x', message: 'y', trace_id: 'z' })).toBe(true);
  });

  it('rejects a body without code or message', () => {
    expect(v.is(ErrorSchema, { message: 'y' })).toBe(false);
    expect(v.is(ErrorSchema, { code: 'x' })).toBe(false);
    expect(v.is(ErrorSchema, { code: 1, message: 'y' })).toBe(false);
  });
});

describe('validationDetails', () => {
  it('lists one invalid_input detail per problem, naming the field path', () => {
    const result = v.safeParse(TypeTextBodySchema, { text: 5, delay: -1, speed: 2 });
    expect(result.success).toBe(false);
    const details = validationDetails(result.issues ?? [], 'body');
    expect(details.map((detail) => detail.code)).toEqual([
      'invalid_input',
      'invalid_input',
      'invalid_input',
    ]);
    const messages = details.map((detail) => detail.message).join('\n');
    expect(messages).toContain('body.text: must be a string');
    expect(messages).toContain('body.delay: must be >= 0');
    expect(messages).toContain('body.speed: is not a known field');
  });
});
