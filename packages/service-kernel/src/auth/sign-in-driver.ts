import type { BrowserInstance } from '../engines.js';

/** The sign-in driver: what reads a sign-in page and fills it, for the service's own sign-ins. */

/** What a field of a sign-in form asks for, as a sign-in reads it. */
export type SignInFieldKind = 'identifier' | 'password' | 'code' | 'totp_code' | 'text';

/** A field of a sign-in form, as the page shows it. */
export interface SignInField {
  /** A CSS selector that finds it again on this page. */
  readonly selector: string;
  readonly kind: SignInFieldKind;
  /** Its `name` (else `id`): what values are named by. */
  readonly name: string;
  /** Its label (a `<label>`, `aria-label`, or placeholder), for a person. */
  readonly label: string;
  /** Its `type` attribute (text, email, password, tel, number, …). */
  readonly inputType: string;
  readonly placeholder?: string | undefined;
  readonly required: boolean;
}

/** What a page shows, as a sign-in reads it. */
export interface SignInPage {
  readonly url: string;
  /** Still loading, or between two pages: read it again. */
  readonly isLoading: boolean;
  /** The visible fields of its sign-in form (none: no form to fill). */
  readonly fields: readonly SignInField[];
  /** The site's own error message, when one shows (a wrong password). */
  readonly error?: string | undefined;
  /** Something only a person can do, in words (a captcha), when one shows. */
  readonly blocker?: string | undefined;
}

/**
 * Reads and fills sign-in pages in a browser's active tab: the server runs a script in the page
 * (real Chromium); the fake follows a scripted site.
 */
export interface SignInDriver<I extends BrowserInstance> {
  /** Opens `url` in the active tab; resolves once it starts loading. */
  open(instance: I, url: string): Promise<void>;
  /** The page as it is now. */
  read(instance: I): Promise<SignInPage>;
  /**
   * Types each value into its field, as keys a person types, and submits their form; before
   * each key it reads the page's host, and stops (false) when `isAllowedHost` refuses it: what
   * is typed for one site never reaches a page that moved on to another.
   */
  fill(
    instance: I,
    values: readonly { readonly selector: string; readonly value: string }[],
    isAllowedHost: (host: string) => boolean,
  ): Promise<boolean>;
}
