import { describe, expect, it } from 'vitest';
import { ServiceError } from '../service-error.js';
import { nestFormParts } from './request-body.js';

function refusal(value: Record<string, unknown>): ServiceError {
  try {
    nestFormParts(value);
  } catch (error) {
    if (error instanceof ServiceError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('nestFormParts', () => {
  it('nests bracketed names into lists of objects, keeping plain names', () => {
    const file = new Blob(['x']);
    expect(
      nestFormParts({
        'files[1][dest_path]': '/home/browser/b',
        'files[0][dest_path]': '/home/browser/a',
        'files[0][file]': file,
        'files[1][file]': file,
        dest_path: '/home/browser',
      }),
    ).toEqual({
      files: [
        { dest_path: '/home/browser/a', file },
        { dest_path: '/home/browser/b', file },
      ],
      dest_path: '/home/browser',
    });
  });

  it('refuses names that cannot nest, each with a 400 naming the part', () => {
    for (const value of [
      { 'files[0][file]': 'a', 'files[x][file]': 'b' },
      { 'files[1000][file]': 'a' },
      { files: 'a', 'files[0][file]': 'b' },
      { 'files[0]': 'a', 'files[0][file]': 'b' },
    ]) {
      const error = refusal(value);
      expect(error.status).toBe(400);
    }
    expect(refusal({ 'files[0][file]': 'a', 'files[00][file]': 'b' }).message).toContain(
      'given twice',
    );
  });
});
