import type { Snapshot } from '../src/query/snapshot.js';
import { expect } from 'vitest';
import pg from 'pg';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from '../src/app/app.js';
import { loadConfig } from '../src/app/config.js';
import { migrate, openStore } from '../src/derived/open.js';
import type { Store } from '../src/store/types.js';
import type { DemoOptions } from '../src/demo/generate.js';
import { openDemoStore } from './demo-templates.js';
import { KeyStore } from '../src/auth/keys.js';
import type { App } from '../src/http/services.js';

/** PostgreSQL server for the contract suite; unset means the PostgreSQL runs are skipped. */
export const PG_URL = process.env.TEST_DATABASE_URL ?? '';
const SQLITE_DIR_PREFIX = join(tmpdir(), 'mds-store-');
/**
 * The stores every store-facing suite runs on: a new SQLite file (in a directory of its own,
 * removed by Harness.close; other connections and the CLI can open it by name) and, with
 * TEST_DATABASE_URL, a new PostgreSQL database.
 */
export const STORES: { name: string; url: () => Promise<string> }[] = [
  { name: 'sqlite', url: async () => join(mkdtempSync(SQLITE_DIR_PREFIX), 'store.sqlite') },
  ...(PG_URL ? [{ name: 'postgres', url: () => freshPostgres() }] : []),
];
if (!PG_URL) console.warn('TEST_DATABASE_URL is not set: the PostgreSQL runs of the contract suite are skipped.');

/** Shared reference data (../shared/data) for tests against the outside world. */
export const SHARED = fileURLToPath(new URL('../../shared/data/', import.meta.url));
export const HAVE_SHARED = existsSync(SHARED);

const created: string[] = [];

/** Creates an empty database on the test server and returns its URL (dropped at exit). */
export async function freshPostgres(): Promise<string> {
  const name = `mds_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  created.push(name);
  const u = new URL(PG_URL);
  u.pathname = '/' + name;
  return u.toString();
}

export async function dropPostgres(url: string): Promise<void> {
  const name = new URL(url).pathname.slice(1);
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.end();
}

/** The small demo used across tests: all boards, new listings, ST, 1m/quote/trade days. */
export const SMALL_DEMO: Partial<DemoOptions> = { seed: 7, equities: 40, start: 20250102, end: 20251120, minuteDays: 3, tickDays: 2 };
/**
 * A demo a quarter of that (20 equities, five months, a day of 1m bars and ticks), for suites to
 * which the data's size and breadth do not matter: it exports, snapshots and copies faster.
 */
export const TINY_DEMO: Partial<DemoOptions> = { seed: 1, equities: 20, start: 20250701, end: 20251120, minuteDays: 1, tickDays: 1 };

export interface Harness {
  app: App;
  store: Store;
  key: string;
  url: string;
  close(): Promise<void>;
}

/** Text with every cursor (which names the data version its page was read at) left out: pages compared across versions. */
export const uncursored = (text: string) => text.replace(/(page\[after\]=|"next_cursor":")[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+/g, '$1…');

/** Runs `fn` on a read snapshot of the app's store (what a request is answered from), released after. */
export async function withSnapshot<T>(h: Harness, fn: (s: Snapshot) => Promise<T>): Promise<T> {
  const snap = await h.app.svc.openSnapshot();
  try {
    return await fn(snap);
  } finally {
    snap.release();
  }
}

/**
 * A migrated store with the small demo (none with `null`), an API key, and the app over it. The
 * demo is generated once per run and options, and copied (test/demo-templates.ts).
 */
export async function harness(url: string, demo: Partial<DemoOptions> | null = SMALL_DEMO): Promise<Harness> {
  let store: Store;
  if (demo === null) {
    store = openStore(url);
    await migrate(store);
  } else store = await openDemoStore(url, demo);
  const { key } = await new KeyStore(store.db).create('test');
  const app = await buildApp({ config: { ...loadConfig({}), databaseUrl: url }, store });
  await app.ready();
  return {
    app,
    store,
    key,
    url,
    async close() {
      await app.close();
      await store.close();
      if (url.startsWith('postgres')) await dropPostgres(url);
      else if (url.startsWith(SQLITE_DIR_PREFIX)) rmSync(dirname(url), { recursive: true, force: true });
    },
  };
}

/** GET with the harness key; returns status, parsed body and raw payload. */
export async function get(h: Harness, path: string, headers: Record<string, string> = { 'x-api-key': h.key }) {
  const res = await h.app.inject({ method: 'GET', url: path, headers });
  let body: any = null;
  try {
    body = JSON.parse(res.payload);
  } catch {
    /* not JSON */
  }
  return { status: res.statusCode, body, payload: res.payload, headers: res.headers };
}

/** Walks a collection page by page with `size`, returning every row. */
export async function walk(h: Harness, path: string, size: number, maxPages = 10_000): Promise<any[]> {
  const rows: any[] = [];
  let url: string | null = `${path}${path.includes('?') ? '&' : '?'}page[size]=${size}`;
  for (let i = 0; url && i < maxPages; i++) {
    const r = await get(h, url);
    if (r.status !== 200) throw new Error(`${url}: ${r.status} ${r.payload}`);
    rows.push(...r.body.data);
    url = r.body.links.next;
  }
  return rows;
}

/**
 * Checks that the points of `points` (an indicator path, with its query) carry the trade_date of
 * the bar of `bars` (the bars path, same instrument and query) with the same timestamp, one point
 * per bar. Returns the number of points compared.
 */
export async function expectPointDatesOfBars(h: Harness, bars: string, points: string): Promise<number> {
  const b = await walk(h, bars, 1000),
    p = await walk(h, points, 1000);
  expect(
    p.map((x) => x.timestamp),
    points,
  ).toEqual(b.map((x) => x.timestamp));
  expect(
    p.map((x) => x.trade_date),
    points,
  ).toEqual(b.map((x) => x.trade_date));
  return p.length;
}

/** Parses a CSV body of our files (fields quoted only where they hold a comma, quote or line break). */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [],
    f = '',
    q = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (q) {
      if (c === '"' && text[i + 1] === '"') {
        f += '"';
        i++;
      } else if (c === '"') q = false;
      else f += c;
    } else if (c === '"') q = true;
    else if (c === ',') {
      row.push(f);
      f = '';
    } else if (c === '\n') {
      row.push(f);
      rows.push(row);
      row = [];
      f = '';
    } else f += c;
  }
  return rows;
}

/** A JSON value as its CSV field. */
export const asField = (v: unknown) => (v === null || v === undefined ? '' : String(v));
