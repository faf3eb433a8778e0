import type pg from 'pg';

/**
 * A PostgreSQL URL naming several hosts, as libpq reads it (docs/scaling.md, "Failover"):
 * `postgres://user@host1:5432,host2:5432/db?target_session_attrs=read-write`. node-postgres
 * connects to one host only; this file gives the store libpq's semantics over it: each new
 * connection tries the hosts in turn (the one that answered last first, then the others in
 * their order) and, with `target_session_attrs=read-write` (or `primary`), takes only a server
 * that accepts writes, so the store follows the writable one through a failover.
 */
export interface PgHosts {
  /** Each host as `host:port` (IPv6 in brackets), in the URL's order. */
  hosts: string[];
  /** Whether only a server accepting writes will do (target_session_attrs read-write or primary). */
  writable: boolean;
  /** The URL of one host (`i`), target_session_attrs removed: what node-postgres is given. */
  urlOf(i: number): string;
}

/** The target_session_attrs values this service takes (libpq's others pick standbys: use DATABASE_REPLICA_URLS). */
export const TARGET_SESSION_ATTRS = ['any', 'read-write', 'primary'] as const;

const URL_RE = /^(postgres(?:ql)?:\/\/)(?:([^@/?#]*)@)?([^/?#]*)(\/[^?#]*)?(\?[^#]*)?$/i;
const HOST_RE = /^(\[[0-9A-Fa-f:.]+\]|[^:[\],\s]+)(?::(\d{1,5}))?$/;

/**
 * The hosts of a postgres:// URL and what it asks of them; a string saying what is wrong when
 * it is no such URL (a host or port that is not one, an unknown target_session_attrs).
 */
export function pgHosts(url: string): PgHosts | string {
  const m = URL_RE.exec(url);
  if (m === null) return 'not a postgres://user@host:port/db URL';
  const [, scheme, userinfo, hostspec, path = '', query = ''] = m;
  const hosts: string[] = [];
  for (const h of hostspec === '' ? ['localhost'] : hostspec.split(',')) {
    const hm = HOST_RE.exec(h);
    if (hm === null) return `${h === '' ? 'an empty host' : `the host ${h}`} is not a host or host:port`;
    const port = hm[2] === undefined ? 5432 : Number(hm[2]);
    if (port < 1 || port > 65535) return `the port of ${h} is not 1..65535`;
    hosts.push(`${hm[1]}:${port}`);
  }
  const params = new URLSearchParams(query.slice(1));
  const attrs = params.get('target_session_attrs') ?? 'any';
  if (!(TARGET_SESSION_ATTRS as readonly string[]).includes(attrs))
    return `target_session_attrs=${attrs} is not one of ${TARGET_SESSION_ATTRS.join(', ')} (replicas are DATABASE_REPLICA_URLS)`;
  params.delete('target_session_attrs');
  const qs = params.toString();
  const rest = `${path}${qs ? `?${qs}` : ''}`;
  return {
    hosts,
    writable: attrs !== 'any',
    urlOf: (i) => `${scheme}${userinfo === undefined ? '' : `${userinfo}@`}${hosts[i]}${rest}`,
  };
}

/** No host of the URL could be used: what each said. pgUnavailable reads it as the store's absence. */
export class NoHost extends Error {
  constructor(writable: boolean, why: string[]) {
    super(`no host of the store's URL ${writable ? 'accepts writes' : 'answers'}: ${why.join('; ')}`);
  }
}

/** The query telling whether a server accepts writes (libpq's read-write check, and not a standby). */
const READ_ONLY = "select pg_is_in_recovery() or current_setting('transaction_read_only') = 'on' as ro";

/**
 * A pool over the hosts of `list` with pg.Pool's interface as this store uses it: `connect`,
 * `query`, `end`, `on('error')`. One pg.Pool per host (`make`, given the host's URL), made when
 * first tried. A connection comes from the host that answered last, else from the next one that
 * can be reached (and, `writable`, accepts writes: checked once per new connection); NoHost when
 * none can. `current()`: the host connections come from now.
 */
export function hostPool(list: PgHosts, make: (url: string) => pg.Pool) {
  const pools: (pg.Pool | undefined)[] = list.hosts.map(() => undefined);
  const listeners: ((e: Error) => void)[] = [];
  const checked = new WeakSet<pg.PoolClient>();
  let current = 0;
  const poolOf = (i: number) => {
    let p = pools[i];
    if (!p) {
      p = pools[i] = make(list.urlOf(i));
      for (const l of listeners) p.on('error', l);
    }
    return p;
  };
  const message = (e: unknown) => (e instanceof Error ? e.message : String(e));
  const connect = async (): Promise<pg.PoolClient> => {
    const why: string[] = [];
    let lastError: unknown;
    for (let k = 0; k < list.hosts.length; k++) {
      const i = (current + k) % list.hosts.length;
      let client: pg.PoolClient;
      try {
        client = await poolOf(i).connect();
      } catch (e) {
        lastError = e;
        why.push(`${list.hosts[i]} ${message(e)}`);
        continue;
      }
      if (list.writable && !checked.has(client)) {
        let readOnly: boolean;
        try {
          readOnly = (await client.query(READ_ONLY)).rows[0].ro === true;
        } catch (e) {
          client.release(e as Error);
          lastError = e;
          why.push(`${list.hosts[i]} ${message(e)}`);
          continue;
        }
        if (readOnly) {
          client.release(true);
          why.push(`${list.hosts[i]} is read-only (a standby)`);
          continue;
        }
        checked.add(client);
      }
      current = i;
      return client;
    }
    // One host: its own error, as without a list (the store's outage errors read it).
    if (list.hosts.length === 1 && lastError !== undefined) throw lastError;
    throw new NoHost(list.writable, why);
  };
  return {
    connect,
    async query(q: pg.QueryConfig) {
      const client = await connect();
      try {
        const r = await client.query(q);
        client.release();
        return r;
      } catch (e) {
        client.release(e as Error);
        throw e;
      }
    },
    on(event: 'error', fn: (e: Error) => void) {
      listeners.push(fn);
      for (const p of pools) p?.on(event, fn);
    },
    end: async () => {
      await Promise.all(pools.map((p) => p?.end()));
    },
    /** The host connections come from now (`host:port`). */
    current: () => list.hosts[current],
    /** The URL of the host connections come from now. */
    currentUrl: () => list.urlOf(current),
  };
}
