import {
  array,
  boolean,
  check,
  type InferInput,
  type InferOutput,
  maxLength,
  minLength,
  nullable,
  number,
  object,
  optional,
  picklist,
  pipe,
  regex,
  string,
} from 'valibot';
import { QueryBooleanSchema } from '../browser-pools/pool-requests.js';
import { described } from '../common/describe.js';
import { integerBetween } from '../common/numbers.js';
import { pageQueryEntries } from '../common/pages.js';
import { requestObject } from '../common/request-object.js';
import { NameSchema, TimestampSchema } from '../common/scalars.js';

/** The kinds of proxy the interface names; a self-hosted server takes `custom` only. */
export const PROXY_TYPES = ['custom', 'datacenter', 'isp', 'residential', 'mobile'] as const;

/** How the browser talks to the proxy: plain HTTP, or TLS to the proxy itself. */
export const PROXY_PROTOCOLS = ['http', 'https'] as const;

/** A proxy's protocol. */
export type ProxyProtocol = (typeof PROXY_PROTOCOLS)[number];

/** Most hosts a proxy's `bypass_hosts` lists. */
export const MAX_BYPASS_HOSTS = 100;

/** Longest proxy username or password, in characters. */
const MAX_CREDENTIAL_LENGTH = 256;

/** Whether the service checked the proxy and could reach a site through it. */
export const PROXY_STATUSES = ['available', 'unavailable'] as const;

/**
 * A proxy browsers can route their traffic through. The password is write-only: a record says
 * only whether one is set (`has_password`).
 */
export const ProxySchema = /* @__PURE__ */ object({
  id: /* @__PURE__ */ described(/* @__PURE__ */ string(), "the proxy's id"),
  name: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ string()),
    "the proxy's unique name",
  ),
  type: /* @__PURE__ */ described(
    /* @__PURE__ */ picklist(PROXY_TYPES),
    'kind of proxy (custom on a self-hosted server)',
  ),
  protocol: /* @__PURE__ */ described(
    /* @__PURE__ */ picklist(PROXY_PROTOCOLS),
    'http, or https (TLS to the proxy)',
  ),
  config: /* @__PURE__ */ described(
    /* @__PURE__ */ object({
      host: /* @__PURE__ */ described(/* @__PURE__ */ string(), 'host name or IP address'),
      port: /* @__PURE__ */ described(/* @__PURE__ */ number(), 'port'),
      username: /* @__PURE__ */ described(
        /* @__PURE__ */ optional(/* @__PURE__ */ string()),
        'username the proxy asks for',
      ),
      has_password: /* @__PURE__ */ described(
        /* @__PURE__ */ boolean(),
        'whether a password is set (it is never shown)',
      ),
    }),
    'where the proxy is and who to say you are',
  ),
  /** Hosts the browser reaches directly, not through the proxy. */
  bypass_hosts: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ array(/* @__PURE__ */ string())),
    'hosts reached directly, not through the proxy',
  ),
  /** What the last check found; absent until one ran. */
  status: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ picklist(PROXY_STATUSES)),
    'available or unavailable, by the last check',
  ),
  last_checked: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(TimestampSchema),
    'when it was last checked (ISO 8601 UTC)',
  ),
  /** The address sites saw the last check come from, when it succeeded. */
  ip_address: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ string()),
    'the address sites saw through it at the last check',
  ),
});

/** A proxy (named so as not to shadow the global `Proxy`). */
export type BrowserProxy = InferOutput<typeof ProxySchema>;

/** One page of a GET /proxies call. */
export const ProxyListSchema = /* @__PURE__ */ array(ProxySchema);

/** A host name, IPv4 address or IPv6 address (bracketed or not), without a scheme or port. */
const ProxyHostSchema = /* @__PURE__ */ pipe(
  /* @__PURE__ */ string('must be a string'),
  /* @__PURE__ */ minLength(1, 'must not be empty'),
  /* @__PURE__ */ maxLength(253, 'must be at most 253 characters'),
  /* @__PURE__ */ regex(
    /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*|\[?[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*\]?)$/,
    'must be a host name or an IP address, without a scheme or port',
  ),
);

/** A host the browser reaches directly: `example.com`, `*.example.com`, `.example.com`, an IP. */
const BypassHostSchema = /* @__PURE__ */ pipe(
  /* @__PURE__ */ string('must be a string'),
  /* @__PURE__ */ minLength(1, 'must not be empty'),
  /* @__PURE__ */ maxLength(253, 'must be at most 253 characters'),
  /* @__PURE__ */ regex(
    /^(?:\*\.|\.)?[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?$|^\[?[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*\]?$/,
    'must be a host, *.domain or .domain, or an IP address',
  ),
);

const credential = (what: string) =>
  /* @__PURE__ */ pipe(
    /* @__PURE__ */ string('must be a string'),
    /* @__PURE__ */ maxLength(
      MAX_CREDENTIAL_LENGTH,
      `must be at most ${MAX_CREDENTIAL_LENGTH} characters`,
    ),
    // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters
    /* @__PURE__ */ regex(/^[^\u0000-\u001f\u007f]*$/, `${what} must not hold control characters`),
  );

/** A username: no `:` (Basic authentication ends the username at the first one). */
const UsernameSchema = /* @__PURE__ */ pipe(
  credential('a username'),
  /* @__PURE__ */ minLength(1, 'must not be empty'),
  /* @__PURE__ */ regex(/^[^:]*$/, 'must not contain ":"'),
);

const PasswordSchema = credential('a password');

const BypassHostsSchema = /* @__PURE__ */ pipe(
  /* @__PURE__ */ array(BypassHostSchema, 'must be an array of hosts'),
  /* @__PURE__ */ maxLength(MAX_BYPASS_HOSTS, `must list at most ${MAX_BYPASS_HOSTS}`),
);

const PortSchema = /* @__PURE__ */ integerBetween(1, 65_535);

/** The message for a proxy type a self-hosted server cannot provide. */
export const SELF_HOSTED_PROXY_TYPES_MESSAGE =
  'must be "custom": a self-hosted server routes through proxies the operator provides, and has no datacenter, isp, residential or mobile pool of its own';

/** Body of POST /proxies. */
export const CreateProxyBodySchema = /* @__PURE__ */ requestObject({
  type: /* @__PURE__ */ described(
    /* @__PURE__ */ pipe(
      /* @__PURE__ */ picklist(
        PROXY_TYPES,
        'must be one of custom, datacenter, isp, residential, mobile',
      ),
      /* @__PURE__ */ check((type) => type === 'custom', SELF_HOSTED_PROXY_TYPES_MESSAGE),
    ),
    'custom (a proxy you run)',
  ),
  name: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(NameSchema),
    'unique name, [A-Za-z0-9._-], 1–255 characters',
  ),
  protocol: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(
      /* @__PURE__ */ picklist(PROXY_PROTOCOLS, 'must be http or https'),
      'http',
    ),
    'http, or https (TLS to the proxy), default http',
  ),
  config: /* @__PURE__ */ described(
    /* @__PURE__ */ requestObject({
      host: /* @__PURE__ */ described(
        ProxyHostSchema,
        'host name or IP address, without scheme or port',
      ),
      port: /* @__PURE__ */ described(PortSchema, 'port, 1–65535'),
      username: /* @__PURE__ */ described(
        /* @__PURE__ */ optional(UsernameSchema),
        'username the proxy asks for',
      ),
      password: /* @__PURE__ */ described(
        /* @__PURE__ */ optional(PasswordSchema),
        'password the proxy asks for; write-only',
      ),
    }),
    'where the proxy is and its credentials',
  ),
  bypass_hosts: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(BypassHostsSchema),
    `hosts reached directly (example.com, *.example.com, an IP), at most ${MAX_BYPASS_HOSTS}`,
  ),
});

/** What a create-proxy call asks for, as a caller writes it. */
export type CreateProxyInput = InferInput<typeof CreateProxyBodySchema>;

/** What a create-proxy call asks for, with defaults applied. */
export type CreateProxyBody = InferOutput<typeof CreateProxyBodySchema>;

/**
 * Body of PATCH /proxies/{id}: any subset. Fields of `config` change one by one; `null` clears
 * the username or the password.
 */
export const UpdateProxyBodySchema = /* @__PURE__ */ requestObject({
  name: /* @__PURE__ */ described(/* @__PURE__ */ optional(NameSchema), 'new unique name'),
  protocol: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(/* @__PURE__ */ picklist(PROXY_PROTOCOLS, 'must be http or https')),
    'http or https',
  ),
  config: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(
      /* @__PURE__ */ requestObject({
        host: /* @__PURE__ */ described(
          /* @__PURE__ */ optional(ProxyHostSchema),
          'host name or IP address',
        ),
        port: /* @__PURE__ */ described(/* @__PURE__ */ optional(PortSchema), 'port, 1–65535'),
        username: /* @__PURE__ */ described(
          /* @__PURE__ */ optional(/* @__PURE__ */ nullable(UsernameSchema)),
          'username; null removes it',
        ),
        password: /* @__PURE__ */ described(
          /* @__PURE__ */ optional(/* @__PURE__ */ nullable(PasswordSchema)),
          'password; null removes it; write-only',
        ),
      }),
    ),
    'the fields of the configuration to change',
  ),
  bypass_hosts: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(BypassHostsSchema),
    `hosts reached directly, at most ${MAX_BYPASS_HOSTS}`,
  ),
});

/** What an update-proxy call asks for. */
export type UpdateProxyInput = InferInput<typeof UpdateProxyBodySchema>;

/** What an update-proxy call asks for, validated. */
export type UpdateProxyBody = InferOutput<typeof UpdateProxyBodySchema>;

/** Query of GET /proxies: a page. */
export const ListProxiesQuerySchema = /* @__PURE__ */ requestObject({ ...pageQueryEntries });

/** Query of DELETE /proxies/{id}: `force` deletes one that browsers use. */
export const DeleteProxyQuerySchema = /* @__PURE__ */ requestObject({
  force: /* @__PURE__ */ described(
    /* @__PURE__ */ optional(QueryBooleanSchema, false),
    'delete even while browsers use it (they keep their route), default false',
  ),
});
