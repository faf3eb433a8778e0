/**
 * Caches and ETags across commits (docs/performance.md, "Commits beside readers"): a server
 * (`node dist/app/server.js`, one worker) over a bench store (build-store.ts), read by 64
 * keep-alive connections that revalidate pages of instruments with If-None-Match (PAGES: daily
 * bars, price limits and valuations of a month, income statements, adjustment factors, the
 * equity, a list of its market's equities),
 * for `--seconds` (20) with no commits, then as long again while this process re-ingests one
 * other instrument's last 20 daily bars every second (intraday loads); each phase on a server
 * of its own, the two in turns `--rounds` (3) times, reported per round and as the 304 rate of
 * all rounds and the median of the rounds' p50s. Then the evening update: on a new server, 200
 * pages (of every kind but factors, windows a year back) are read cold, again (warm), a next
 * day of every instrument is ingested in one commit, and the pages are read once more without a
 * tag (the first request after the update) and revalidated with their tags. Reports per phase
 * the revalidations, their 304 rate (also by kind) and p50/p99 (ms), and the evening's p50s.
 *
 *   npm run build && npx tsx bench/commits.ts [--seconds 20] [--rounds 3] [--equities 500] [--days 500] [--pg URL] [--json FILE]
 *
 * --pg URL: the store is a new database on that server (`mds_commits_<pid>`, dropped at the end),
 * where the daily pack cache (PACK_CACHE_MB) is in play; else a SQLite file in a temporary folder.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { migrate, openStore } from '../src/derived/open.js';
import { KeyStore } from '../src/auth/keys.js';
import { ingest } from '../src/ingest/load.js';
import { dataset } from '../src/datasets/registry.js';
import type { Store } from '../src/store/types.js';
import { buildBenchStore } from './build-store.js';
import { serveStore } from './serve.js';

const { values: o } = parseArgs({
  options: {
    seconds: { type: 'string', default: '20' },
    equities: { type: 'string', default: '500' },
    days: { type: 'string', default: '500' },
    connections: { type: 'string', default: '64' },
    rounds: { type: 'string', default: '3' },
    pg: { type: 'string' },
    json: { type: 'string' },
  },
});
const SECONDS = Number(o.seconds),
  CONNECTIONS = Number(o.connections),
  ROUNDS = Number(o.rounds);
/** Pages each connection revalidates in turn. */
const PAGES_PER_CONNECTION = 16;
const EVENING_PAGES = 200;

const dir = mkdtempSync(join(tmpdir(), 'mds-bench-commits-'));

/** A new database on the server of `url`, dropped by `drop`. */
async function freshDatabase(url: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `mds_commits_${process.pid}`;
  const admin = async (sql: string) => {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    try {
      await c.query(sql);
    } finally {
      await c.end();
    }
  };
  await admin(`drop database if exists ${name} with (force)`);
  await admin(`create database ${name}`);
  const u = new URL(url);
  u.pathname = '/' + name;
  return { url: u.toString(), drop: () => admin(`drop database if exists ${name} with (force)`) };
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] : NaN;
};
const iso = (d: number) => `${String(d).slice(0, 4)}-${String(d).slice(4, 6)}-${String(d).slice(6, 8)}`;

/** One GET: status, ETag, body and time (ms). */
async function timed(url: string, headers: Record<string, string>) {
  const t = performance.now();
  const r = await fetch(url, { headers });
  const body = await r.text();
  return { status: r.status, etag: r.headers.get('etag'), body, ms: performance.now() - t };
}

/** The pages read, by kind: of an equity `id`, a window of about a month starting on `days[i]` where they take one. */
const PAGES = {
  bars: (id: string, w: string) => `/api/v1/equities/${id}/bars?interval=1d&${w}`,
  limits: (id: string, w: string) => `/api/v1/equities/${id}/price-limits?${w}`,
  valuations: (id: string, w: string) => `/api/v1/equities/${id}/valuations?${w}`,
  statements: (id: string) => `/api/v1/equities/${id}/income-statements`,
  factors: (id: string) => `/api/v1/equities/${id}/adjustment-factors`,
  equity: (id: string) => `/api/v1/equities/${id}`,
  list: (id: string) => `/api/v1/equities?page[size]=100&market=${id.slice(7)}`,
};
type Kind = keyof typeof PAGES;
const KIND_NAMES = Object.keys(PAGES) as Kind[];
const page = (kind: Kind, id: string, days: number[], i: number) =>
  PAGES[kind](id, `from=${iso(days[i])}&to=${iso(days[Math.min(days.length - 1, i + 21)])}`);
/** The kind of a page's path. */
const kindOf = (url: string): Kind =>
  url.includes('/bars?')
    ? 'bars'
    : url.includes('/price-limits')
      ? 'limits'
      : url.includes('/valuations')
        ? 'valuations'
        : url.includes('/income-statements')
          ? 'statements'
          : url.includes('/adjustment-factors')
            ? 'factors'
            : url.includes('?')
              ? 'list'
              : 'equity';

/** The weekday after `d` (YYYYMMDD). */
function nextWeekday(d: number): number {
  const t = new Date(Date.UTC(Math.floor(d / 10000), (Math.floor(d / 100) % 100) - 1, d % 100));
  do t.setUTCDate(t.getUTCDate() + 1);
  while (t.getUTCDay() === 0 || t.getUTCDay() === 6);
  return t.getUTCFullYear() * 10000 + (t.getUTCMonth() + 1) * 100 + t.getUTCDate();
}

/** A seeded generator (the same pages in every phase). */
function rng(seed: number) {
  return (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    // The high bits: the low ones of this generator repeat with a short period.
    return Math.floor((seed / 2 ** 31) * n);
  };
}

interface Phase {
  revalidations: number;
  notModified: number;
  p50: number;
  p99: number;
  commits: number;
  /** Per kind of page: revalidations and 304s. */
  kinds: Record<string, [number, number]>;
}

/** 64 connections revalidating pages of `readIds` for SECONDS, while `commit` (if any) runs every second. */
async function phase(base: string, key: string, readIds: string[], days: number[], commit: (() => Promise<void>) | null): Promise<Phase> {
  const headers = { 'x-api-key': key };
  const lists = Array.from({ length: CONNECTIONS }, (_, c) => {
    const r = rng(1000 + c);
    return Array.from(
      { length: PAGES_PER_CONNECTION },
      () => base + page(KIND_NAMES[r(KIND_NAMES.length)], readIds[r(readIds.length)], days, r(days.length - 22)),
    );
  });
  // Every page read once (its tag): not measured.
  const tags = await Promise.all(lists.map(async (l) => Promise.all(l.map(async (u) => (await timed(u, headers)).etag!))));
  const times: number[] = [];
  let notModified = 0,
    commits = 0;
  const kinds: Record<string, [number, number]> = Object.fromEntries(KIND_NAMES.map((k) => [k, [0, 0]]));
  const end = Date.now() + SECONDS * 1000;
  const writer = (async () => {
    if (!commit) return;
    for (let next = Date.now() + 1000; next < end; next += 1000) {
      await new Promise((r) => setTimeout(r, Math.max(0, next - Date.now())));
      await commit();
      commits++;
    }
  })();
  await Promise.all(
    lists.map(async (l, c) => {
      for (let i = 0; Date.now() < end; i = (i + 1) % l.length) {
        const r = await timed(l[i], { ...headers, 'if-none-match': tags[c][i] });
        times.push(r.ms);
        const k = kinds[kindOf(l[i])];
        k[0]++;
        if (r.status === 304) {
          notModified++;
          k[1]++;
        } else if (r.status === 200) tags[c][i] = r.etag!;
        else throw new Error(`${l[i]}: ${r.status} ${r.body.slice(0, 200)}`);
      }
    }),
  );
  await writer;
  return { revalidations: times.length, notModified, p50: pct(times, 50), p99: pct(times, 99), commits, kinds };
}

async function main() {
  const db = o.pg ? await freshDatabase(o.pg) : { url: join(dir, 'store.sqlite'), drop: async () => undefined };
  const store: Store = openStore(db.url);
  try {
    const t = Date.now();
    await buildBenchStore(store, { equities: Number(o.equities), days: Number(o.days), minuteDays: 0, end: 20251120 });
    await migrate(store);
    console.error(`built the store (${o.equities} equities, ${o.days} days) in ${((Date.now() - t) / 1000).toFixed(1)} s`);
    const key = (await new KeyStore(store.db).create('bench')).key;
    const ids = (await store.db.selectFrom('instruments').select('id').where('kind', '=', 'equity').orderBy('id').execute()).map(
      (r) => r.id,
    );
    const days = (
      await store.db
        .selectFrom('bars_1d')
        .select('date')
        .where(
          'inst',
          '=',
          (await store.db.selectFrom('instruments').select('inst').where('id', '=', ids[0]).executeTakeFirstOrThrow()).inst,
        )
        .orderBy('date')
        .execute()
    ).map((r) => r.date);
    const [writerId, ...readIds] = ids;
    let round = 0;
    /** The last `last` bars of `list` ids, volumes raised by `more`, as one ingest; `on`: dated that day instead (one bar each). */
    const barsFile = async (list: string[], last: number, more: number, on?: number) => {
      const rows = await store.selectRows(
        'select i.id, b.date, b.open, b.high, b.low, b.close, b.volume from bars_1d b join instruments i on i.inst = b.inst' +
          ` where b.date >= ? and i.id in (${list.map(() => '?').join(',')}) order by i.id, b.date`,
        [days[days.length - last], ...list],
      );
      const path = join(dir, `bars-${++round}.csv`);
      const px = (v: unknown) => (Number(v) / 1000).toFixed(2);
      writeFileSync(
        path,
        [
          'instrument_id,trade_date,open,high,low,close,volume',
          ...rows.map((r) => [r[0], iso(on ?? Number(r[1])), px(r[2]), px(r[3]), px(r[4]), px(r[5]), Number(r[6]) + more].join(',')),
        ].join('\n') + '\n',
      );
      return [{ path, dataset: dataset('bars_1d')! }];
    };
    const reingest = async () => {
      const r = await ingest(store, await barsFile([writerId], 20, round + 1));
      if (!r.ok || r.dataVersion === null) throw new Error(`the re-ingest did not commit: ${r.errors.join('; ')}`);
    };

    const results: Record<string, unknown> = {
      store: o.pg ? 'postgres' : 'sqlite',
      equities: Number(o.equities),
      days: Number(o.days),
      seconds: SECONDS,
    };
    // The two phases in turns (ROUNDS each): the machine's drift falls on both alike.
    const phases = { 'no commits': [] as Phase[], 'one instrument re-ingested every second': [] as Phase[] };
    for (let i = 0; i < ROUNDS; i++)
      for (const [name, commit] of [
        ['no commits', null],
        ['one instrument re-ingested every second', reingest],
      ] as const) {
        const srv = await serveStore(db.url);
        try {
          const p = await phase(srv.base, key, readIds, days, commit);
          phases[name].push(p);
          console.log(
            `${name}: ${p.revalidations} revalidations, ${((100 * p.notModified) / p.revalidations).toFixed(1)}% 304, p50 ${p.p50.toFixed(2)} ms, p99 ${p.p99.toFixed(2)} ms, ${p.commits} commits; 304 by kind: ${Object.entries(
              p.kinds,
            )
              .map(([k, [n, nm]]) => `${k} ${nm}/${n}`)
              .join(', ')}`,
          );
        } finally {
          srv.stop();
        }
      }
    for (const [name, list] of Object.entries(phases)) {
      const all = list.reduce((n, p) => n + p.revalidations, 0);
      const summary = {
        rounds: list,
        notModifiedRate: list.reduce((n, p) => n + p.notModified, 0) / all,
        medianP50: pct(
          list.map((p) => p.p50),
          50,
        ),
        commits: list.reduce((n, p) => n + p.commits, 0),
      };
      results[name] = summary;
      console.log(
        `${name}, ${ROUNDS} rounds: ${(100 * summary.notModifiedRate).toFixed(2)}% 304, median p50 ${summary.medianP50.toFixed(2)} ms`,
      );
    }

    // The evening update: every instrument's last day, in one commit; pages read before it are closed windows a year back.
    const srv = await serveStore(db.url);
    try {
      const h = { 'x-api-key': key };
      const r = rng(7);
      // Every kind but adjustment factors (they follow every close: the one before an ex-date).
      const untouched = KIND_NAMES.filter((k) => k !== 'factors');
      const urls = Array.from(
        { length: EVENING_PAGES },
        () => srv.base + page(untouched[r(untouched.length)], readIds[r(readIds.length)], days, r(days.length - 300)),
      );
      const pass = async (tags?: (string | null)[]) => {
        const out: { status: number; etag: string | null; ms: number }[] = [];
        for (const [i, u] of urls.entries()) out.push(await timed(u, tags ? { ...h, 'if-none-match': tags[i]! } : h));
        return out;
      };
      const cold = await pass();
      const warm = await pass();
      const t0 = performance.now();
      const e = await ingest(store, await barsFile(ids, 1, 1, nextWeekday(days[days.length - 1])));
      if (!e.ok) throw new Error(`the evening update did not commit: ${e.errors.join('; ')}`);
      const update = performance.now() - t0;
      const after = await pass();
      const again = await pass(warm.map((x) => x.etag));
      const evening = {
        coldP50: pct(
          cold.map((x) => x.ms),
          50,
        ),
        beforeP50: pct(
          warm.map((x) => x.ms),
          50,
        ),
        firstAfterP50: pct(
          after.map((x) => x.ms),
          50,
        ),
        updateMs: update,
        notModifiedAfter: again.filter((x) => x.status === 304).length,
        /** Per kind: p50 (ms) of the first request after the update, and of the warm one before it. */
        p50ByKind: Object.fromEntries(
          untouched.map((k) => {
            const of = (xs: { ms: number }[]) =>
              pct(
                xs.filter((_, i) => kindOf(urls[i]) === k).map((x) => x.ms),
                50,
              ).toFixed(2);
            return [k, `${of(after)} after, ${of(warm)} before`];
          }),
        ),
        notModifiedByKind: Object.fromEntries(
          untouched.map((k) => [
            k,
            `${again.filter((x, i) => x.status === 304 && kindOf(urls[i]) === k).length}/${urls.filter((u) => kindOf(u) === k).length}`,
          ]),
        ),
        pages: urls.length,
      };
      results.evening = evening;
      console.log(
        `evening update of ${ids.length} instruments (${(update / 1000).toFixed(1)} s): a page's first request p50 ${evening.firstAfterP50.toFixed(2)} ms after, ${evening.beforeP50.toFixed(2)} ms before (warm), ${evening.coldP50.toFixed(2)} ms cold; ${evening.notModifiedAfter}/${urls.length} revalidations 304 (${Object.entries(
          evening.notModifiedByKind,
        )
          .map(([k, n]) => `${k} ${n}`)
          .join(', ')}); p50 by kind: ${Object.entries(evening.p50ByKind)
          .map(([k, n]) => `${k} ${n}`)
          .join(', ')}`,
      );
    } finally {
      srv.stop();
    }
    if (o.json) writeFileSync(o.json, JSON.stringify(results, null, 2) + '\n');
  } finally {
    await store.close();
    await db.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
