/**
 * PostgreSQL's year partitions of bars_1m and bars_1m_packs (migration 0028,
 * store/dialects/postgres-partitions.ts): on a fresh store, on a store migrated from 0027, made
 * by the write into a new year (in its transaction: none left by one that fails), made once by
 * two writers at once without stopping the readers, refused over a detached year, and pruned by
 * a read of one day. SQLite has no partitions: nothing to test there.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import pg from 'pg';
import { dropPostgres, freshPostgres, get, harness, PG_URL, TINY_DEMO, type Harness } from './helpers.js';
import { tmp, writeMinuteBars } from './ingest-helpers.js';
import { migrate, openStore } from '../src/derived/open.js';
import { ensureDerived } from '../src/derived/ensure.js';
import { checkBarPacks } from '../src/derived/bar-packs.js';
import { migrateSchema } from '../src/store/migrate.js';
import * as m0029 from '../src/store/migrations/0029_index_weights.js';
import { buildApp } from '../src/app/app.js';
import { loadConfig } from '../src/app/config.js';
import { KeyStore } from '../src/auth/keys.js';
import { generateDemo } from '../src/demo/generate.js';
import { ingest } from '../src/ingest/load.js';
import { dataset } from '../src/datasets/registry.js';
import { marketTradingDays } from '../src/market/calendar.js';
import { formatDate, marketEpoch } from '../src/lib/time.js';
import type { Store } from '../src/store/types.js';
import { PARTITIONED, yearsOf } from '../src/store/dialects/postgres-partitions.js';

const FAMILY = ['bars_1m', 'bars_1m_packs'];

/** The partitions of each table of the family, by name, with their rows. */
async function partitions(store: Store): Promise<Record<string, Record<string, number>>> {
  const out: Record<string, Record<string, number>> = {};
  for (const t of FAMILY) {
    out[t] = {};
    const names = await store.select<{ name: string }>(
      'select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid where i.inhparent = ?::regclass order by 1',
      [t],
    );
    for (const { name } of names) out[t][name] = Number((await store.select<{ n: string }>(`select count(*) as n from ${name}`, []))[0].n);
  }
  return out;
}

/** Rows of `table` by year of their date. */
async function byYear(store: Store, table: string): Promise<Record<string, number>> {
  const rows = await store.select<{ y: number; n: string }>(
    `select date / 10000 as y, count(*) as n from ${table} group by 1 order by 1`,
    [],
  );
  return Object.fromEntries(rows.map((r) => [`${table}_y${r.y}`, Number(r.n)]));
}

/** Ingests 1m bars of `ids` on `days` into `store`; returns the result. */
async function ingestMinutes(store: Store, ids: string[], days: number[]) {
  const path = join(tmp(), 'bars_1m.csv');
  await writeMinuteBars(path, ids, days);
  return ingest(store, [{ path, dataset: dataset('bars_1m')! }]);
}

/** Equities of the store listed before 2021, by id. */
async function oldEquities(store: Store, n: number): Promise<{ id: string; inst: number }[]> {
  return store.select<{ id: string; inst: number }>(
    "select id, inst from instruments where kind = 'equity' and list_date < 20210101 order by id limit ?",
    [n],
  );
}

/** The relations an EXPLAIN of `sql` reads (its plan's "Relation Name"s). */
async function relationsRead(c: pg.Client, sql: string, params: unknown[] = []): Promise<string[]> {
  const { rows } = await c.query(`explain (format json) ${sql}`, params);
  const names: string[] = [];
  const visit = (node: any) => {
    if (node['Relation Name']) names.push(node['Relation Name']);
    for (const p of node.Plans ?? []) visit(p);
  };
  visit(rows[0]['QUERY PLAN'][0].Plan);
  return names.sort();
}

describe('the year of a row', () => {
  it('is the year of its trading day: bars_1m by ts in market time, the packs by date', () => {
    const ts = [marketEpoch(20231229, 900), marketEpoch(20231231, 1439), marketEpoch(20240101, 0), marketEpoch(20240102, 570)];
    expect([...yearsOf('bars_1m', [[ts[0]], [ts[1]]], 0)]).toEqual([2023]);
    expect([
      ...yearsOf(
        'bars_1m',
        ts.map((t) => [t]),
        0,
      ),
    ]).toEqual([2023, 2024]);
    expect(PARTITIONED.bars_1m.bounds(2024)).toEqual([marketEpoch(20240101, 0), marketEpoch(20250101, 0)]);
    expect([...yearsOf('bars_1m_packs', [[20231229], [20240102], [20231228]], 0)].sort()).toEqual([2023, 2024]);
    expect(PARTITIONED.bars_1m_packs.bounds(2024)).toEqual([20240000, 20250000]);
    expect(() => yearsOf('bars_1m_packs', [['x']], 0)).toThrow('bars_1m_packs: date x is not a date');
  });
});

describe.skipIf(!PG_URL)('year partitions of the 1m tables (PostgreSQL; SQLite has no partitions)', () => {
  describe('a fresh store', () => {
    let h: Harness;
    let eqs: { id: string; inst: number }[];
    beforeAll(async () => {
      h = await harness(await freshPostgres(), TINY_DEMO);
      eqs = await oldEquities(h.store, 2);
    }, 120_000);
    afterAll(async () => h?.close());

    it('has a partition for each year written, holding its rows', async () => {
      const p = await partitions(h.store);
      expect(p).toEqual({ bars_1m: await byYear(h.store, 'bars_1m'), bars_1m_packs: await byYear(h.store, 'bars_1m_packs') });
      expect(Object.keys(p.bars_1m)).toEqual(['bars_1m_y2025']);
      expect(p.bars_1m.bars_1m_y2025).toBeGreaterThan(0);
    });

    it('makes the partitions of a new year in the ingest that writes it, and serves them', async () => {
      const days = marketTradingDays('SH', 20240102, 20240131).slice(0, 3);
      const r = await ingestMinutes(
        h.store,
        eqs.map((e) => e.id),
        days,
      );
      expect(r.errors).toEqual([]);
      const p = await partitions(h.store);
      expect(p.bars_1m.bars_1m_y2024).toBe(2 * 3 * 241);
      expect(p.bars_1m_packs.bars_1m_packs_y2024).toBe(2 * 3);
      const page = await get(h, `/api/v1/equities/${eqs[0].id}/bars?interval=1m&date=${formatDate(days[1])}&page[size]=300`);
      expect(page.status).toBe(200);
      expect(page.body.data).toHaveLength(241);
      expect(page.body.data[0].trade_date).toBe(formatDate(days[1]));
      expect((await checkBarPacks(h.store)).problems).toEqual([]);
    });

    it('leaves no partition behind when the transaction writing a new year fails', async () => {
      const before = await partitions(h.store);
      const ts = marketEpoch(20220104, 600);
      await expect(
        h.store.bulkTransaction(async (s) => {
          await s.upsert(
            { table: 'bars_1m', columns: ['inst', 'ts', 'date', 'open', 'high', 'low', 'close', 'volume', 'amount'], key: ['inst', 'ts'] },
            [[eqs[0].inst, ts, 20220104, 10_000, 10_100, 9_900, 10_000, 100, 1_000_000]],
          );
          expect(Object.keys((await partitions(h.store)).bars_1m)).not.toContain('bars_1m_y2022'); // not visible outside it
          throw new Error('the ingest fails');
        }),
      ).rejects.toThrow('the ingest fails');
      expect(await partitions(h.store)).toEqual(before);
    });

    it('makes a year once for two writers at once, without stopping readers meanwhile', async () => {
      const reader = new pg.Client({ connectionString: h.url });
      await reader.connect();
      try {
        await reader.query("set lock_timeout = '3s'");
        const day = marketTradingDays('SH', 20210104, 20210110)[0];
        const write = (inst: number, read: boolean) =>
          h.store.bulkTransaction(async (s) => {
            await s.upsert(
              {
                table: 'bars_1m',
                columns: ['inst', 'ts', 'date', 'open', 'high', 'low', 'close', 'volume', 'amount'],
                key: ['inst', 'ts'],
              },
              [[inst, marketEpoch(day, 600), day, 10_000, 10_100, 9_900, 10_000, 100, 1_000_000]],
            );
            // The partition is made and this transaction holds it: readers and writers of other years go on.
            if (read) {
              const { rows } = await reader.query('select count(*)::int as n from bars_1m_packs where inst = $1', [inst]);
              expect(rows[0].n).toBeGreaterThan(0);
              await reader.query('select count(*) from bars_1m where inst = $1 and ts >= $2', [inst, marketEpoch(20250101, 0)]);
            }
          });
        await Promise.all([write(eqs[0].inst, true), write(eqs[1].inst, false)]);
        const p = await partitions(h.store);
        expect(p.bars_1m.bars_1m_y2021).toBe(2);
        expect(p.bars_1m_packs.bars_1m_packs_y2021).toBe(2);
        expect((await checkBarPacks(h.store)).problems).toEqual([]);
      } finally {
        await reader.end();
      }
    });

    it('reads one partition for one day of one instrument (the request path pruned)', async () => {
      const c = new pg.Client({ connectionString: h.url });
      await c.connect();
      try {
        const inst = eqs[0].inst;
        const packs = 'select date, n, data from bars_1m_packs where inst = $1 and date >= $2 and date <= $3 order by date limit 2';
        expect(await relationsRead(c, packs, [inst, 20240103, 20240103])).toEqual(['bars_1m_packs_y2024']);
        // As the server's prepared statement may be planned: generically, pruned when it runs.
        await c.query('set plan_cache_mode = force_generic_plan');
        await c.query(`prepare q(int, int, int) as ${packs}`);
        const { rows } = await c.query('explain (analyze, format json) execute q(' + [inst, 20240103, 20240103].join(', ') + ')');
        const plan = JSON.stringify(rows[0]['QUERY PLAN']);
        expect(plan.match(/"Relation Name":"bars_1m_packs_y\d+"/g)).toEqual(['"Relation Name":"bars_1m_packs_y2024"']);
        expect(plan).toMatch(/"Subplans Removed":[1-9]/);
        await c.query('reset plan_cache_mode');
        // And the 1m bars by ts (ingest's checks, the daily bars derived from them).
        const bars = 'select ts from bars_1m where inst = $1 and ts >= $2 and ts < $3 order by ts';
        expect(await relationsRead(c, bars, [inst, marketEpoch(20240103, 0), marketEpoch(20240104, 0)])).toEqual(['bars_1m_y2024']);
      } finally {
        await c.end();
      }
    });

    it('refuses to write a year whose partition was detached, until it is attached again', async () => {
      const days = marketTradingDays('SH', 20240201, 20240229).slice(0, 1);
      const [from, to] = [marketEpoch(20240101, 0), marketEpoch(20250101, 0)];
      await h.store.bulkTransaction(async (s) => {
        await s.query('alter table bars_1m detach partition bars_1m_y2024');
        await s.query('alter table bars_1m_packs detach partition bars_1m_packs_y2024');
      });
      await expect(ingestMinutes(h.store, [eqs[0].id], days)).rejects.toThrow(
        /^bars_1m: the partition of 2024, bars_1m_y2024, exists but is not attached \(detached to be archived\?\): attach it again/,
      );
      await h.store.bulkTransaction(async (s) => {
        await s.query(`alter table bars_1m attach partition bars_1m_y2024 for values from (${from}) to (${to})`);
        await s.query('alter table bars_1m_packs attach partition bars_1m_packs_y2024 for values from (20240000) to (20250000)');
      });
      expect((await ingestMinutes(h.store, [eqs[0].id], days)).errors).toEqual([]);
      expect((await partitions(h.store)).bars_1m.bars_1m_y2024).toBe(7 * 241);
    });
  });

  describe('a store migrated from 0027', () => {
    let url: string;
    let store: Store;
    beforeAll(async () => {
      url = await freshPostgres();
      store = openStore(url);
    });
    afterAll(async () => {
      await store?.close();
      if (url) await dropPostgres(url);
    });

    /** The app over the store, and a key; `paths`' answers (status, ETag, body) through it. */
    async function answers(paths: string[]): Promise<string[]> {
      const app = await buildApp({ config: { ...loadConfig({}), databaseUrl: url }, store });
      await app.ready();
      try {
        const { key } = await new KeyStore(store.db).create('partitions');
        const h = { app, key } as unknown as Harness;
        const out: string[] = [];
        for (const p of paths) {
          const r = await get(h, p);
          out.push(`${p} ${r.status} ${String(r.headers.etag)}\n${r.payload}`);
        }
        return out;
      } finally {
        await app.close();
      }
    }

    it('serves the same minute bar pages after the migration, its rows in year partitions', async () => {
      await migrateSchema(store, '0027_tdx_files');
      await ensureDerived(store);
      // Today's demo writes index weights (0029): the table is there while it writes, gone after, so that 0029 adds it again.
      await m0029.up(store.db, store.dialect);
      await generateDemo(store, TINY_DEMO);
      await store.bulkTransaction((s) => s.query('drop table index_weights'));
      // What the demo leaves to a store's migration to derive (generateDemo on an older schema), made at 0027.
      await ensureDerived(store);
      const eqs = await oldEquities(store, 2);
      const days = [
        ...marketTradingDays('SH', 20230103, 20230131).slice(0, 2),
        ...marketTradingDays('SH', 20231225, 20240110),
        ...marketTradingDays('SH', 20240603, 20240610).slice(0, 2),
      ];
      const r = await ingestMinutes(
        store,
        eqs.map((e) => e.id),
        days,
      );
      expect(r.errors).toEqual([]);
      const counts = { bars_1m: await byYear(store, 'bars_1m'), bars_1m_packs: await byYear(store, 'bars_1m_packs') };
      expect(Object.keys(counts.bars_1m)).toEqual(['bars_1m_y2023', 'bars_1m_y2024', 'bars_1m_y2025']);
      const paths = eqs.flatMap(({ id }) => [
        ...[days[0], days[3], days.at(-1)!].map((d) => `/api/v1/equities/${id}/bars?interval=1m&date=${formatDate(d)}&page[size]=300`),
        // Across the new year, forwards and newest first, and aggregated.
        `/api/v1/equities/${id}/bars?interval=1m&from=2023-12-28&to=2024-01-05&page[size]=1000`,
        `/api/v1/equities/${id}/bars?interval=1m&from=2023-12-28&to=2024-01-05&page[size]=500&order=desc`,
        `/api/v1/equities/${id}/bars?interval=5m&from=2023-01-01&to=2025-12-31&page[size]=1000`,
        `/api/v1/equities/${id}/bars?interval=1d&from=2023-01-01&to=2025-12-31&page[size]=1000`,
      ]);
      const before = await answers(paths);
      expect(before.filter((a) => / 200 /.test(a.split('\n')[0]))).toHaveLength(paths.length);

      // All or nothing: a migration that fails midway (a table in the way of a partition's name) leaves the store as it was.
      await store.bulkTransaction((s) => s.query('create table bars_1m_packs_y2024 (x int)'));
      await expect(migrate(store)).rejects.toThrow(/bars_1m_packs_y2024/);
      expect(await partitions(store)).toEqual({ bars_1m: {}, bars_1m_packs: {} });
      expect(await byYear(store, 'bars_1m')).toEqual(counts.bars_1m);
      await store.bulkTransaction((s) => s.query('drop table bars_1m_packs_y2024'));

      // The migration changes no data: no derivation made again, no new data version (the ETags are the same).
      expect(await migrate(store)).toEqual({ applied: ['0028_minute_partitions', '0029_index_weights'], rebuilt: [] });
      expect(await partitions(store)).toEqual(counts);
      expect(await answers(paths)).toEqual(before);
      expect((await checkBarPacks(store)).problems).toEqual([]);
      // And the next year's write makes its partitions.
      expect((await ingestMinutes(store, [eqs[0].id], marketTradingDays('SH', 20220104, 20220110).slice(0, 1))).errors).toEqual([]);
      expect((await partitions(store)).bars_1m_packs.bars_1m_packs_y2022).toBe(1);
    }, 240_000);
  });
});
