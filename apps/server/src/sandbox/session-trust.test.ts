import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findSystemTools } from '../system/executables.js';
import { makeTestCa } from '../test-support/test-ca.js';
import { NSS_FOLDER, readCaFile, SessionTrust } from './session-trust.js';

describe("the sessions' trusted authorities", () => {
  it('refuses a file that is missing, holds no certificate, or names a site instead of a CA', () => {
    const folder = mkdtempSync(join(tmpdir(), 'xb-trust-'));
    expect(() => readCaFile(join(folder, 'missing.pem'))).toThrow(
      /XB_SESSION_CA_FILE: cannot read/,
    );
    writeFileSync(join(folder, 'empty.pem'), 'nothing here\n');
    expect(() => readCaFile(join(folder, 'empty.pem'))).toThrow(/holds no PEM certificate/);
    const ca = makeTestCa(['shop.example.test']);
    try {
      writeFileSync(join(folder, 'site.pem'), ca.cert);
      expect(() => readCaFile(join(folder, 'site.pem'))).toThrow(/is not a CA/);
      expect(readCaFile(ca.caFile)).toHaveLength(1);
    } finally {
      ca.remove();
    }
  });

  it("puts the CA in an NSS database a browser's home gets, and a copy every sandbox can read", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'xb-trust-'));
    const ca = makeTestCa(['shop.example.test']);
    try {
      const trust = await SessionTrust.prepare(ca.caFile, dataDir, findSystemTools().certutil);
      expect(trust.count).toBe(1);
      expect(statSync(trust.caFile).mode & 0o777).toBe(0o644);
      expect(readFileSync(trust.caFile, 'utf8')).toContain('BEGIN CERTIFICATE');
      const home = mkdtempSync(join(tmpdir(), 'xb-home-'));
      trust.furnish(home, undefined);
      expect(statSync(join(home, NSS_FOLDER, 'cert9.db')).size).toBeGreaterThan(0);
    } finally {
      ca.remove();
    }
  });
});
