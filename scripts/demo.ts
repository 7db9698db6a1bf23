/**
 * Prints the operation catalog and writes the OpenAPI 3.1 document generated from it.
 * Run through `bash scripts/demo.sh`, which builds the packages first.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { operations, successStatuses } from '@x/types';
import { createOpenApiDocument } from '@x/types/openapi';

const rows = operations.map((operation) => [
  operation.specSection ?? '',
  operation.method,
  operation.path,
  operation.name,
  successStatuses(operation).join(','),
]);
const widths = [4, 6, 52, 28, 7];
const header = ['§', 'method', 'path', 'operation', 'success'];
for (const row of [header, ...rows]) {
  console.log(row.map((cell, index) => cell.padEnd(widths[index] ?? 0)).join(' '));
}

mkdirSync('out', { recursive: true });
const document = createOpenApiDocument();
writeFileSync('out/openapi.json', `${JSON.stringify(document, null, 2)}\n`);
console.log(`\n${operations.length} operations; OpenAPI 3.1 document written to out/openapi.json`);
console.log('The self-hosted server (apps/server) is not built yet: there is no live demo so far.');
