declare const __XB_VERSION__: string | undefined;

/** The version of @x/cli, put in at build time from package.json. */
export const VERSION: string = typeof __XB_VERSION__ === 'string' ? __XB_VERSION__ : '0.0.0-dev';
