import { existsSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Store, StoreTimeouts } from './types.js';
import { openSqlite } from './dialects/sqlite.js';
import { openPostgres } from './dialects/postgres.js';
import { openReplicated } from './dialects/replicated.js';
import { pgHosts } from './dialects/postgres-hosts.js';

/** Where a store is: a PostgreSQL server, or a SQLite file (`:memory:` too). */
export type StoreLocation = { dialect: 'postgres'; url: string } | { dialect: 'sqlite'; path: string };

/** A store URL of a kind this service does not open (`mysql://…`): exit 3 from every command and the server. */
export class StoreUrlError extends Error {}

/** A URL as printed: its password hidden. */
export const shownUrl = (url: string) => url.replace(/(\/\/[^:/@]+:)[^@]*@/, '$1***@');

/** A scheme: two characters at least, so that a Windows drive (`C:\…`) is a path. */
const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]+):/;

export const STORE_URL_FORMS =
  'a SQLite file path, sqlite:PATH, sqlite:///ABSOLUTE/PATH, file:///ABSOLUTE/PATH, ' + 'or a postgres:// (postgresql://) URL';

/**
 * Where `url` (DATABASE_URL or `--database`) says the store is (docs/operations.md, "The store's
 * URL"): `postgres://…` / `postgresql://…` is PostgreSQL; a path (anything without a scheme),
 * `sqlite:PATH` / `file:PATH` (relative or absolute, as written) or `sqlite:///ABS` /
 * `file:///ABS` (`//localhost/ABS` too; percent-escapes decoded) is a SQLite file. Any other
 * scheme (`mysql://…`, `postgres:` without `//`) is a StoreUrlError, never taken for a path.
 */
export function storeLocation(url: string): StoreLocation {
  if (/^postgres(ql)?:\/\//i.test(url)) return { dialect: 'postgres', url };
  const m = SCHEME.exec(url);
  if (m === null) return { dialect: 'sqlite', path: url };
  const scheme = m[1].toLowerCase();
  const rest = url.slice(m[0].length);
  const refuse = (why: string) => new StoreUrlError(`cannot open the store ${shownUrl(url)}: ${why}; expected ${STORE_URL_FORMS}`);
  if (scheme !== 'sqlite' && scheme !== 'file') throw refuse(`${scheme}: is not a kind of store this service opens`);
  let path = rest;
  if (rest.startsWith('//')) {
    const local = /^\/\/(?:localhost)?(\/.*)$/i.exec(rest);
    if (local === null) throw refuse(`a ${scheme}: URL with // names no host but localhost, then an absolute path`);
    path = local[1];
  }
  if (path === '') throw refuse('no path');
  try {
    return { dialect: 'sqlite', path: decodeURIComponent(path) };
  } catch {
    throw refuse('a bad percent-escape');
  }
}

/** The SQLite file used when DATABASE_URL and --database are not given, relative to the working directory. */
export const DEFAULT_SQLITE_PATH = 'data/mds.sqlite';

/**
 * Makes sure a SQLite store at `url` can be made where it is named: its directory must exist (a
 * typo in a production path must not quietly make a new store, and the demo market in it, in a
 * new folder), except the default file's `data/`, which is made. A StoreUrlError (exit 3) names
 * the missing directory. Nothing to do for PostgreSQL, `:memory:` or a file that exists.
 */
export function ensureStoreDirectory(url: string): void {
  const at = storeLocation(url);
  if (at.dialect !== 'sqlite' || at.path === ':memory:' || at.path === '') return;
  const file = resolve(at.path);
  const dir = dirname(file);
  if (existsSync(dir)) return;
  if (file === resolve(DEFAULT_SQLITE_PATH)) {
    mkdirSync(dir, { recursive: true });
    return;
  }
  throw new StoreUrlError(
    `cannot open the store ${shownUrl(url)}: the directory ${dir} does not exist; ` +
      'create it first, or correct the path (only the default data/ is made)',
  );
}

/**
 * Opens the store at `url` (storeLocation): the connection alone. A PostgreSQL URL may name
 * several hosts (libpq's `host1:port,host2:port` and `target_session_attrs=read-write`:
 * store/dialects/postgres-hosts.ts): writes go to the one that accepts them. With `replicaUrls`
 * (PostgreSQL only; the server's store), read snapshots go to those replicas and to the other
 * hosts of `url` while they are standbys (store/dialects/replicated.ts). derived/open.ts opens a
 * store whose writes keep the derived data current.
 */
export function connect(url: string, timeouts?: StoreTimeouts, replicaUrls?: readonly string[]): Store {
  const at = storeLocation(url);
  if (at.dialect === 'sqlite') return openSqlite(at.path);
  const primary = openPostgres(at.url, timeouts);
  if (replicaUrls === undefined) return primary;
  const list = pgHosts(at.url);
  const hosts = typeof list !== 'string' && list.hosts.length > 1 ? list.hosts.map((host, i) => ({ host, url: list.urlOf(i) })) : [];
  const hostOf = (u: string) => {
    const l = pgHosts(u);
    return typeof l === 'string' ? u : l.hosts[0];
  };
  // A replica URL naming a host of `url` is that host's place.
  const others = replicaUrls.filter((r) => !hosts.some((h) => h.host === hostOf(r))).map((r) => ({ url: r }));
  const places = [...hosts, ...others];
  if (!places.length) return primary;
  return openReplicated(
    primary,
    places.map((p) => ({ ...p, url: shownUrl(p.url), store: openPostgres(p.url, timeouts) })),
  );
}
