import {
  AUTH_CONNECTION_LIMITS,
  type AuthConnection,
  type AuthEvent,
  type AuthTimelineEvent,
  type CreateAuthConnectionBody,
  formatTimestamp,
  type LoginBody,
  type LoginResponse,
  NAME_PATTERN,
  type Page,
  pageOf,
  type SubmitBody,
  type UpdateAuthConnectionBody,
} from '@x/types';
import type { BrowserModel } from '../browsers/browser-model.js';
import { pause } from '../computer/computer-model.js';
import type { CredentialModel } from '../credentials/credential-model.js';
import {
  type CredentialProviderModel,
  itemMatches,
} from '../credentials/credential-provider-model.js';
import type { BrowserInstance } from '../engines.js';
import type { LiveViewModel } from '../live-view/live-view-model.js';
import { notFound } from '../messages.js';
import type { ModelContext } from '../model-context.js';
import type { Caller } from '../pipeline/auth.js';
import type { ProfileModel } from '../profiles/profile-model.js';
import type { StoredAuthConnection } from '../records/record-store.js';
import type { ReplayModel } from '../replays/replay-model.js';
import { ServiceError } from '../service-error.js';
import { AuthFlow, FlowFailure } from './auth-flow.js';
import type { SignInField, SignInPage } from './sign-in-driver.js';
import { isDurable, isNeeded, keptName, type SignInValues, valueFor } from './sign-in-values.js';

/** Longest a flow lasts, and longest it waits for `submit`, in ms. */
export const FLOW_LIFETIME_MS = 20 * 60_000;
export const INPUT_WAIT_MS = 10 * 60_000;

/** Longest a page takes to load, and a form's page to answer it, in ms. */
const PAGE_WAIT_MS = 20_000;
/** How often a page is read while waiting for it, in ms. */
const READ_EVERY_MS = 200;
/** Most pages one flow goes through (forms sent, external steps). */
const MAX_FLOW_STEPS = 12;
/** Most entries a connection's timeline keeps (the newest). */
const MAX_TIMELINE = 100;
/** Most connections a project keeps. */
export const MAX_AUTH_CONNECTIONS = 500;

/** Identity providers, named when a sign-in goes to one (values are filled there only when allowed). */
/**
 * The sign-in sites of the identity providers a credential may name (`sso_provider`): its values
 * are typed there too, as on its own domain (a person's Google account signs in at Google).
 */
const SSO_PROVIDER_SITES: Readonly<Record<string, readonly string[]>> = {
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

const SSO_DOMAINS = [
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
function hostIs(host: string, domain: string): boolean {
  const bare = domain.startsWith('*.') ? domain.slice(2) : domain;
  return host === bare || host.endsWith(`.${bare}`);
}

/** Waits `ms`; throws the flow's reason when it stops meanwhile. */
async function wait(ms: number, signal: AbortSignal): Promise<void> {
  await pause(ms, signal);
  signal.throwIfAborted();
}

/** What identifies a page's state: its address, its fields, its messages. */
const signatureOf = (page: SignInPage) =>
  JSON.stringify([
    page.url,
    page.fields.map((field) => field.selector),
    page.error ?? '',
    page.blocker ?? '',
  ]);

/** What the connection model works with, besides its context. */
export interface AuthConnectionParts<I extends BrowserInstance> {
  readonly browsers: BrowserModel<I>;
  readonly profiles: ProfileModel<I>;
  readonly credentials: CredentialModel<I>;
  readonly liveViews: LiveViewModel<I>;
  readonly replays: ReplayModel<I>;
  /** The organization's providers (none for a model on its own). */
  readonly providers: () => CredentialProviderModel | undefined;
}

/**
 * Auth connections: a profile kept signed in to a site. `login` runs a flow in a browser of the
 * profile: it opens the sign-in page, fills what the credential (or a provider's item) holds,
 * generates TOTP codes, asks `submit` for what it lacks (AWAITING_INPUT), hands a step only a
 * person can do to the live view (AWAITING_EXTERNAL_ACTION), follows multi-step forms, fails
 * with the site's own message, and saves the profile once no sign-in form is left. Health checks
 * reopen the site with the profile and say whether it is still signed in; a failed one signs in
 * again by itself (`auto_reauth`) when nothing must be asked.
 */
export class AuthConnectionModel<I extends BrowserInstance> {
  readonly #context: ModelContext<I>;
  readonly #parts: AuthConnectionParts<I>;
  readonly #flows = new Map<string, AuthFlow>();
  readonly #checks = new Map<string, ReturnType<typeof setTimeout>>();
  /** Where URLs handed out point, as the last call that reached this model said. */
  #origin = '';
  #isClosed = false;

  constructor(context: ModelContext<I>, parts: AuthConnectionParts<I>) {
    this.#context = context;
    this.#parts = parts;
  }

  get #records() {
    return this.#context.engines.records.authConnections;
  }

  #now(): Date {
    return this.#context.clock();
  }

  async create(
    body: CreateAuthConnectionBody,
    origin: string,
    caller?: Caller,
  ): Promise<AuthConnection> {
    this.#origin = origin;
    const all = await this.#records.list();
    if (
      all.some(
        ({ record }) => record.domain === body.domain && record.profile_name === body.profile_name,
      )
    )
      throw new ServiceError(
        'conflict',
        `Profile "${body.profile_name}" already has an auth connection for ${body.domain}.`,
      );
    if (all.length >= MAX_AUTH_CONNECTIONS)
      throw new ServiceError(
        'conflict',
        `A project keeps at most ${MAX_AUTH_CONNECTIONS} auth connections: delete one first.`,
      );
    const proxyId = await this.#proxyId(body.proxy);
    await this.#ensureProfile(body.profile_name);
    const now = formatTimestamp(this.#now());
    const record: AuthConnection = {
      id: this.#context.nextId('auth'),
      domain: body.domain,
      profile_name: body.profile_name,
      status: 'NEEDS_AUTH',
      save_credentials: body.save_credentials ?? true,
      record_session: body.record_session ?? false,
      allowed_domains: body.allowed_domains ?? [],
      auto_reauth: body.auto_reauth ?? true,
      health_checks: body.health_checks ?? true,
      health_check_interval:
        body.health_check_interval ?? AUTH_CONNECTION_LIMITS.healthCheckDefaultSeconds,
      ...(body.login_url && { login_url: body.login_url }),
      ...(proxyId !== undefined && { proxy_id: proxyId }),
      ...(body.credential !== undefined && { credential: { ...body.credential } }),
      created_at: now,
      updated_at: now,
    };
    const isProviderGranted = await this.#assertFits(record, caller);
    await this.#records.put(record.id, { record, timeline: [], isProviderGranted });
    return this.#answer(record);
  }

  async list(query: {
    readonly offset: number;
    readonly limit: number;
    readonly domain?: string | undefined;
    readonly profile_name?: string | undefined;
    readonly query?: string | undefined;
  }): Promise<Page<AuthConnection>> {
    const needle = query.query?.toLowerCase();
    const flows = [...this.#flows];
    let stored = await this.#records.list();
    // As in #findWithFlowEnd: a flow that ended while the list was read is read again.
    if (flows.some(([id, flow]) => this.#flows.get(id) !== flow))
      stored = await this.#records.list();
    const records = stored
      .map((entry) => entry.record)
      .filter(
        (record) =>
          (query.domain === undefined || record.domain === query.domain) &&
          (query.profile_name === undefined || record.profile_name === query.profile_name) &&
          (needle === undefined ||
            record.id === query.query ||
            record.domain.includes(needle) ||
            record.profile_name.toLowerCase().includes(needle)),
      )
      .map((record) => this.#answer(record));
    return pageOf(records, query.offset, query.limit);
  }

  async get(id: string): Promise<AuthConnection> {
    return this.#answer((await this.#findWithFlowEnd(id)).record);
  }

  async update(
    id: string,
    body: UpdateAuthConnectionBody,
    caller?: Caller,
  ): Promise<AuthConnection> {
    const stored = await this.#find(id);
    const record: AuthConnection = { ...stored.record };
    if (body.allowed_domains !== undefined) record.allowed_domains = [...body.allowed_domains];
    if (body.auto_reauth !== undefined) record.auto_reauth = body.auto_reauth;
    if (body.health_checks !== undefined) record.health_checks = body.health_checks;
    if (body.health_check_interval !== undefined)
      record.health_check_interval = body.health_check_interval;
    if (body.login_url === '') delete record.login_url;
    else if (body.login_url !== undefined) record.login_url = body.login_url;
    if (body.proxy !== undefined) record.proxy_id = await this.#proxyId(body.proxy);
    if (body.credential !== undefined) record.credential = { ...body.credential };
    if (body.record_session !== undefined) record.record_session = body.record_session;
    if (body.save_credentials !== undefined) record.save_credentials = body.save_credentials;
    record.updated_at = formatTimestamp(this.#now());
    // A grant to read a provider's items stays with the reference and the sites it was given
    // for: a project key may change the rest of the connection.
    const isUnchanged =
      JSON.stringify(record.credential) === JSON.stringify(stored.record.credential) &&
      record.domain === stored.record.domain &&
      record.login_url === stored.record.login_url;
    const isInherited = isUnchanged && stored.isProviderGranted === true;
    const isGranted = await this.#assertFits(record, caller, isInherited);
    const isProviderGranted = isGranted || isInherited;
    await this.#records.put(id, { ...stored, record, isProviderGranted });
    this.#schedule(record);
    return this.#answer(record);
  }

  async delete(id: string): Promise<void> {
    await this.#find(id);
    this.#flows.get(id)?.stop.abort(new FlowFailure('canceled', 'The connection was deleted.'));
    this.#unschedule(id);
    await this.#records.delete(id);
  }

  /**
   * Starts a sign-in flow (or answers the one in progress): a browser of the profile opens the
   * sign-in page; the flow goes on in the background, followed by `events` or `get`.
   */
  async login(id: string, body: LoginBody, origin: string): Promise<LoginResponse> {
    this.#origin = origin;
    const stored = await this.#find(id);
    const running = this.#flows.get(id);
    if (running && !running.isOver) return this.#loginAnswer(id, running);
    const proxyId =
      body?.proxy === undefined ? stored.record.proxy_id : await this.#proxyId(body.proxy);
    const flow = await this.#start(
      stored.record,
      'LOGIN',
      proxyId,
      body?.record_session ?? stored.record.record_session,
    );
    return this.#loginAnswer(id, flow);
  }

  #loginAnswer(id: string, flow: AuthFlow): LoginResponse {
    const state = flow.state();
    return {
      id,
      flow_type: flow.type,
      flow_expires_at: state.flow_expires_at,
      hosted_url: state.hosted_url ?? '',
      ...(state.live_view_url && { live_view_url: state.live_view_url }),
    };
  }

  /** Gives the flow the values it asked for; 409 when it asks for none. */
  async submit(id: string, body: SubmitBody): Promise<{ accepted: boolean }> {
    await this.#find(id);
    const flow = this.#flows.get(id);
    const asked = flow?.asked;
    if (!flow || !asked)
      throw new ServiceError(
        'conflict',
        `Auth connection "${id}" has no flow waiting for input (see its flow_step).`,
      );
    const given = new Map(Object.entries({ ...body.fields, ...body.field_values }));
    const known = new Set(asked.map((field) => field.name));
    const unknown = [...given.keys()].filter((name) => !known.has(name));
    if (unknown.length > 0 || given.size === 0)
      throw new ServiceError(
        'bad_request',
        unknown.length > 0
          ? `The flow asks for ${[...known].join(', ')}, not ${unknown.join(', ')}.`
          : `Give field_values for ${[...known].join(', ')}.`,
      );
    return { accepted: flow.give(given) };
  }

  /** The flow's states as they change, from the current one, until it ends. */
  async *events(id: string, signal: AbortSignal): AsyncGenerator<AuthEvent, void> {
    const stored = await this.#findWithFlowEnd(id);
    const flow = this.#flows.get(id);
    if (!flow) {
      const last = stored.record;
      if (last.flow_status && last.flow_step)
        yield {
          ...(this.#answer(last) as Record<string, unknown>),
          event: 'managed_auth_state',
          timestamp: formatTimestamp(this.#now()),
        } as unknown as AuthEvent;
      return;
    }
    let seen = -1;
    while (!signal.aborted) {
      // An ended flow is told once its record says so (`settle`), never before.
      if (flow.version !== seen && (!flow.isOver || flow.isSettled)) {
        seen = flow.version;
        yield flow.event(this.#now());
        if (flow.isOver) return;
      }
      await new Promise<void>((resolve) => {
        if (signal.aborted || (flow.version !== seen && (!flow.isOver || flow.isSettled)))
          return resolve();
        const done = () => {
          signal.removeEventListener('abort', done);
          forget();
          resolve();
        };
        signal.addEventListener('abort', done, { once: true });
        const forget = flow.onChange(done);
      });
    }
  }

  async timeline(
    id: string,
    query: { readonly offset: number; readonly limit: number; readonly type?: string | undefined },
  ): Promise<Page<AuthTimelineEvent>> {
    const stored = await this.#find(id);
    const entries = stored.timeline.filter(
      (entry) => query.type === undefined || entry.type === query.type,
    );
    return pageOf(entries, query.offset, query.limit);
  }

  /**
   * Opens the site with the profile and says whether it is still signed in (the timeline and
   * the status say so too); signs in again when it is not, the connection allows it, and nothing
   * would have to be asked.
   */
  async checkNow(id: string): Promise<AuthConnection> {
    const stored = await this.#find(id);
    const { record } = stored;
    const started = this.#now();
    let isSignedIn = false;
    let browserId: string | undefined;
    let failure: FlowFailure | undefined;
    const stop = new AbortController();
    const timer = setTimeout(
      () => stop.abort(new FlowFailure('timed_out', 'The check took too long.')),
      2 * PAGE_WAIT_MS,
    );
    try {
      const entry = await this.#parts.browsers.create(
        {
          headless: true,
          stealth: false,
          kiosk_mode: false,
          timeout_seconds: 300,
          profile: { name: record.profile_name, save_changes: false },
          proxy_id: record.proxy_id,
          tags: { 'xb-auth-check': record.id },
        },
        this.#origin,
      );
      browserId = entry.record.session_id;
      try {
        const { signIn } = this.#context.engines;
        await signIn.open(entry.instance, record.post_login_url ?? this.#loginUrl(record));
        const page = await this.#settled(entry.instance, stop.signal);
        const host = new URL(page.url).hostname.toLowerCase();
        isSignedIn =
          this.#isAllowedHost(record, host) &&
          !page.blocker &&
          !page.fields.some((field) => field.kind === 'password' || field.kind === 'identifier');
      } finally {
        // The browser may have ended already (its time-out, a crash); an end that goes wrong
        // is logged where the browser ends.
        await this.#parts.browsers.delete(entry.record.session_id).catch(() => undefined);
      }
    } catch (error) {
      failure = this.#failureOf(error);
    } finally {
      clearTimeout(timer);
    }
    const status = isSignedIn ? 'AUTHENTICATED' : 'NEEDS_AUTH';
    const entry: AuthTimelineEvent = {
      id: this.#context.nextId('ev'),
      type: 'health_check',
      status,
      timestamp: formatTimestamp(started),
      updated_at: formatTimestamp(this.#now()),
      previous_status: record.status,
      ...(browserId !== undefined && { browser_session_id: browserId }),
      ...(failure && { error_code: failure.code, error_message: failure.message }),
    };
    const next = await this.#write(
      id,
      (current) => ({
        ...current,
        status,
        last_auth_check_at: formatTimestamp(this.#now()),
      }),
      entry,
    );
    // Not signed in: sign in again when allowed and possible, unless a flow is running already.
    if (
      next &&
      !isSignedIn &&
      next.auto_reauth &&
      this.#canReauth(next).can &&
      !this.#flows.has(id)
    ) {
      await this.#start(next, 'REAUTH', next.proxy_id).catch((error: unknown) =>
        this.#context.log.warn({ err: error, connection: id }, 'a re-authentication did not start'),
      );
    }
    if (next) this.#schedule(next);
    return this.#answer(next ?? record);
  }

  /** After a restart: every connection's health checks are scheduled again. */
  async recover(): Promise<void> {
    const { owns = () => true } = this.#context.settings;
    for (const { record } of await this.#records.list())
      if (owns(record.id)) this.#schedule(record);
  }

  /** Shutdown: flows are canceled, checks stop. */
  close(): void {
    this.#isClosed = true;
    for (const flow of this.#flows.values())
      flow.stop.abort(new FlowFailure('canceled', 'The service is shutting down.'));
    for (const timer of this.#checks.values()) clearTimeout(timer);
    this.#checks.clear();
  }

  // ---- Flows ----

  async #start(
    record: AuthConnection,
    type: 'LOGIN' | 'REAUTH',
    proxyId: string | undefined,
    isRecorded = record.record_session,
  ): Promise<AuthFlow> {
    const now = this.#now();
    const flow = new AuthFlow(
      this.#context.nextId('ev'),
      type,
      now,
      new Date(now.getTime() + FLOW_LIFETIME_MS),
    );
    const values = await this.#valuesOf(record);
    const entry = await this.#parts.browsers.create(
      {
        headless: true,
        stealth: false,
        kiosk_mode: false,
        timeout_seconds: FLOW_LIFETIME_MS / 1000 + 60,
        profile: { name: record.profile_name, save_changes: true },
        proxy_id: proxyId,
        tags: { 'xb-auth-connection': record.id },
      },
      this.#origin,
    );
    const browserId = entry.record.session_id;
    const ttl = Math.ceil(FLOW_LIFETIME_MS / 1000);
    flow.browserStarted(
      browserId,
      this.#parts.liveViews.create(browserId, { mode: 'control', ttl_seconds: ttl }, this.#origin)
        .url,
      this.#parts.liveViews.create(browserId, { mode: 'read', ttl_seconds: ttl }, this.#origin).url,
    );
    this.#flows.set(record.id, flow);
    if (isRecorded) {
      // A replay of the flow, kept as every session's replays are (it ends with the browser).
      await this.#parts.replays
        .start(browserId, 10, undefined)
        .then((replay) => flow.recorded(replay.replay_id))
        .catch((error: unknown) =>
          this.#context.log.warn(
            { err: error, connection: record.id },
            'a sign-in flow is not recorded',
          ),
        );
    }
    const expiry = setTimeout(
      () => flow.stop.abort(new FlowFailure('expired', 'The flow expired before it ended.')),
      FLOW_LIFETIME_MS,
    );
    expiry.unref?.();
    await this.#write(record.id, (current) => current, this.#timelineEntry(flow));
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
    const kept = new Map<string, string>();
    let postLoginUrl: string | undefined;
    try {
      await this.#context.engines.signIn.open(instance, this.#loginUrl(record));
      const tried = new Set<string>();
      let hasSent = false;
      for (let step = 0; ; step++) {
        if (step >= MAX_FLOW_STEPS)
          throw new FlowFailure(
            'too_many_steps',
            `The sign-in went through ${MAX_FLOW_STEPS} pages without ending.`,
          );
        const page = await this.#settled(instance, signal);
        const host = new URL(page.url).hostname.toLowerCase();
        if (!this.#isAllowedHost(record, host)) {
          // Values are filled on the connection's own sites only; anywhere else a person goes on.
          const where = SSO_DOMAINS.some((domain) => hostIs(host, domain))
            ? `${host}, an identity provider`
            : `${host}, which is not ${record.domain} or an allowed domain`;
          await this.#awaitPerson(
            flow,
            instance,
            page,
            `The sign-in went to ${where}: finish it in the browser (hosted_url), or add it to allowed_domains.`,
          );
          continue;
        }
        if (page.blocker) {
          await this.#awaitPerson(
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
        await this.#parts.browsers.live(flow.browserId as string).control.whenFree(signal);
        // Checked again before every key: a page that moves while values are typed gets none.
        const sent = await this.#context.engines.signIn.fill(
          instance,
          filled.map(({ field, value }) => ({ selector: field.selector, value })),
          (now) =>
            this.#isAllowedHost(record, now) && (!isCredentialHost || values.isCredentialHost(now)),
        );
        if (!sent)
          throw new FlowFailure(
            'browser_failed',
            `The page left ${host} while the sign-in typed into it: nothing more was typed.`,
          );
        hasSent = true;
        await this.#changed(instance, before, signal);
      }
      // Signed in: the browser is closed, which saves the profile, before the flow says so.
      await this.#parts.browsers.delete(flow.browserId as string);
      if (record.save_credentials && kept.size > 0) await this.#keep(record, kept);
      flow.succeed();
      await this.#finish(record.id, flow, {
        status: 'AUTHENTICATED',
        post_login_url: postLoginUrl,
      });
    } catch (error) {
      const failure = this.#failureOf(error);
      // The browser may have ended already (closed above, its time-out, a crash); an end that
      // goes wrong is logged where the browser ends.
      await this.#parts.browsers.delete(flow.browserId as string).catch(() => undefined);
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

  /** Waits for a person to change the page (finish a captcha, choose an account). */
  async #awaitPerson(
    flow: AuthFlow,
    instance: I,
    page: SignInPage,
    message: string,
  ): Promise<void> {
    flow.to('AWAITING_EXTERNAL_ACTION', { external: message });
    const before = signatureOf(page);
    for (;;) {
      await wait(READ_EVERY_MS * 2, flow.stop.signal);
      const now = await this.#context.engines.signIn.read(instance);
      if (!now.isLoading && signatureOf(now) !== before) break;
    }
    flow.to('DISCOVERING');
  }

  /** The page once it has loaded. */
  async #settled(instance: I, signal: AbortSignal): Promise<SignInPage> {
    const until = Date.now() + PAGE_WAIT_MS;
    for (;;) {
      const page = await this.#context.engines.signIn.read(instance);
      if (!page.isLoading) return page;
      if (Date.now() > until)
        throw new FlowFailure(
          'site_unreachable',
          `The page did not load in ${PAGE_WAIT_MS / 1000} s.`,
        );
      await wait(READ_EVERY_MS, signal);
    }
  }

  /** Waits for the page to answer a sent form: another page, other fields, a message. */
  async #changed(instance: I, before: string, signal: AbortSignal): Promise<void> {
    const until = Date.now() + PAGE_WAIT_MS;
    for (;;) {
      await wait(READ_EVERY_MS, signal);
      const page = await this.#context.engines.signIn.read(instance);
      if (!page.isLoading && signatureOf(page) !== before) return;
      if (Date.now() > until)
        throw new FlowFailure(
          'site_unresponsive',
          `The site did not answer the sign-in in ${PAGE_WAIT_MS / 1000} s.`,
        );
    }
  }

  #failureOf(error: unknown): FlowFailure {
    if (error instanceof FlowFailure) return error;
    if (error instanceof ServiceError) return new FlowFailure('browser_failed', error.message);
    const message = error instanceof Error ? error.message : String(error);
    if (/ERR_|net::|NS_ERROR/.test(message)) return new FlowFailure('site_unreachable', message);
    return new FlowFailure('browser_failed', message);
  }

  /** Keeps what a person typed (not one-time codes) in the connection's credential. */
  async #keep(record: AuthConnection, kept: Map<string, string>): Promise<void> {
    const reference = record.credential;
    if (reference?.provider !== undefined) return;
    const name =
      reference?.name ??
      `${record.profile_name}-${record.domain}`.replace(/[^A-Za-z0-9._-]/g, '-').slice(0, 255);
    if (!NAME_PATTERN.test(name)) return;
    // Values typed on one site are never merged into a credential of another.
    const existing = await this.#parts.credentials.get(name).catch(() => undefined);
    if (existing && !hostIs(record.domain.replace(/^\*\./, ''), existing.domain)) return;
    await this.#parts.credentials.keepFromSignIn(name, record.domain, Object.fromEntries(kept));
    if (reference?.name === undefined)
      await this.#write(record.id, (current) => ({ ...current, credential: { name } }));
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
    const updated = await this.#write(
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
      this.#timelineEntry(flow),
    );
    if (this.#flows.get(id) === flow) this.#flows.delete(id);
    if (updated) this.#schedule(updated);
  }

  #timelineEntry(flow: AuthFlow): AuthTimelineEvent {
    const state = flow.state();
    return {
      id: flow.id,
      type: flow.type === 'LOGIN' ? 'login' : 'reauth',
      status: state.flow_status,
      step: state.flow_step,
      timestamp: formatTimestamp(flow.startedAt),
      updated_at: formatTimestamp(this.#now()),
      ...(flow.browserId !== null && { browser_session_id: flow.browserId }),
      ...(flow.replayId !== undefined && { replay_id: flow.replayId }),
      ...(state.error_code !== null && { error_code: state.error_code }),
      ...(state.error_message !== null && { error_message: state.error_message }),
      ...(state.website_error !== null && { website_error: state.website_error }),
    };
  }

  /**
   * Changes the stored connection (gone: nothing) and puts `entry` first in its timeline,
   * replacing the entry of the same id.
   */
  async #write(
    id: string,
    change: (record: AuthConnection) => AuthConnection,
    entry?: AuthTimelineEvent,
  ): Promise<AuthConnection | undefined> {
    const stored = await this.#records.get(id);
    if (!stored) return undefined;
    const record = { ...change(stored.record), updated_at: formatTimestamp(this.#now()) };
    const timeline = entry
      ? [entry, ...stored.timeline.filter((old) => old.id !== entry.id)].slice(0, MAX_TIMELINE)
      : stored.timeline;
    await this.#records.put(id, { record, timeline });
    return record;
  }

  // ---- Health checks ----

  #schedule(record: AuthConnection): void {
    this.#unschedule(record.id);
    if (this.#isClosed || !record.health_checks || record.status !== 'AUTHENTICATED') return;
    const seconds =
      record.health_check_interval ?? AUTH_CONNECTION_LIMITS.healthCheckDefaultSeconds;
    const timer = setTimeout(() => {
      this.#checks.delete(record.id);
      this.checkNow(record.id).catch((error: unknown) =>
        this.#context.log.warn({ err: error, connection: record.id }, 'a health check failed'),
      );
    }, seconds * 1000);
    timer.unref?.();
    this.#checks.set(record.id, timer);
  }

  #unschedule(id: string): void {
    const timer = this.#checks.get(id);
    if (timer) clearTimeout(timer);
    this.#checks.delete(id);
  }

  // ---- Parts ----

  #loginUrl(record: AuthConnection): string {
    return record.login_url ?? `https://${record.domain.replace(/^\*\./, '')}/`;
  }

  #isAllowedHost(record: AuthConnection, host: string): boolean {
    return (
      [record.domain, ...(record.allowed_domains ?? [])].some((domain) => hostIs(host, domain)) ||
      (record.login_url !== undefined && new URL(record.login_url).hostname.toLowerCase() === host)
    );
  }

  /**
   * What a flow fills from: the credential named (typed on its domain only), a provider's item
   * (on its websites only, and only for a project the provider is opened to, or a connection an
   * organization-wide key set up), or nothing.
   */
  async #valuesOf(record: AuthConnection): Promise<SignInValues> {
    const reference = record.credential;
    const given = new Map<string, string>();
    const nowhere = () => false;
    if (reference?.name !== undefined) {
      const opened = await this.#parts.credentials
        .openForSignIn(reference.name)
        .catch((error: unknown) => {
          if (error instanceof ServiceError && error.code === 'not_found') return undefined;
          throw error;
        });
      if (!opened) return { stored: {}, given, isCredentialHost: nowhere };
      const sites = [
        opened.domain,
        ...(SSO_PROVIDER_SITES[opened.ssoProvider?.toLowerCase() ?? ''] ?? []),
      ];
      return {
        stored: opened.values,
        totpSecret: opened.totpSecret,
        given,
        isCredentialHost: (host) => sites.some((site) => hostIs(host, site)),
      };
    }
    if (reference?.provider !== undefined) {
      const providers = this.#parts.providers();
      if (!providers) return { stored: {}, given, isCredentialHost: nowhere };
      try {
        const stored = await this.#records.get(record.id);
        if (
          stored?.isProviderGranted !== true &&
          !(await providers.isUsableBy(reference.provider, this.#context.project))
        )
          throw this.#providerRefusal(reference.provider);
        const login = reference.path
          ? await providers.login(reference.provider, reference.path)
          : await providers.loginFor(record.domain, reference.provider);
        if (!login) return { stored: {}, given, isCredentialHost: nowhere };
        return {
          stored: login.values,
          totpSecret: login.totpSecret,
          given,
          isCredentialHost: (host) => itemMatches(login.sites, host),
        };
      } catch (error) {
        if (error instanceof ServiceError) throw error;
        throw new ServiceError(
          'bad_gateway',
          `Credential provider "${reference.provider}": ${error instanceof Error ? error.message : String(error)}.`,
        );
      }
    }
    return { stored: {}, given, isCredentialHost: nowhere };
  }

  #providerRefusal(provider: string): ServiceError {
    return new ServiceError(
      'forbidden',
      `Credential provider "${provider}" is not opened to this project: an organization-wide key can add the project to its allowed_projects, or set up the connection itself.`,
    );
  }

  /**
   * Refuses a connection whose sites are not its credential's: a credential's values are for its
   * own domain (a provider item's: its websites), so the connection's domain and its login page
   * must be there. A named credential that does not exist yet is made for the connection's domain
   * by its first sign-in. A provider's items are read only by a project it is opened to, or by an
   * organization-wide caller: true when such a caller gave the reference (the grant is kept).
   */
  async #assertFits(
    record: AuthConnection,
    caller: Caller | undefined,
    isGranted = false,
  ): Promise<boolean> {
    const reference = record.credential;
    if (reference === undefined) return false;
    const hosts = [record.domain.replace(/^\*\./, '')];
    if (record.login_url !== undefined)
      hosts.push(new URL(record.login_url).hostname.toLowerCase());
    const where = `${record.domain}${record.login_url === undefined ? '' : ` (login_url ${record.login_url})`}`;
    const misfit = (what: string) =>
      new ServiceError(
        'bad_request',
        `${what}: an auth connection for ${where} cannot use it. Its domain and login_url must be the credential's own sites.`,
      );
    if (reference.name !== undefined) {
      const credential = await this.#parts.credentials
        .get(reference.name)
        .catch((error: unknown) => {
          if (error instanceof ServiceError && error.code === 'not_found') return undefined;
          throw error;
        });
      if (credential && !hosts.every((host) => hostIs(host, credential.domain)))
        throw misfit(`The credential "${reference.name}" is for ${credential.domain}`);
      return false;
    }
    if (reference.provider === undefined) return false;
    const providers = this.#parts.providers();
    if (!providers) return false;
    const isOrgWide = caller !== undefined && caller.project === undefined;
    if (
      !isOrgWide &&
      !isGranted &&
      !(await providers.isUsableBy(reference.provider, this.#context.project))
    )
      throw this.#providerRefusal(reference.provider);
    if (reference.path !== undefined) {
      let item: Awaited<ReturnType<CredentialProviderModel['item']>>;
      try {
        item = await providers.item(reference.provider, reference.path);
      } catch (error) {
        if (error instanceof ServiceError) throw error;
        throw new ServiceError(
          'bad_gateway',
          `Credential provider "${reference.provider}": ${error instanceof Error ? error.message : String(error)}.`,
        );
      }
      if (!hosts.every((host) => itemMatches(item.urls ?? [], host)))
        throw misfit(
          `The item "${reference.path}" is for ${(item.urls ?? []).join(', ') || 'no website'}`,
        );
    } else if (!hosts.every((host) => hostIs(host, record.domain))) {
      // The provider picks an item by the connection's domain: the login page must be on it.
      throw misfit(`A provider's item is picked by the connection's domain ${record.domain}`);
    }
    return isOrgWide;
  }

  #canReauth(record: AuthConnection): { can: boolean; reason: string } {
    const hasSucceeded = record.post_login_url !== undefined;
    if (record.credential?.provider !== undefined)
      return {
        can: hasSucceeded,
        reason: hasSucceeded ? 'external_credential' : 'no_prior_successful_login',
      };
    if (record.credential?.name === undefined) return { can: false, reason: 'no_credential' };
    if (!hasSucceeded) return { can: false, reason: 'no_prior_successful_login' };
    return { can: true, reason: 'has_credential' };
  }

  async #ensureProfile(name: string): Promise<void> {
    try {
      await this.#parts.profiles.find(name);
    } catch (error) {
      if (!(error instanceof ServiceError) || error.code !== 'not_found') throw error;
      await this.#parts.profiles.create(name);
    }
  }

  async #proxyId(
    reference: { id: string } | { name: string } | undefined,
  ): Promise<string | undefined> {
    if (reference === undefined) return undefined;
    const table = this.#context.engines.records.proxies;
    const stored =
      'id' in reference ? await table.get(reference.id) : await table.byName(reference.name);
    if (!stored) throw notFound('proxy', 'id' in reference ? reference.id : reference.name);
    return stored.record.id;
  }

  #answer(record: AuthConnection): AuthConnection {
    const { can, reason } = this.#canReauth(record);
    const flow = this.#flows.get(record.id);
    return {
      ...record,
      can_reauth: can,
      can_reauth_reason: reason,
      ...flow?.state(),
    };
  }

  /**
   * The stored connection, with the end of a flow that ended while it was read: a flow leaves
   * #flows once its end is written, so one that left meanwhile may have ended after the read
   * began, and what was read not have its end. Then it is read again.
   */
  async #findWithFlowEnd(id: string): Promise<StoredAuthConnection> {
    const running = this.#flows.get(id);
    const stored = await this.#find(id);
    return running && this.#flows.get(id) !== running ? this.#find(id) : stored;
  }

  async #find(id: string): Promise<StoredAuthConnection> {
    const stored = await this.#records.get(id);
    if (!stored) throw notFound('auth connection', id);
    return stored;
  }
}
