/** Set by the build from package.json; `dev` when the sources run as they are (the tests). */
declare const __XB_MCP_VERSION__: string | undefined;

/** This package's version, which the MCP server gives as its own. */
export const VERSION: string = typeof __XB_MCP_VERSION__ === 'string' ? __XB_MCP_VERSION__ : 'dev';
