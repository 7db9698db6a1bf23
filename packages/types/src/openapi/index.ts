export { componentSchemas } from './component-schemas.js';
export { createOpenApiDocument, type OpenApiDocument } from './create-openapi-document.js';
