import type {
  ApiKey,
  AppVersion,
  AuditLogEntry,
  AuthConnection,
  AuthTimelineEvent,
  BrowserPoolConfig,
  BrowserProxy,
  BrowserSession,
  Credential,
  CredentialProvider,
  Deployment,
  Extension,
  Invocation,
  Profile,
  Project,
  Replay,
} from '@x/types';

/**
 * The record store's interface: what the service keeps, by kind and by scope (a project's, or
 * the organization's), and the audit log. Memory in the fake, SQLite or PostgreSQL in the server.
 */

/** An auth connection as kept: its settings and last outcome, and its timeline (newest first). */
export interface StoredAuthConnection {
  readonly record: AuthConnection;
  readonly timeline: readonly AuthTimelineEvent[];
  /**
   * Whether an organization-wide caller gave its provider reference: its sign-ins may read that
   * provider's item though the provider is not opened to the project.
   */
  readonly isProviderGranted?: boolean;
}

/** A credential provider's record and its sealed token. */
export interface StoredCredentialProvider {
  readonly record: CredentialProvider;
  readonly sealedToken: string;
}

/**
 * A credential as kept: its record (no secret in it) and its values and TOTP secret, each sealed
 * by the engines' secret box.
 */
export interface StoredCredential {
  readonly record: Credential;
  readonly sealedValues?: string | undefined;
  readonly sealedTotpSecret?: string | undefined;
}

/** A proxy's record and its sealed password. */
export interface StoredProxy {
  readonly record: BrowserProxy;
  readonly sealedPassword?: string | undefined;
}

/** A deployment as kept: its record and its environment, each value sealed by the secret box. */
export interface StoredDeployment {
  readonly record: Deployment;
  readonly sealedEnv: Readonly<Record<string, string>>;
  /**
   * The API key minted for its deploy (its install and discovery runs; its id, and the key
   * sealed), where keys can be minted: retired once the deploy ends.
   */
  readonly key?: { readonly id: string; readonly sealed: string } | undefined;
  /** The bytes its installed code takes on disk (counted against its project's cap). */
  readonly installedBytes?: number;
  /** Who deployed it: the keys minted for its code work while the deployer's key does. */
  readonly deployer?: { readonly keyId: string; readonly parentKey?: string | undefined };
}

/** Keys a record is found by besides its id. */
export interface RecordKeys {
  /** The record it belongs to (a replay's browser, a browser's invocation). */
  readonly parent?: string | undefined;
  /** Its name, unique among its kind. */
  readonly name?: string | undefined;
  /** Whether it is still open (a browser not deleted, a replay not finished). */
  readonly isOpen?: boolean;
}

/** Which records of a table a list gives. */
export interface RecordFilter {
  readonly parent?: string | undefined;
  readonly isOpen?: boolean | undefined;
}

/**
 * One kind of record, kept in the order first put. Every method answers asynchronously: the
 * store may be a database across the network. A name is unique among the records of a table: a
 * `put` that would give a second record the same name fails with `NameTaken`, whatever raced it.
 */
export interface RecordTable<T> {
  /** The record with this id; with `parent`, only if it belongs to that parent. */
  get(id: string, parent?: string): Promise<T | undefined>;
  byName(name: string): Promise<T | undefined>;
  /** The parent a record is filed under, if any. */
  parentOf(id: string): Promise<string | undefined>;
  /**
   * Adds or replaces a record. A replaced one keeps its place in the order, and every key not
   * given keeps its value.
   */
  put(id: string, record: T, keys?: RecordKeys): Promise<void>;
  delete(id: string): Promise<void>;
  list(filter?: RecordFilter): Promise<T[]>;
}

/** A name another record of its kind holds: what a store throws for a `put` that would repeat it. */
export class NameTaken extends Error {
  override readonly name = 'NameTaken';
  constructor(
    readonly kind: string,
    readonly taken: string,
  ) {
    super(`A ${kind} record named ${JSON.stringify(taken)} exists.`);
  }
}

/** A pool's configuration as kept: its live counts are the model's. */
export interface StoredPool {
  readonly id: string;
  readonly name?: string | undefined;
  readonly created_at: string;
  readonly config: BrowserPoolConfig;
}

/** An extension's record and the key of its archive. */
export interface StoredExtension {
  readonly record: Extension;
  readonly key: string;
}

/** A limit as kept: a number, or null for none. */
export type StoredLimit = number | null;

/** A project's record and its own limits (null: the organization's default). */
export interface StoredProject {
  readonly record: Project;
  readonly limits: {
    readonly max_concurrent_sessions: StoredLimit;
    readonly max_concurrent_invocations: StoredLimit;
  };
}

/** An API key as kept: its record (the key's last characters only) and the key's SHA-256. */
export interface StoredApiKey {
  /** The record without `project_name`, which is read from the project when answered. */
  readonly record: Omit<ApiKey, 'project_name'>;
  /** Hex SHA-256 of the key: what a call's key is looked up by (also the row's name key). */
  readonly digest: string;
  /** When a rotated key stops working, if later than now (a grace period). */
  readonly retiresAt?: string | undefined;
  /**
   * For a key the service minted for deployed code: who deployed the code (a key's id, an
   * operator token's `op_…`). Such a key never deploys or manages keys.
   */
  readonly mintedBy?: string | undefined;
  /** The API key that deployed the code, when one did: the minted key works only while it does. */
  readonly parentKey?: string | undefined;
  /** The key this one was rotated to: a minted key whose parent this is follows it there. */
  readonly rotatedTo?: string | undefined;
}

/** The organization's settings: the defaults of projects' limits. */
export interface StoredOrgSettings {
  readonly default_project_max_concurrent_sessions: StoredLimit;
  readonly default_project_max_concurrent_invocations: StoredLimit;
}

/**
 * The record tables, one per kind. The tables of a project hold its resources; the
 * organization's own records (projects, API keys, settings) are in the organization's scope
 * (`ORG_SCOPE`), whose resource tables stay empty.
 */
export interface RecordTables {
  readonly browsers: RecordTable<BrowserSession>;
  readonly invocations: RecordTable<Invocation>;
  readonly pools: RecordTable<StoredPool>;
  readonly replays: RecordTable<Replay>;
  readonly extensions: RecordTable<StoredExtension>;
  readonly profiles: RecordTable<Profile>;
  readonly proxies: RecordTable<StoredProxy>;
  readonly credentials: RecordTable<StoredCredential>;
  readonly authConnections: RecordTable<StoredAuthConnection>;
  readonly deployments: RecordTable<StoredDeployment>;
  /** App versions, filed under the deployment that brought them; only running ones are kept. */
  readonly appVersions: RecordTable<AppVersion>;
  readonly credentialProviders: RecordTable<StoredCredentialProvider>;
  readonly projects: RecordTable<StoredProject>;
  readonly apiKeys: RecordTable<StoredApiKey>;
  readonly orgSettings: RecordTable<StoredOrgSettings>;
}

/** The kinds of record a project holds: what must be gone before it may be deleted. */
export const PROJECT_RECORD_KINDS = [
  'browsers',
  'invocations',
  'pools',
  'replays',
  'extensions',
  'profiles',
  'proxies',
  'credentials',
  'authConnections',
  'deployments',
  'appVersions',
] as const satisfies readonly (keyof RecordTables)[];

/** Every kind of record, as the tables of a store are named: a project's, then the organization's. */
export const RECORD_KINDS = [
  ...PROJECT_RECORD_KINDS,
  'projects',
  'apiKeys',
  'orgSettings',
  'credentialProviders',
] as const satisfies readonly (keyof RecordTables)[];

/** The scope of the organization's own records; every other scope is a project's id. */
export const ORG_SCOPE = '';

/** A store's tables, one made by `make` for each kind of record. */
export function recordTablesOf(make: (kind: string) => RecordTable<unknown>): RecordTables {
  // Typed by the kinds listed: a table of `RecordTables` whose kind is left out fails to compile.
  const tables = Object.fromEntries(RECORD_KINDS.map((kind) => [kind, make(kind)])) as unknown as {
    readonly [K in (typeof RECORD_KINDS)[number]]: RecordTables[K];
  };
  return tables;
}

/**
 * Where records live: memory in the fake, SQLite or PostgreSQL in the server. A store that
 * cannot be reached (a database restarting) throws a ServiceError `unavailable` (503) with
 * `Retry-After`.
 */
export interface RecordStore extends RecordTables {
  /**
   * Runs `work` on tables whose writes land together or not at all: `work` throwing undoes them.
   * Nothing else writes between its reads and its writes.
   */
  transaction<R>(work: (tables: RecordTables) => Promise<R>): Promise<R>;
}

/**
 * Every record the service keeps, in scopes: one per project, and the organization's
 * (`ORG_SCOPE`). A scope sees only its own records; names are unique within a scope and kind;
 * ids are unique everywhere (a record of another scope is simply not found).
 */
export interface RecordStores {
  scope(scope: string): RecordStore;
}

/** Stores of scopes made by `make` when first named, then the same one each time. */
export function scopesOf<S extends RecordStore>(
  make: (scope: string) => S,
): { scope(scope: string): S; clear(): void } {
  const scopes = new Map<string, S>();
  return {
    scope(scope) {
      let store = scopes.get(scope);
      if (!store) {
        store = make(scope);
        scopes.set(scope, store);
      }
      return store;
    },
    clear: () => scopes.clear(),
  };
}

/** Which entries of the audit log a page gives: newest first, before `before` when given. */
export interface AuditQuery {
  /** Inclusive. */
  readonly start: Date;
  /** Exclusive. */
  readonly end: Date;
  readonly method?: string | undefined;
  /** In the path, key id or name, client IP or status, any case. */
  readonly search?: string | undefined;
  /** Only this project's entries. */
  readonly project?: string | undefined;
  /** Go on after this entry (the last of the page before): its time and id. */
  readonly after?: { readonly timestamp: string; readonly id: string } | undefined;
  readonly limit: number;
}

/** Where the audit log is kept: memory in the fake, SQLite or PostgreSQL in the server. */
export interface AuditStore {
  append(entry: AuditLogEntry): Promise<void>;
  /** Entries matching `query`, newest first (by time, then id), at most `query.limit`. */
  page(query: AuditQuery): Promise<AuditLogEntry[]>;
  /** Forgets entries older than `before`; gives how many went. */
  prune(before: Date): Promise<number>;
}
