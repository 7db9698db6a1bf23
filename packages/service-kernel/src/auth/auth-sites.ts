import type { AuthConnection } from '@x/types';

/**
 * The sign-in sites of the identity providers a credential may name (`sso_provider`): its values
 * are typed there too, as on its own domain (a person's Google account signs in at Google).
 */
export const SSO_PROVIDER_SITES: Readonly<Record<string, readonly string[]>> = {
  google: ['accounts.google.com'],
  microsoft: ['login.microsoftonline.com', 'login.live.com'],
  github: ['github.com'],
  okta: ['*.okta.com', '*.oktapreview.com'],
  auth0: ['*.auth0.com'],
  apple: ['appleid.apple.com'],
  facebook: ['www.facebook.com'],
  linkedin: ['www.linkedin.com'],
  cognito: ['*.amazoncognito.com'],
  onelogin: ['*.onelogin.com'],
  ping: ['*.pingone.com', '*.pingidentity.com'],
};

/** Identity providers, named when a sign-in goes to one (values are filled there only when allowed). */
export const SSO_DOMAINS = [
  'accounts.google.com',
  'login.microsoftonline.com',
  'login.live.com',
  '*.okta.com',
  '*.oktapreview.com',
  '*.auth0.com',
  'appleid.apple.com',
  'github.com',
  'www.facebook.com',
  'www.linkedin.com',
  '*.amazoncognito.com',
  '*.onelogin.com',
  '*.pingone.com',
  '*.pingidentity.com',
];

/** Whether `host` is `domain`, a subdomain of it, or covered by a `*.` pattern. */
export function hostIs(host: string, domain: string): boolean {
  const bare = domain.startsWith('*.') ? domain.slice(2) : domain;
  return host === bare || host.endsWith(`.${bare}`);
}

/** The page a sign-in opens: the connection's `login_url`, else its domain's home page. */
export function loginUrlOf(record: AuthConnection): string {
  return record.login_url ?? `https://${record.domain.replace(/^\*\./, '')}/`;
}

/** Whether a page of `host` is the connection's own: its domain, an allowed one, its login page. */
export function isAllowedHost(record: AuthConnection, host: string): boolean {
  return (
    [record.domain, ...(record.allowed_domains ?? [])].some((domain) => hostIs(host, domain)) ||
    (record.login_url !== undefined && new URL(record.login_url).hostname.toLowerCase() === host)
  );
}
