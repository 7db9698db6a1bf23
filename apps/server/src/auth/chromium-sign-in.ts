import type { SignInDriver, SignInPage } from '@x/service-kernel';
import type { ChromiumInstance } from '../browsers/chromium-instance.js';

/** Longest one read of the page may take before it counts as still loading, in ms. */
const READ_TIMEOUT_MS = 5000;

/**
 * What the page shows, read by a script in it: the visible fields of its sign-in form, each
 * classified by its type, autocomplete hint, name, id, label and placeholder (a password; a
 * one-time code; an identifier: an email, a username, a login; other text), the site's error
 * message (`role=alert`, `aria-live`, an error class), and a captcha (a known widget's frame, or
 * an element or field named so). A page without an identifier, password or code field has no
 * sign-in form.
 */
const READ_PAGE = `(() => {
  const url = location.href;
  if (document.readyState !== 'complete') return { url, isLoading: true, fields: [] };
  const visible = (el) => {
    const box = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    return box.width > 0 && box.height > 0 && style.visibility !== 'hidden' && style.display !== 'none';
  };
  const clean = (text) => (text || '').replace(/\\s+/g, ' ').trim();
  const labelOf = (el) =>
    clean(el.labels && el.labels[0] && el.labels[0].textContent) ||
    clean(el.getAttribute('aria-label')) || clean(el.placeholder) || el.name || el.id || '';
  const selectorOf = (el) => {
    if (el.id) return '#' + CSS.escape(el.id);
    if (el.name) return el.tagName.toLowerCase() + '[name="' + CSS.escape(el.name) + '"]';
    const path = [];
    for (let node = el; node && node.nodeType === 1 && node !== document.body; node = node.parentElement) {
      let index = 1;
      for (let sibling = node.previousElementSibling; sibling; sibling = sibling.previousElementSibling)
        if (sibling.tagName === node.tagName) index++;
      path.unshift(node.tagName.toLowerCase() + ':nth-of-type(' + index + ')');
    }
    return 'body > ' + path.join(' > ');
  };
  const SKIPPED = ['hidden', 'submit', 'button', 'checkbox', 'radio', 'image', 'reset', 'file', 'range', 'color'];
  const kindOf = (el) => {
    const hint = (el.getAttribute('autocomplete') || '').toLowerCase();
    const words = [el.name, el.id, hint, labelOf(el), el.placeholder].join(' ').toLowerCase();
    if (/captcha/.test(words)) return 'captcha';
    if (el.type === 'password' || hint.includes('password')) return 'password';
    if (hint.includes('one-time-code') || /\\b(otp|totp|2fa|mfa|one[- ]?time|verification|passcode|security code|auth(entication|enticator)? code|code)\\b/.test(words))
      return /authenticator|totp/.test(words) ? 'totp_code' : 'code';
    if (el.type === 'email' || hint === 'username' || hint === 'email' || /\\b(e-?mail|user ?(name|id)?|login|account|identifier)\\b/.test(words))
      return 'identifier';
    return 'text';
  };
  let blocker;
  const widget = document.querySelector('iframe[src*="recaptcha"], iframe[src*="hcaptcha"], iframe[src*="turnstile"], iframe[src*="captcha"], .g-recaptcha, .h-captcha, .cf-turnstile, [data-captcha], [id*="captcha" i], [class*="captcha" i]');
  if (widget && visible(widget)) blocker = 'A captcha is shown';
  const inputs = [...document.querySelectorAll('input, textarea')].filter(
    (el) => !SKIPPED.includes(el.type) && !el.disabled && !el.readOnly && visible(el),
  );
  let fields = [];
  inputs.forEach((el, index) => {
    const kind = kindOf(el);
    if (kind === 'captcha') {
      blocker = 'A captcha is shown';
      return;
    }
    fields.push({
      selector: selectorOf(el),
      kind,
      name: el.name || el.id || 'field-' + (index + 1),
      label: labelOf(el),
      inputType: el.type || 'text',
      placeholder: el.placeholder || undefined,
      required: el.required,
    });
  });
  if (!fields.some((field) => field.kind !== 'text')) fields = [];
  let error;
  for (const el of document.querySelectorAll('[role="alert"], [aria-live="assertive"], .error, .errors, .alert-danger, .error-message, [class*="error" i], [id*="error" i]')) {
    const text = clean(el.textContent);
    if (text && visible(el) && !el.querySelector('input')) {
      error = text.slice(0, 300);
      break;
    }
  }
  return { url, isLoading: false, fields, error, blocker };
})()`;

/** Empties a field and gives it the focus, so the keys typed next go into it. */
const focusField = (selector: string) => `(() => {
  const el = document.querySelector(${JSON.stringify(selector)});
  if (!el) return false;
  el.focus();
  el.value = '';
  el.dispatchEvent(new Event('input', { bubbles: true }));
  return document.activeElement === el;
})()`;

/** Sends the form of a field as a person would: its submit button, else the form itself. */
const submitForm = (selector: string) => `(() => {
  const el = document.querySelector(${JSON.stringify(selector)});
  const form = el && (el.form || el.closest('form'));
  if (!form) return false;
  const button = form.querySelector('button[type="submit"], input[type="submit"], button:not([type])');
  if (button) button.click();
  else form.requestSubmit();
  return true;
})()`;

/**
 * Sign-in pages read and filled in real Chromium: a script in the page reads the form; values
 * are typed as key events (a person's typing, which sites' own scripts see); the form is sent with
 * its button, or Enter where there is no form.
 */
export class ChromiumSignInDriver implements SignInDriver<ChromiumInstance> {
  async open(instance: ChromiumInstance, url: string): Promise<void> {
    await instance.chromium.openPage(url);
  }

  async read(instance: ChromiumInstance): Promise<SignInPage> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      return await Promise.race([
        instance.chromium.evaluate<SignInPage>(READ_PAGE),
        new Promise<SignInPage>((resolve) => {
          timer = setTimeout(
            () => resolve({ url: 'about:blank', isLoading: true, fields: [] }),
            READ_TIMEOUT_MS,
          );
        }),
      ]);
    } catch {
      // Between two documents: the page that was read is gone.
      return { url: 'about:blank', isLoading: true, fields: [] };
    } finally {
      clearTimeout(timer);
    }
  }

  async fill(
    instance: ChromiumInstance,
    values: readonly { readonly selector: string; readonly value: string }[],
    isAllowedHost: (host: string) => boolean,
  ): Promise<boolean> {
    const { chromium } = instance;
    const isAllowedUrl = (url: string) => {
      try {
        return isAllowedHost(new URL(url).hostname.toLowerCase());
      } catch {
        return false;
      }
    };
    for (const { selector, value } of values) {
      if (!(await chromium.evaluate<boolean>(focusField(selector))))
        throw new Error(`the field ${selector} cannot be typed into`);
      if (!(await chromium.typeWhere(value, isAllowedUrl))) return false;
    }
    const last = values.at(-1);
    if (!last) return true;
    if (!(await chromium.evaluate<boolean>(submitForm(last.selector)))) {
      await chromium.key({ type: 'down', key: 'Enter', modifiers: 0 });
      await chromium.key({ type: 'up', key: 'Enter', modifiers: 0 });
    }
    return true;
  }
}
