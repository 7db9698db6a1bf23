import type { BrowserInstance } from '../engines.js';
import type { SignInDriver, SignInField, SignInFieldKind, SignInPage } from './sign-in-driver.js';

/** A field of a scripted sign-in page. */
export interface ScriptedField {
  readonly name: string;
  readonly kind: SignInFieldKind;
  readonly label?: string;
  readonly inputType?: string;
  readonly required?: boolean;
}

/** One page of a scripted site's sign-in. */
export interface ScriptedStep {
  /** What it asks for (none: a step only a person can do, see `blocker`). */
  readonly fields: readonly ScriptedField[];
  /** The site's error for the values sent, or undefined when it takes them. */
  readonly check?: (values: Readonly<Record<string, string>>) => string | undefined;
  /** Something only a person can do, shown until `solve` is called for the site. */
  readonly blocker?: string;
  /** Where the values sent lead: another host's sign-in (an identity provider, say). */
  readonly goesTo?: string;
  /** A page that goes to this host as soon as its first value is typed (a hostile page). */
  readonly movesWhileTyped?: string;
}

/** A site's sign-in, page after page; after the last, the profile is signed in. */
export interface ScriptedSite {
  readonly steps: readonly ScriptedStep[];
}

/** The site every host has unless told otherwise: a username and a password on one page. */
export const DEFAULT_SCRIPTED_SITE: ScriptedSite = {
  steps: [
    {
      fields: [
        { name: 'username', kind: 'identifier', label: 'Username' },
        { name: 'password', kind: 'password', label: 'Password', inputType: 'password' },
      ],
      check: (values) =>
        values.password === 'wrong-password' ? 'Incorrect username or password.' : undefined,
    },
  ],
};

interface TabState {
  host: string;
  origin: string;
  step: number;
  error?: string | undefined;
}

/**
 * A sign-in driver over scripted sites, for services without a page to read (the fake, tests):
 * each host's sign-in is a list of pages; values are checked as the script says; a host whose
 * sign-in finished is signed in for every later browser until `signOut`.
 */
export class ScriptedSignInDriver<I extends BrowserInstance> implements SignInDriver<I> {
  readonly #sites = new Map<string, ScriptedSite>();
  readonly #tabs = new WeakMap<I, TabState>();
  readonly #signedIn = new Set<string>();
  readonly #solved = new Set<string>();
  /** What each host's pages were sent, in order (values by field name). */
  readonly sent: { readonly host: string; readonly values: Readonly<Record<string, string>> }[] =
    [];

  /** Gives `host` its own sign-in. */
  site(host: string, site: ScriptedSite): void {
    this.#sites.set(host.toLowerCase(), site);
  }

  /** Forgets that `host` was signed in: its next check finds the sign-in form. */
  signOut(host: string): void {
    this.#signedIn.delete(host.toLowerCase());
  }

  /** Whether `host` is signed in. */
  isSignedIn(host: string): boolean {
    return this.#signedIn.has(host.toLowerCase());
  }

  /** Does the person's step (`blocker`) of `host`'s sign-in. */
  solve(host: string): void {
    this.#solved.add(host.toLowerCase());
  }

  async open(instance: I, url: string): Promise<void> {
    const { hostname, origin } = new URL(url);
    this.#tabs.set(instance, { host: hostname.toLowerCase(), origin, step: 0 });
  }

  async read(instance: I): Promise<SignInPage> {
    const tab = this.#tabs.get(instance);
    if (!tab) return { url: 'about:blank', isLoading: false, fields: [] };
    const steps = this.#siteOf(tab.host).steps;
    const step = steps[tab.step];
    if (this.#signedIn.has(tab.host) || !step)
      return { url: `${tab.origin}/account`, isLoading: false, fields: [] };
    if (step.blocker && this.#solved.has(tab.host)) {
      this.#solved.delete(tab.host);
      tab.step++;
      if (tab.step >= steps.length) this.#signedIn.add(tab.host);
      return this.read(instance);
    }
    return {
      url: `${tab.origin}/sign-in/${tab.step + 1}`,
      isLoading: false,
      fields: step.fields.map(fieldOf),
      error: tab.error,
      blocker: step.blocker,
    };
  }

  async fill(
    instance: I,
    values: readonly { readonly selector: string; readonly value: string }[],
    isAllowedHost: (host: string) => boolean,
  ): Promise<boolean> {
    const tab = this.#tabs.get(instance);
    if (!tab) return true;
    const steps = this.#siteOf(tab.host).steps;
    const step = steps[tab.step];
    if (!step) return true;
    const byName: Record<string, string> = {};
    const startedOn = tab.host;
    for (const { selector, value } of values) {
      // The host is read again before each value, as a browser's before each key.
      if (!isAllowedHost(tab.host)) {
        if (Object.keys(byName).length > 0) this.sent.push({ host: startedOn, values: byName });
        return false;
      }
      byName[selector.replace(/^\[name="(.*)"\]$/, '$1')] = value;
      if (step.movesWhileTyped !== undefined) {
        tab.host = step.movesWhileTyped.toLowerCase();
        tab.origin = `https://${tab.host}`;
      }
    }
    this.sent.push({ host: tab.host, values: byName });
    tab.error = step.check?.(byName);
    if (tab.error !== undefined) return true;
    if (step.goesTo !== undefined) {
      tab.host = step.goesTo.toLowerCase();
      tab.origin = `https://${tab.host}`;
      tab.step = 0;
      return true;
    }
    tab.step++;
    if (tab.step >= steps.length) this.#signedIn.add(tab.host);
    return true;
  }

  #siteOf(host: string): ScriptedSite {
    return this.#sites.get(host) ?? DEFAULT_SCRIPTED_SITE;
  }
}

function fieldOf(field: ScriptedField): SignInField {
  return {
    selector: `[name="${field.name}"]`,
    kind: field.kind,
    name: field.name,
    label: field.label ?? field.name,
    inputType: field.inputType ?? (field.kind === 'password' ? 'password' : 'text'),
    required: field.required ?? true,
  };
}
