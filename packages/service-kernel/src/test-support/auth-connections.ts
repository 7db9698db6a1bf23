import type { AuthEvent } from '@x/types';
import type { testModel } from './memory-engines.js';

/** What the auth connections' tests share: a site's origin, a credential, a connection, its events. */

export const ORIGIN = 'http://localhost';
export const SECRET = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';

/** Every state event of the connection's flow, until it ends (or `until` says stop). */
export async function follow(
  test: ReturnType<typeof testModel>,
  id: string,
  until: (event: AuthEvent) => boolean = () => false,
): Promise<AuthEvent[]> {
  const events: AuthEvent[] = [];
  const stop = new AbortController();
  for await (const event of test.model.auth.events(id, stop.signal)) {
    events.push(event);
    if (until(event)) break;
  }
  return events;
}

export const steps = (events: AuthEvent[]) =>
  events.map((event) =>
    'flow_step' in event ? `${event.flow_status}/${event.flow_step}` : event.event,
  );

/** The credential the sign-in tests steal at: `bank`, for bank.example. */
export function bankCredential(
  test: ReturnType<typeof testModel>,
  extra: { sso_provider?: string } = {},
) {
  return test.model.credentials.create({
    name: 'bank',
    domain: 'bank.example',
    values: { username: 'agent', password: 'secret' },
    ...extra,
  });
}

export async function connection(
  test: ReturnType<typeof testModel>,
  body: Record<string, unknown> = {},
) {
  return test.model.auth.create(
    { domain: 'shop.example.com', profile_name: 'agent', ...body } as never,
    ORIGIN,
  );
}
