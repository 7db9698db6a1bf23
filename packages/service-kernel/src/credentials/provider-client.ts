/** The client credential providers' servers (1Password Connect) are reached through. */

/** What a credential provider's server answered to a GET. */
export interface ProviderAnswer {
  readonly status: number;
  /** The body parsed as JSON (undefined when it was not JSON). */
  readonly json: unknown;
}

/**
 * Reaches credential providers' servers (1Password Connect) for the service, as the egress
 * policy lets sessions reach (the server pins the address it checked, so a rebinding resolver
 * counts for nothing).
 */
export interface ProviderClient {
  /** Where a provider created without an address answers: the operator's default, if any. */
  readonly defaultUrl?: string | undefined;
  /**
   * GETs `url` with `Authorization: Bearer <token>`; throws an Error saying why when no answer
   * came (refused by the policy, unreachable, too large, too slow).
   */
  get(url: string, token: string): Promise<ProviderAnswer>;
}
