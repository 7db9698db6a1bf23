import { base32Bytes, totpCode } from '../credentials/totp.js';
import type { SignInField } from './sign-in-driver.js';

/** What a sign-in has to fill from: stored values, a TOTP secret, and what a caller gave. */
export interface SignInValues {
  /** A credential's or a provider item's values, by name (username, email, password, …). */
  readonly stored: Readonly<Record<string, string>>;
  readonly totpSecret?: string | undefined;
  /** Given by `submit` in this flow, by field name; one-time codes are used once. */
  readonly given: Map<string, string>;
  /**
   * Whether `stored` and codes of `totpSecret` may be typed on a page of `host`: the
   * credential's own domain (a provider item's websites), never elsewhere.
   */
  readonly isCredentialHost: (host: string) => boolean;
}

const IDENTIFIER_KEYS = ['username', 'email', 'identifier', 'login', 'user'];

function pick(
  values: Readonly<Record<string, string>>,
  keys: readonly string[],
): string | undefined {
  const lower = new Map(Object.entries(values).map(([key, value]) => [key.toLowerCase(), value]));
  for (const key of keys) {
    const value = lower.get(key.toLowerCase());
    if (value !== undefined && value !== '') return value;
  }
  return undefined;
}

/**
 * The value a field gets: what a caller gave for it, else by its kind from the stored values (an
 * identifier from `username`/`email`/…, an email field preferring `email`; `password`; a one-time
 * code generated from the TOTP secret at this moment), else a value named as the field or its
 * label. Undefined: nothing to fill it with.
 */
export function valueFor(field: SignInField, values: SignInValues, now: Date): string | undefined {
  const given = values.given.get(field.name);
  if (given !== undefined) return given;
  const { stored } = values;
  switch (field.kind) {
    case 'identifier':
      return (
        pick(
          stored,
          field.inputType === 'email' ? ['email', ...IDENTIFIER_KEYS] : IDENTIFIER_KEYS,
        ) ?? pick(stored, [field.name])
      );
    case 'password':
      return pick(stored, ['password', field.name]);
    case 'code':
    case 'totp_code':
      if (values.totpSecret !== undefined)
        return totpCode(base32Bytes(values.totpSecret), now).code;
      return undefined;
    default:
      return pick(stored, [field.name, field.label]);
  }
}

/** Whether a field must have a value before its form is sent. */
export function isNeeded(field: SignInField): boolean {
  return field.required || field.kind !== 'text';
}

/** Whether a field's value is kept for the next sign-in (one-time codes never are). */
export function isDurable(field: SignInField): boolean {
  return field.kind !== 'code' && field.kind !== 'totp_code';
}

/** The name a durable value is kept under in a credential. */
export function keptName(field: SignInField): string {
  if (field.kind === 'identifier') return field.inputType === 'email' ? 'email' : 'username';
  if (field.kind === 'password') return 'password';
  return field.name;
}
