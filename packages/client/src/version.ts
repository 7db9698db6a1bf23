/** Set by the build from package.json; `dev` when the sources run as they are (the tests). */
declare const __XB_CLIENT_VERSION__: string | undefined;

/** This package's version. */
export const VERSION: string =
  typeof __XB_CLIENT_VERSION__ === 'string' ? __XB_CLIENT_VERSION__ : 'dev';

/** The `User-Agent` every call sends (a caller's own `headers` may replace it). */
export const USER_AGENT = `xb-client/${VERSION}`;
