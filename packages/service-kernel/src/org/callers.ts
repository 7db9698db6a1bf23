import { HEADERS } from '@x/types';
import { bearerOf, type Caller, type KeyGrant } from '../pipeline/auth.js';
import { verifySessionJwt } from '../session-jwt.js';
import type { ApiKeys } from './api-keys.js';
import type { OrgContext } from './org-context.js';
import { keyDigest } from './org-keys.js';
import type { Projects } from './projects.js';

/** Most key digests remembered as recently used. */
const MAX_RECENT_KEYS = 1000;

/** A live session as a session's jwt reaches it: its project, and the secret its jwts carry. */
export interface SessionOfJwt {
  readonly project: string;
  readonly jwtSecret: string;
}

/**
 * Who calls, and where: the API key a token is, the caller a session's jwt makes, the project a
 * call acts in. What the request pipeline asks of the organization before any handler runs.
 */
export class Callers {
  readonly #context: OrgContext;
  readonly #keys: ApiKeys;
  readonly #projects: Projects;
  readonly #sessionOf: (sessionId: string) => SessionOfJwt | undefined;
  /** Digests of keys that worked lately on this node, oldest first (for connection budgets). */
  readonly #recentKeys = new Set<string>();

  /** `sessionOf`: the live session a jwt may open (none for the service's own sign-ins). */
  constructor(
    context: OrgContext,
    keys: ApiKeys,
    projects: Projects,
    sessionOf: (sessionId: string) => SessionOfJwt | undefined,
  ) {
    this.#context = context;
    this.#keys = keys;
    this.#projects = projects;
    this.#sessionOf = sessionOf;
  }

  /**
   * Who calls with a live session's jwt: a caller of that session's project that may act (the
   * jwt opens the browser's DevTools, which is more), when the jwt is this service's, for that
   * session, unexpired and of the DevTools scope; undefined otherwise.
   */
  async sessionCaller(sessionId: string, jwt: string): Promise<Caller | undefined> {
    const session = this.#sessionOf(sessionId);
    if (!session) return undefined;
    const now = Math.floor(this.#context.clock().getTime() / 1000);
    if (!verifySessionJwt(session.jwtSecret, jwt, sessionId, now)) return undefined;
    return {
      token: jwt,
      isReadOnly: false,
      keyId: `jwt_${sessionId}`,
      keyName: `session ${sessionId}`,
      strategy: 'session_jwt',
      project: session.project,
    };
  }

  /** The API key a token is, if one works now (not deleted, not expired): read from the store. */
  async grantOf(token: string): Promise<KeyGrant | undefined> {
    const digest = keyDigest(token);
    const stored = await this.#keys.workingByDigest(digest);
    if (!stored) {
      this.#recentKeys.delete(digest);
      return undefined;
    }
    this.#recentKeys.add(digest);
    if (this.#recentKeys.size > MAX_RECENT_KEYS) {
      this.#recentKeys.delete(this.#recentKeys.values().next().value as string);
    }
    return {
      keyId: stored.record.id,
      keyName: stored.record.name,
      project: stored.record.project_id ?? undefined,
      isReadOnly: stored.record.read_only,
      ...(stored.mintedBy !== undefined && { isMinted: true }),
    };
  }

  /** Whether a request carries an API key that works now (read from the store). */
  async isKey(request: Request): Promise<boolean> {
    const token = bearerOf(request.headers.get(HEADERS.authorization) ?? '');
    return token !== undefined && (await this.grantOf(token)) !== undefined;
  }

  /**
   * Whether an Authorization header carries a key that worked in a recent call on this node: for
   * deciding at once, before any call, which connection budget a connection counts against.
   * Never a grant: every call still looks its key up.
   */
  isRecentKey(authorization: string): boolean {
    const token = bearerOf(authorization);
    return token !== undefined && this.#recentKeys.has(keyDigest(token));
  }

  /**
   * The project a call acts in: the one its header names (id or name), else its key's, else the
   * default. A project key naming another project is 403 (whether or not that one exists); an
   * unknown or archived project is 404.
   */
  projectOf(caller: Caller, header: string | undefined): Promise<string> {
    return this.#projects.actingProject(caller, header);
  }
}
