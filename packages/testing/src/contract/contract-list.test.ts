import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ContractCheck } from './check.js';
import { contractChecks } from './run-contract-suite.js';

describe('the contract suite', () => {
  it('runs every check of every checks-*.ts file: a file left out of the list fails here', async () => {
    const files = readdirSync(new URL('.', import.meta.url)).filter((name) =>
      /^checks-[a-z-]+\.ts$/.test(name),
    );
    expect(files.length).toBeGreaterThan(10);
    const listed = new Set<ContractCheck>(contractChecks);
    for (const file of files) {
      const module = (await import(`./${file.replace(/\.ts$/, '.js')}`)) as Record<string, unknown>;
      const checks = Object.values(module).filter(Array.isArray).flat() as ContractCheck[];
      expect(checks.length, file).toBeGreaterThan(0);
      for (const check of checks) expect(listed.has(check), `${file}: ${check.name}`).toBe(true);
    }
  });
});
