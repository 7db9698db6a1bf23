/**
 * `operations.ts`, `every-function.ts`, `operation-types.ts` and `error-body.ts` are generated from the catalog: this test renders them
 * again and fails when a file has fallen behind (a new operation, a changed path or field).
 * `pnpm --filter @x/client generate` writes them.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as types from '@x/types';
import { describe, expect, it } from 'vitest';
import {
  renderEveryFunctionFile,
  renderOperationsFile,
} from '../../scripts/codegen/render-operations.js';
import { functionName, renderTypesFile } from '../../scripts/codegen/render-types.js';
import * as functions from './operations.js';

const BIOME = fileURLToPath(new URL('../../../../node_modules/.bin/biome', import.meta.url));

function formatted(file: string, source: string): string {
  const result = spawnSync(BIOME, ['check', '--write', `--stdin-file-path=${file}`], {
    input: source,
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`biome: ${result.stderr}`);
  return result.stdout;
}

const rendered = renderTypesFile();
const files = {
  'operation-types.ts': rendered.source,
  'error-body.ts': rendered.errorBodySource,
  'operations.ts': renderOperationsFile(rendered.byOperation),
  'every-function.ts': renderEveryFunctionFile(),
};

describe('the generated files', () => {
  for (const [name, source] of Object.entries(files)) {
    it(`${name} is generated from the catalog, and the file is current`, () => {
      const file = fileURLToPath(new URL(`./${name}`, import.meta.url));
      const expected = formatted(file, source);
      if (process.env.XB_WRITE_OPERATIONS === '1') writeFileSync(file, expected);
      expect(readFileSync(file, 'utf8')).toBe(expected);
    });
  }

  it('carry the route of their operation, one function per operation', () => {
    const defined = Object.values(functions);
    expect(defined).toHaveLength(types.operations.length);
    for (const operation of types.operations) {
      const call = (functions as Record<string, unknown>)[functionName(operation)];
      expect(call, operation.name).toBeTypeOf('function');
    }
  });
});
