import { type AuthConnection, formatTimestamp } from '@x/types';
import type { BrowserInstance } from '../engines.js';
import type { ModelContext } from '../model-context.js';
import type { AuthBrowsers } from './auth-browsers.js';
import type { AuthConnectionStore } from './auth-connection-store.js';
import type { AuthCredentials } from './auth-credentials.js';
import { AuthFlow, FlowFailure } from './auth-flow.js';
import type { AuthHealthChecks } from './auth-health-checks.js';
import { hostIs, isAllowedHost, loginUrlOf, SSO_DOMAINS } from './auth-sites.js';
import { flowEntry } from './auth-timeline.js';
import type { SignInField } from './sign-in-driver.js';
import { awaitPerson, changed, failureOf, settled, signatureOf } from './sign-in-pages.js';
import { isDurable, isNeeded, keptName, type SignInValues, valueFor } from './sign-in-values.js';

/** Longest a flow lasts, and longest it waits for `submit`, in ms. */
export const FLOW_LIFETIME_MS = 20 * 60_000;
export const INPUT_WAIT_MS = 10 * 60_000;

/** Most pages one flow goes through (forms sent, external steps). */
const MAX_FLOW_STEPS = 12;

/** What a flow works with, besides the model's context. */
export interface AuthFlowRunnerParts<I extends BrowserInstance> {
  readonly store: AuthConnectionStore<I>;
  readonly credentials: AuthCredentials<I>;
  readonly browsers: AuthBrowsers<I>;
  readonly health: AuthHealthChecks<I>;
  /** The flows running, by connection: the model's, which answers with their state. */
  readonly flows: Map<string, AuthFlow>;
}

/**
 * The sign-in flow a connection runs, in a browser of its profile: it opens the sign-in page,
 * fills what the credential holds, asks for what it lacks, hands a person what only a person can
 * do, follows multi-step forms, and writes how the flow ended in the connection.
 */
export class AuthFlowRunner<I extends BrowserInstance> {
  readonly #context: ModelContext<I>;
  readonly #parts: AuthFlowRunnerParts<I>;

  constructor(context: ModelContext<I>, parts: AuthFlowRunnerParts<I>) {
    this.#context = context;
    this.#parts = parts;
  }

  #now(): Date {
    return this.#context.clock();
  }

  /** Starts a flow: its browser opens, and the flow goes on in the background. */
  async start(
    record: AuthConnection,
    type: 'LOGIN' | 'REAUTH',
    proxyId: string | undefined,
    isRecorded = record.record_session,
  ): Promise<AuthFlow> {
    const { browsers } = this.#parts;
    const now = this.#now();
    const flow = new AuthFlow(
      this.#context.nextId('ev'),
      type,
      now,
      new Date(now.getTime() + FLOW_LIFETIME_MS),
    );
    const values = await this.#parts.credentials.valuesOf(record);
    const entry = await browsers.openForFlow(record, proxyId, FLOW_LIFETIME_MS);
    const browserId = entry.record.session_id;
    flow.browserStarted(
      browserId,
      browsers.liveViewUrl(browserId, 'control', FLOW_LIFETIME_MS),
      browsers.liveViewUrl(browserId, 'read', FLOW_LIFETIME_MS),
    );
    this.#parts.flows.set(record.id, flow);
    if (isRecorded) await browsers.record(flow, browserId, record.id);
    const expiry = setTimeout(
      () => flow.stop.abort(new FlowFailure('expired', 'The flow expired before it ended.')),
      FLOW_LIFETIME_MS,
    );
    expiry.unref?.();
    await this.#parts.store.write(record.id, (current) => current, flowEntry(flow, this.#now()));
    void this.#run(record, flow, entry.instance, values)
      .finally(() => clearTimeout(expiry))
      .catch((error: unknown) =>
        this.#context.log.error(
          { err: error, connection: record.id },
          'a sign-in flow failed to end',
        ),
      );
    return flow;
  }

  async #run(
    record: AuthConnection,
    flow: AuthFlow,
    instance: I,
    values: SignInValues,
  ): Promise<void> {
    const { signal } = flow.stop;
    const { signIn } = this.#context.engines;
    const kept = new Map<string, string>();
    let postLoginUrl: string | undefined;
    try {
      await signIn.open(instance, loginUrlOf(record));
      const tried = new Set<string>();
      let hasSent = false;
      for (let step = 0; ; step++) {
        if (step >= MAX_FLOW_STEPS)
          throw new FlowFailure(
            'too_many_steps',
            `The sign-in went through ${MAX_FLOW_STEPS} pages without ending.`,
          );
        const page = await settled(signIn, instance, signal);
        const host = new URL(page.url).hostname.toLowerCase();
        if (!isAllowedHost(record, host)) {
          // Values are filled on the connection's own sites only; anywhere else a person goes on.
          const where = SSO_DOMAINS.some((domain) => hostIs(host, domain))
            ? `${host}, an identity provider`
            : `${host}, which is not ${record.domain} or an allowed domain`;
          await awaitPerson(
            signIn,
            flow,
            instance,
            page,
            `The sign-in went to ${where}: finish it in the browser (hosted_url), or add it to allowed_domains.`,
          );
          continue;
        }
        if (page.blocker) {
          await awaitPerson(
            signIn,
            flow,
            instance,
            page,
            `${page.blocker}: finish this step in the browser (hosted_url).`,
          );
          continue;
        }
        if (hasSent && page.error)
          throw new FlowFailure(
            'credentials_invalid',
            `The site refused the sign-in: ${page.error}`,
            page.error,
          );
        if (page.fields.length === 0) {
          postLoginUrl = page.url;
          break;
        }
        // The credential's values are typed on its own sites only; elsewhere the flow asks.
        const isCredentialHost = values.isCredentialHost(host);
        const usable = isCredentialHost ? values : { ...values, stored: {}, totpSecret: undefined };
        let plan = this.#plan(page.fields, usable);
        const missing = plan.filter(({ field, value }) => value === undefined && isNeeded(field));
        if (missing.length > 0) {
          if (flow.type === 'REAUTH')
            throw new FlowFailure(
              'input_required',
              `The site asks for ${missing.map(({ field }) => field.label || field.name).join(', ')}, which no credential holds.`,
            );
          const given = await this.#awaitInput(
            flow,
            missing.map(({ field }) => field),
          );
          for (const [name, value] of given) values.given.set(name, value);
          plan = this.#plan(page.fields, usable);
        }
        const filled = plan.filter(
          (entry): entry is { field: SignInField; value: string } => entry.value !== undefined,
        );
        const attempt = JSON.stringify([
          new URL(page.url).pathname,
          filled.map(({ field, value }) => [field.selector, isDurable(field) ? value : '']),
        ]);
        if (tried.has(attempt))
          throw new FlowFailure(
            'credentials_invalid',
            'The site asked again for the values it was just given.',
            page.error,
          );
        tried.add(attempt);
        flow.to('SUBMITTING');
        for (const { field, value } of filled) {
          if (isDurable(field) && values.given.has(field.name)) kept.set(keptName(field), value);
          // A one-time code is used once.
          if (!isDurable(field)) values.given.delete(field.name);
        }
        const before = signatureOf(page);
        // A person holding control in the live view types first: the flow waits for them.
        await this.#parts.browsers.whenFree(flow.browserId as string, signal);
        // Checked again before every key: a page that moves while values are typed gets none.
        const sent = await signIn.fill(
          instance,
          filled.map(({ field, value }) => ({ selector: field.selector, value })),
          (now) =>
            isAllowedHost(record, now) && (!isCredentialHost || values.isCredentialHost(now)),
        );
        if (!sent)
          throw new FlowFailure(
            'browser_failed',
            `The page left ${host} while the sign-in typed into it: nothing more was typed.`,
          );
        hasSent = true;
        await changed(signIn, instance, before, signal);
      }
      // Signed in: the browser is closed, which saves the profile, before the flow says so.
      await this.#parts.browsers.close(flow.browserId as string);
      if (record.save_credentials && kept.size > 0)
        await this.#parts.credentials.keep(record, kept);
      flow.succeed();
      await this.#finish(record.id, flow, {
        status: 'AUTHENTICATED',
        post_login_url: postLoginUrl,
      });
    } catch (error) {
      const failure = failureOf(error);
      // The browser may have ended already (closed above, its time-out, a crash).
      await this.#parts.browsers.closeQuietly(flow.browserId as string);
      flow.end(
        failure.code === 'expired'
          ? 'EXPIRED'
          : failure.code === 'canceled'
            ? 'CANCELED'
            : 'FAILED',
        failure,
      );
      await this.#finish(record.id, flow, {});
    }
  }

  #plan(fields: readonly SignInField[], values: SignInValues) {
    const now = this.#now();
    return fields.map((field) => ({ field, value: valueFor(field, values, now) }));
  }

  async #awaitInput(flow: AuthFlow, fields: readonly SignInField[]): Promise<Map<string, string>> {
    const timer = setTimeout(
      () =>
        flow.stop.abort(
          new FlowFailure('expired', 'Nobody gave the values the flow asked for in time.'),
        ),
      INPUT_WAIT_MS,
    );
    timer.unref?.();
    try {
      return await flow.awaitInput(fields);
    } finally {
      clearTimeout(timer);
    }
  }

  async #finish(id: string, flow: AuthFlow, outcome: Partial<AuthConnection>): Promise<void> {
    try {
      await this.#record(id, flow, outcome);
    } finally {
      // Told only now: whoever hears the flow ended reads the connection ended too.
      flow.settle();
    }
  }

  async #record(id: string, flow: AuthFlow, outcome: Partial<AuthConnection>): Promise<void> {
    const state = flow.state();
    const updated = await this.#parts.store.write(
      id,
      (current) => ({
        ...current,
        ...outcome,
        flow_status: state.flow_status,
        flow_step: state.flow_step,
        flow_type: state.flow_type,
        error_code: state.error_code,
        error_message: state.error_message,
        website_error: state.website_error,
        ...(flow.status === 'SUCCESS' && { last_auth_check_at: formatTimestamp(this.#now()) }),
      }),
      flowEntry(flow, this.#now()),
    );
    if (this.#parts.flows.get(id) === flow) this.#parts.flows.delete(id);
    if (updated) this.#parts.health.schedule(updated);
  }
}
