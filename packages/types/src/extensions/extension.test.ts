import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { extensionRecord } from '../__fixtures__/records.js';
import { ExtensionSchema, UploadExtensionFormSchema } from './extension.js';

describe('ExtensionSchema', () => {
  it('accepts a full record, and one never used (no last_used_at, no name)', () => {
    expect(v.parse(ExtensionSchema, extensionRecord)).toEqual(extensionRecord);
    const { last_used_at: _, name: __, ...fresh } = extensionRecord;
    expect(v.is(ExtensionSchema, fresh)).toBe(true);
  });

  it.each([
    ['a missing size', { size_bytes: undefined }],
    ['a negative size', { size_bytes: -5 }],
    ['a fractional size', { size_bytes: 1.5 }],
    ['a malformed last_used_at', { last_used_at: '2026-11-22' }],
  ])('rejects %s', (_, change) => {
    expect(v.is(ExtensionSchema, { ...extensionRecord, ...change })).toBe(false);
  });
});

describe('UploadExtensionFormSchema', () => {
  const file = new Blob([new Uint8Array([0x50, 0x4b, 0x03, 0x04])], { type: 'application/zip' });

  it('accepts a file with or without a name', () => {
    expect(v.is(UploadExtensionFormSchema, { file })).toBe(true);
    expect(v.is(UploadExtensionFormSchema, { file, name: 'my-ext' })).toBe(true);
  });

  it('rejects a missing file, a file that is a string, a bad name or an unknown part', () => {
    expect(v.is(UploadExtensionFormSchema, { name: 'x' })).toBe(false);
    expect(v.is(UploadExtensionFormSchema, { file: 'PK..' })).toBe(false);
    expect(v.is(UploadExtensionFormSchema, { file, name: 'no spaces' })).toBe(false);
    expect(v.is(UploadExtensionFormSchema, { file, label: 'x' })).toBe(false);
  });
});
