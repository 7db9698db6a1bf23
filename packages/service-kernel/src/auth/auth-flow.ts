import {
  type AuthEvent,
  type AuthField,
  type DiscoveredField,
  type FLOW_STATUSES,
  type FLOW_STEPS,
  type FLOW_TYPES,
  formatTimestamp,
} from '@x/types';
import type { SignInField } from './sign-in-driver.js';

type FlowStatus = (typeof FLOW_STATUSES)[number];
type FlowStep = (typeof FLOW_STEPS)[number];
type FlowType = (typeof FLOW_TYPES)[number];

/** How a flow ended badly: a code for programs and words for people. */
export class FlowFailure extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly websiteError?: string,
  ) {
    super(message);
    this.name = 'FlowFailure';
  }
}

/** A sign-in flow's state, as a connection and its events show it. */
export interface FlowState {
  readonly flow_status: FlowStatus;
  readonly flow_step: FlowStep;
  readonly flow_type: FlowType;
  readonly flow_expires_at: string;
  readonly hosted_url: string | null;
  readonly live_view_url: string | null;
  readonly browser_session_id: string | null;
  readonly fields: AuthField[] | null;
  readonly discovered_fields: DiscoveredField[] | null;
  readonly external_action_message: string | null;
  readonly error_code: string | null;
  readonly error_message: string | null;
  readonly website_error: string | null;
}

const DISCOVERED_TYPES = new Set(['text', 'email', 'password', 'tel', 'number', 'url']);

/** A page's field as a flow asks for it. */
export function askedField(field: SignInField): AuthField {
  return {
    id: field.name,
    ref: field.name,
    type: field.kind,
    label: field.label,
    observed_selector: field.selector,
    required: field.required,
  };
}

/** The same, in the older shape. */
export function discoveredField(field: SignInField): DiscoveredField {
  const type =
    field.kind === 'code' || field.kind === 'totp_code'
      ? field.kind === 'totp_code'
        ? 'totp'
        : 'code'
      : DISCOVERED_TYPES.has(field.inputType)
        ? (field.inputType as DiscoveredField['type'])
        : 'text';
  return {
    label: field.label,
    name: field.name,
    selector: field.selector,
    type,
    ...(field.placeholder !== undefined && { placeholder: field.placeholder }),
    required: field.required,
  };
}

/**
 * One sign-in flow of a connection, in memory on the node that runs its browser: its state, who
 * waits for it to change, what it waits for (values from `submit`), and how it is stopped.
 */
export class AuthFlow {
  readonly id: string;
  readonly type: FlowType;
  readonly startedAt: Date;
  readonly expiresAt: Date;
  readonly stop = new AbortController();
  #status: FlowStatus = 'IN_PROGRESS';
  #step: FlowStep = 'DISCOVERING';
  #hostedUrl: string | null = null;
  #liveViewUrl: string | null = null;
  #browserId: string | null = null;
  #replayId: string | undefined;
  #fields: readonly SignInField[] = [];
  #external: string | null = null;
  #failure: FlowFailure | undefined;
  #version = 0;
  readonly #listeners = new Set<() => void>();
  #waitingForInput: ((values: Map<string, string>) => void) | undefined;

  constructor(id: string, type: FlowType, startedAt: Date, expiresAt: Date) {
    this.id = id;
    this.type = type;
    this.startedAt = startedAt;
    this.expiresAt = expiresAt;
  }

  get status(): FlowStatus {
    return this.#status;
  }

  get step(): FlowStep {
    return this.#step;
  }

  get browserId(): string | null {
    return this.#browserId;
  }

  get version(): number {
    return this.#version;
  }

  get failure(): FlowFailure | undefined {
    return this.#failure;
  }

  #isSettled = false;

  get isOver(): boolean {
    return this.#status !== 'IN_PROGRESS';
  }

  /** Hears the next change (once); gives the function that stops listening. */
  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #changed(): void {
    this.#version++;
    const listeners = [...this.#listeners];
    this.#listeners.clear();
    for (const listener of listeners) listener();
  }

  /** The replay recording the flow's browser, when it is recorded. */
  get replayId(): string | undefined {
    return this.#replayId;
  }

  recorded(replayId: string): void {
    this.#replayId = replayId;
  }

  browserStarted(browserId: string, hostedUrl: string, liveViewUrl: string): void {
    this.#browserId = browserId;
    this.#hostedUrl = hostedUrl;
    this.#liveViewUrl = liveViewUrl;
    this.#changed();
  }

  to(step: FlowStep, details: { fields?: readonly SignInField[]; external?: string } = {}): void {
    if (this.isOver) return;
    this.#step = step;
    this.#fields = details.fields ?? [];
    this.#external = details.external ?? null;
    this.#changed();
  }

  /** Waits for `submit` to give values for the fields asked; rejects when the flow stops. */
  awaitInput(fields: readonly SignInField[]): Promise<Map<string, string>> {
    this.to('AWAITING_INPUT', { fields });
    return new Promise((resolve, reject) => {
      const stopped = () => reject(this.stop.signal.reason);
      if (this.stop.signal.aborted) return stopped();
      this.stop.signal.addEventListener('abort', stopped, { once: true });
      this.#waitingForInput = (values) => {
        this.stop.signal.removeEventListener('abort', stopped);
        resolve(values);
      };
    });
  }

  /** The fields the flow waits for, or undefined when it waits for none. */
  get asked(): readonly SignInField[] | undefined {
    return this.#waitingForInput && this.#step === 'AWAITING_INPUT' ? this.#fields : undefined;
  }

  /** Gives the waiting flow its values (by field name); false when it waits for none. */
  give(values: Map<string, string>): boolean {
    const waiting = this.#waitingForInput;
    if (!waiting || this.isOver) return false;
    this.#waitingForInput = undefined;
    this.to('SUBMITTING');
    waiting(values);
    return true;
  }

  /**
   * Ends the flow signed in. Its readers hear of it at `settle()`, once the connection's record
   * says so too: a caller told the flow ended never reads the connection still in progress.
   */
  succeed(): void {
    if (this.isOver) return;
    this.#step = 'COMPLETED';
    this.#status = 'SUCCESS';
    this.#fields = [];
    this.#external = null;
  }

  end(status: 'FAILED' | 'EXPIRED' | 'CANCELED', failure: FlowFailure): void {
    if (this.isOver) return;
    this.#status = status;
    this.#failure = failure;
    this.#fields = [];
    this.#external = null;
    this.#waitingForInput = undefined;
  }

  /** Whether its end has been told (after the record was written): see `succeed`. */
  get isSettled(): boolean {
    return this.#isSettled;
  }

  /** Tells the flow's readers it ended (once the connection's record says so). */
  settle(): void {
    if (!this.isOver || this.#isSettled) return;
    this.#isSettled = true;
    this.#changed();
  }

  state(): FlowState {
    const isWaiting = this.#step === 'AWAITING_INPUT' && !this.isOver;
    return {
      flow_status: this.#status,
      flow_step: this.#step,
      flow_type: this.type,
      flow_expires_at: formatTimestamp(this.expiresAt),
      hosted_url: this.isOver ? null : this.#hostedUrl,
      live_view_url: this.isOver ? null : this.#liveViewUrl,
      browser_session_id: this.isOver ? null : this.#browserId,
      fields: isWaiting ? this.#fields.map(askedField) : null,
      discovered_fields: isWaiting ? this.#fields.map(discoveredField) : null,
      external_action_message: this.#external,
      error_code: this.#failure?.code ?? null,
      error_message: this.#failure?.message ?? null,
      website_error: this.#failure?.websiteError ?? null,
    };
  }

  event(now: Date): AuthEvent {
    const state = this.state();
    const event: Record<string, unknown> = {
      event: 'managed_auth_state',
      timestamp: formatTimestamp(now),
    };
    for (const [key, value] of Object.entries(state)) if (value !== null) event[key] = value;
    return event as AuthEvent;
  }
}
