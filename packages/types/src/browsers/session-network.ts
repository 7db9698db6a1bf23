import { array, object, string } from 'valibot';
import { described } from '../common/describe.js';

/**
 * What a browser's network may reach besides the public internet. In a module of its own: a
 * pool's record imports it without the session's (whose URL schemas a bundler cannot drop).
 */
export const SessionNetworkSchema = /* @__PURE__ */ object({
  allow: /* @__PURE__ */ described(
    /* @__PURE__ */ array(/* @__PURE__ */ string()),
    'networks (a.b.c.d/n) and address:port entries opened for it',
  ),
});
