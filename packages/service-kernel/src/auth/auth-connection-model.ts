import {
  type AuthConnection,
  type AuthEvent,
  type AuthTimelineEvent,
  type CreateAuthConnectionBody,
  formatTimestamp,
  type LoginBody,
  type LoginResponse,
  type Page,
  pageOf,
  type SubmitBody,
  type UpdateAuthConnectionBody,
} from '@x/types';
import type { BrowserModel } from '../browsers/browser-model.js';
import type { CredentialModel } from '../credentials/credential-model.js';
import type { CredentialProviderModel } from '../credentials/credential-provider-model.js';
import type { BrowserInstance } from '../engines.js';
import type { LiveViewModel } from '../live-view/live-view-model.js';
import type { ModelContext } from '../model-context.js';
import type { Caller } from '../pipeline/auth.js';
import type { ProfileModel } from '../profiles/profile-model.js';
import type { StoredAuthConnection } from '../records/record-store.js';
import type { ReplayModel } from '../replays/replay-model.js';
import { ServiceError } from '../service-error.js';
import { AuthBrowsers } from './auth-browsers.js';
import {
  answerOf,
  assertRoomFor,
  canReauth,
  changedRecord,
  ensureProfile,
  keepsGrant,
  listFilter,
  newRecord,
  proxyIdOf,
} from './auth-connection-records.js';
import { AuthConnectionStore } from './auth-connection-store.js';
import { AuthCredentials } from './auth-credentials.js';
import { type AuthFlow, FlowFailure } from './auth-flow.js';
import { AuthFlowRunner } from './auth-flow-runner.js';
import { AuthHealthChecks } from './auth-health-checks.js';
import { checkEntry, flowEvents, timelinePage } from './auth-timeline.js';

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
  readonly #store: AuthConnectionStore<I>;
  readonly #credentials: AuthCredentials<I>;
  readonly #health: AuthHealthChecks<I>;
  readonly #runner: AuthFlowRunner<I>;
  /** Where URLs handed out point, as the last call that reached this model said. */
  #origin = '';

  constructor(context: ModelContext<I>, parts: AuthConnectionParts<I>) {
    this.#context = context;
    this.#parts = parts;
    this.#store = new AuthConnectionStore(context);
    this.#credentials = new AuthCredentials(
      context,
      parts.credentials,
      parts.providers,
      this.#store,
    );
    const browsers = new AuthBrowsers(context, parts, () => this.#origin);
    this.#health = new AuthHealthChecks(context, browsers, (id) => this.checkNow(id));
    this.#runner = new AuthFlowRunner(context, {
      store: this.#store,
      credentials: this.#credentials,
      browsers,
      health: this.#health,
      flows: this.#flows,
    });
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
    assertRoomFor(await this.#store.list(), body);
    const proxyId = await proxyIdOf(this.#context, body.proxy);
    await ensureProfile(this.#parts.profiles, body.profile_name);
    const now = formatTimestamp(this.#now());
    const record = newRecord(this.#context.nextId('auth'), body, proxyId, now);
    const isProviderGranted = await this.#credentials.assertFits(record, caller);
    await this.#store.put(record.id, { record, timeline: [], isProviderGranted });
    return this.#answer(record);
  }

  async list(query: {
    readonly offset: number;
    readonly limit: number;
    readonly domain?: string | undefined;
    readonly profile_name?: string | undefined;
    readonly query?: string | undefined;
  }): Promise<Page<AuthConnection>> {
    const isListed = listFilter(query);
    const flows = [...this.#flows];
    let stored = await this.#store.list();
    // As in #findWithFlowEnd: a flow that ended while the list was read is read again.
    if (flows.some(([id, flow]) => this.#flows.get(id) !== flow)) stored = await this.#store.list();
    const records = stored
      .map((entry) => entry.record)
      .filter(isListed)
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
    const stored = await this.#store.find(id);
    const proxyId =
      body.proxy !== undefined ? await proxyIdOf(this.#context, body.proxy) : undefined;
    const record = {
      ...changedRecord(stored.record, body, proxyId),
      updated_at: formatTimestamp(this.#now()),
    };
    const isInherited = keepsGrant(stored, record);
    const isGranted = await this.#credentials.assertFits(record, caller, isInherited);
    const isProviderGranted = isGranted || isInherited;
    await this.#store.put(id, { ...stored, record, isProviderGranted });
    this.#health.schedule(record);
    return this.#answer(record);
  }

  async delete(id: string): Promise<void> {
    await this.#store.find(id);
    this.#flows.get(id)?.stop.abort(new FlowFailure('canceled', 'The connection was deleted.'));
    this.#health.unschedule(id);
    await this.#store.delete(id);
  }

  /**
   * Starts a sign-in flow (or answers the one in progress): a browser of the profile opens the
   * sign-in page; the flow goes on in the background, followed by `events` or `get`.
   */
  async login(id: string, body: LoginBody, origin: string): Promise<LoginResponse> {
    this.#origin = origin;
    const stored = await this.#store.find(id);
    const running = this.#flows.get(id);
    if (running && !running.isOver) return this.#loginAnswer(id, running);
    const proxyId =
      body?.proxy === undefined
        ? stored.record.proxy_id
        : await proxyIdOf(this.#context, body.proxy);
    const flow = await this.#runner.start(
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
    await this.#store.find(id);
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
    yield* flowEvents(
      this.#flows.get(id),
      stored.record,
      (record) => this.#answer(record),
      () => this.#now(),
      signal,
    );
  }

  async timeline(
    id: string,
    query: { readonly offset: number; readonly limit: number; readonly type?: string | undefined },
  ): Promise<Page<AuthTimelineEvent>> {
    return timelinePage(await this.#store.find(id), query);
  }

  /**
   * Opens the site with the profile and says whether it is still signed in (the timeline and
   * the status say so too); signs in again when it is not, the connection allows it, and nothing
   * would have to be asked.
   */
  async checkNow(id: string): Promise<AuthConnection> {
    const { record } = await this.#store.find(id);
    const started = this.#now();
    const { isSignedIn, browserId, failure } = await this.#health.probe(record);
    const status = isSignedIn ? 'AUTHENTICATED' : 'NEEDS_AUTH';
    const entry = checkEntry({
      id: this.#context.nextId('ev'),
      status,
      previous: record.status,
      started,
      now: this.#now(),
      browserId,
      failure,
    });
    const next = await this.#store.write(
      id,
      (current) => ({
        ...current,
        status,
        last_auth_check_at: formatTimestamp(this.#now()),
      }),
      entry,
    );
    // Not signed in: sign in again when allowed and possible, unless a flow is running already.
    if (next && !isSignedIn && next.auto_reauth && canReauth(next).can && !this.#flows.has(id)) {
      await this.#runner
        .start(next, 'REAUTH', next.proxy_id)
        .catch((error: unknown) =>
          this.#context.log.warn(
            { err: error, connection: id },
            'a re-authentication did not start',
          ),
        );
    }
    if (next) this.#health.schedule(next);
    return this.#answer(next ?? record);
  }

  /** After a restart: every connection's health checks are scheduled again. */
  async recover(): Promise<void> {
    const { owns = () => true } = this.#context.settings;
    for (const { record } of await this.#store.list())
      if (owns(record.id)) this.#health.schedule(record);
  }

  /** Shutdown: flows are canceled, checks stop. */
  close(): void {
    this.#health.close();
    for (const flow of this.#flows.values())
      flow.stop.abort(new FlowFailure('canceled', 'The service is shutting down.'));
  }

  #answer(record: AuthConnection): AuthConnection {
    return answerOf(record, this.#flows.get(record.id));
  }

  /**
   * The stored connection, with the end of a flow that ended while it was read: a flow leaves
   * #flows once its end is written, so one that left meanwhile may have ended after the read
   * began, and what was read not have its end. Then it is read again.
   */
  async #findWithFlowEnd(id: string): Promise<StoredAuthConnection> {
    const running = this.#flows.get(id);
    const stored = await this.#store.find(id);
    return running && this.#flows.get(id) !== running ? this.#store.find(id) : stored;
  }
}
