/**
 * The package's public names: every name of the areas' files (`areas.ts`), the catalog of their
 * operations, and the schemas and errors they share.
 */
export * from './areas.js';
export * from './catalog/index.js';
export * from './common/index.js';
export * from './errors/index.js';
