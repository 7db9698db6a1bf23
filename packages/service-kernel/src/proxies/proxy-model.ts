import {
  type BrowserProxy,
  type CreateProxyBody,
  formatTimestamp,
  type Page,
  type UpdateProxyBody,
} from '@x/types';
import type { BrowserInstance, ProxyRoute } from '../engines.js';
import { notFound, refusals } from '../messages.js';
import type { ModelContext } from '../model-context.js';
import { namedPage } from '../records/named-page.js';
import { putNamed } from '../records/named-records.js';
import type { StoredProxy } from '../records/record-store.js';

/**
 * Every rule of proxies: names unique, the password write-only (sealed by the engines' secret box,
 * never in a record or an answer), 409 on deleting one that browsers use unless forced, and what a
 * check finds recorded on the proxy.
 */
export class ProxyModel<I extends BrowserInstance> {
  readonly #context: ModelContext<I>;
  /** The live browsers routed through a proxy (set by the service model). */
  usersOf: (proxyId: string) => string[] = () => [];
  /** The pool whose configuration names a proxy, if any (set by the service model). */
  namingPool: (proxyId: string) => string | undefined = () => undefined;

  constructor(context: ModelContext<I>) {
    this.#context = context;
  }

  get #records() {
    return this.#context.engines.records.proxies;
  }

  async create(body: CreateProxyBody): Promise<BrowserProxy> {
    if (body.name !== undefined && (await this.#records.byName(body.name)))
      throw refusals.nameTaken('proxy', body.name);
    const { host, port, username, password } = body.config;
    const record: BrowserProxy = {
      id: this.#context.nextId('px'),
      type: 'custom',
      protocol: body.protocol,
      config: { host, port, has_password: false },
    };
    if (body.name !== undefined) record.name = body.name;
    if (username !== undefined) record.config.username = username;
    if (body.bypass_hosts !== undefined) record.bypass_hosts = [...body.bypass_hosts];
    await this.#put(record, password || undefined);
    return record;
  }

  async list(query: {
    readonly offset: number;
    readonly limit: number;
  }): Promise<Page<BrowserProxy>> {
    return namedPage(
      (await this.#records.list()).map((stored) => stored.record),
      query,
    );
  }

  async get(id: string): Promise<BrowserProxy> {
    return (await this.#find(id)).record;
  }

  /** Changes the fields given; `null` clears the username or the password. */
  async update(id: string, body: UpdateProxyBody): Promise<BrowserProxy> {
    const stored = await this.#find(id);
    if (
      body.name !== undefined &&
      body.name !== stored.record.name &&
      (await this.#records.byName(body.name))
    )
      throw refusals.nameTaken('proxy', body.name);
    const record: BrowserProxy = structuredClone(stored.record);
    let sealed = stored.sealedPassword;
    if (body.name !== undefined) record.name = body.name;
    if (body.protocol !== undefined) record.protocol = body.protocol;
    if (body.bypass_hosts !== undefined) record.bypass_hosts = [...body.bypass_hosts];
    const config = body.config ?? {};
    if (config.host !== undefined) record.config.host = config.host;
    if (config.port !== undefined) record.config.port = config.port;
    if (config.username === null) delete record.config.username;
    else if (config.username !== undefined) record.config.username = config.username;
    if (config.password === null || config.password === '') sealed = undefined;
    else if (config.password !== undefined)
      sealed = this.#context.engines.secrets.seal(config.password);
    // What a check found was about the proxy before the change.
    if (body.config !== undefined || body.protocol !== undefined) {
      delete record.status;
      delete record.last_checked;
      delete record.ip_address;
    }
    record.config.has_password = sealed !== undefined;
    await putNamed(this.#records, id, { record, sealedPassword: sealed }, record.name, 'proxy');
    return record;
  }

  /** 409 while browsers use it (unless `force`: they keep their route) or a pool names it. */
  async delete(id: string, force: boolean): Promise<void> {
    await this.#find(id);
    const pool = this.namingPool(id);
    if (pool !== undefined) throw refusals.namedByPool('Proxy', id, pool);
    const users = this.usersOf(id);
    if (users.length > 0 && !force) throw refusals.proxyInUse(id, users);
    await this.#records.delete(id);
  }

  /** Reaches a site through the proxy; records the status, when, and the exit address. */
  async check(id: string): Promise<BrowserProxy> {
    const route = await this.route(id);
    const result = await this.#context.engines.proxyChecker.check(route);
    // Read again: the proxy may have changed (or gone: 404) while the check ran.
    const stored = await this.#find(id);
    const record: BrowserProxy = structuredClone(stored.record);
    record.status = result.isAvailable ? 'available' : 'unavailable';
    record.last_checked = formatTimestamp(this.#context.clock());
    if (result.isAvailable && result.ipAddress !== undefined) record.ip_address = result.ipAddress;
    else delete record.ip_address;
    if (!result.isAvailable)
      this.#context.log.info({ proxy: id, reason: result.reason }, 'proxy check failed');
    await this.#records.put(id, { ...stored, record });
    return record;
  }

  /** How a browser created with `proxy_id` is routed: 404 for a proxy that is not there. */
  async route(id: string): Promise<ProxyRoute> {
    const { record, sealedPassword } = await this.#find(id);
    return {
      protocol: record.protocol,
      host: record.config.host,
      port: record.config.port,
      username: record.config.username,
      password: sealedPassword === undefined ? undefined : this.#open(id, sealedPassword),
      bypassHosts: record.bypass_hosts ?? [],
    };
  }

  /** A sealed password opened; 409 when this service's key cannot open it (the key changed). */
  #open(id: string, sealed: string): string {
    try {
      return this.#context.engines.secrets.open(sealed);
    } catch (error) {
      this.#context.log.error({ err: error, proxy: id }, 'a proxy password cannot be opened');
      throw refusals.proxyPasswordSealedElsewhere(id);
    }
  }

  async #find(id: string): Promise<StoredProxy> {
    const stored = await this.#records.get(id);
    if (!stored) throw notFound('proxy', id);
    return stored;
  }

  async #put(record: BrowserProxy, password: string | undefined): Promise<void> {
    const sealedPassword =
      password === undefined ? undefined : this.#context.engines.secrets.seal(password);
    record.config.has_password = sealedPassword !== undefined;
    await putNamed(this.#records, record.id, { record, sealedPassword }, record.name, 'proxy');
  }
}
