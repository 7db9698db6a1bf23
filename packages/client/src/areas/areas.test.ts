/**
 * The files of `src/areas/` and `src/calls/error-body.ts` are generated from the catalog: this
 * test renders them again and fails when a file has fallen behind (a new operation or area, a
 * changed path or field) or is left over. `pnpm --filter @x/client generate` writes them.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as types from '@x/types';
import { describe, expect, it } from 'vitest';
import { GENERATED_MARK, renderClientFiles } from '../../scripts/codegen/render-areas.js';
import { functionName } from '../../scripts/codegen/render-types.js';
import { definitionOf } from '../calls/define-call.js';

const BIOME = fileURLToPath(new URL('../../../../node_modules/.bin/biome', import.meta.url));
const WRITE = process.env.XB_WRITE_OPERATIONS === '1';

function formatted(file: string, source: string): string {
  const result = spawnSync(BIOME, ['check', '--write', `--stdin-file-path=${file}`], {
    input: source,
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`biome: ${result.stderr}`);
  return result.stdout;
}

const files = await renderClientFiles();
const source = (path: string) => fileURLToPath(new URL(`../${path}`, import.meta.url));

describe('the generated files', () => {
  for (const [path, text] of files) {
    it(`${path} is generated from the catalog, and the file is current`, () => {
      const file = source(path);
      const expected = formatted(file, text);
      if (WRITE) writeFileSync(file, expected);
      expect(readFileSync(file, 'utf8')).toBe(expected);
    });
  }

  it('the areas folder is generated from the catalog: no file of a gone area is left', () => {
    // A generated file of an area that is gone (a hand-written file here is left alone).
    const left = readdirSync(source('areas')).filter(
      (name) =>
        name.endsWith('.ts') &&
        !files.has(`areas/${name}`) &&
        readFileSync(source(`areas/${name}`), 'utf8').includes(GENERATED_MARK),
    );
    if (WRITE) for (const name of left) rmSync(source(`areas/${name}`));
    else expect(left).toEqual([]);
  });

  it('carry the route of their operation, one function per operation', async () => {
    // Imported here, so that a generator run writes the files even when they do not load.
    const functions = await import('./index.js');
    const defined = Object.values(functions).filter(
      (value) => value !== functions.operationFunctions,
    );
    expect(defined).toHaveLength(types.operations.length);
    // The list holds each function once, in catalog order.
    expect(functions.operationFunctions.map((call) => definitionOf(call)?.route.name)).toEqual(
      types.operations.map((operation) => operation.name),
    );
    for (const operation of types.operations) {
      const call = (functions as Record<string, unknown>)[functionName(operation)];
      expect(call, operation.name).toBeTypeOf('function');
      expect(definitionOf(call as never)?.route.name).toBe(operation.name);
    }
  });
});
