/**
 * Restated statements (issue 37): a statement announced again for the same period is another
 * version of it, kept beside the first. The case on every store: 600519.SH's h1 2026
 * report (announced 2026-08-21 in this demo) restated on 2026-09-15. Valuations before the
 * restatement's announcement are what they were; from it on they use the restated figures;
 * the lists show each period's latest version, `as_of` what was known on a day; ingest keeps,
 * counts and logs the version, export writes every version and loads back the same.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { get, harness, STORES, walk, type Harness } from './helpers.js';
import { emptyHarness, mds, tmp } from './ingest-helpers.js';
import { cents, divide, render } from './fundamentals-helpers.js';
import { ingest } from '../src/ingest/load.js';
import { dataset } from '../src/datasets/registry.js';
import { changesSince } from '../src/store/versions.js';
import type { DemoOptions } from '../src/demo/generate.js';
import { Migrator, type Kysely, type Migration } from 'kysely';
import { migrate, openStore } from '../src/derived/open.js';
import { MIGRATION_NAMES } from '../src/store/migrate.js';

/** A small demo over the dates: 20 equities (600519.SH among them), July to November 2026. */
const DEMO: Partial<DemoOptions> = { seed: 1, equities: 20, start: 20260701, end: 20261120, minuteDays: 1, tickDays: 1 };
const E = '/api/v1/equities/600519.SH';
const RESTATED_ON = '2026-09-15';
/** The restatement's cut: net profit attributable lowered by a fifth (a provision booked as a liability). */
const CUT = (npa: bigint) => npa / 5n;

const csv = (rows: Record<string, unknown>[]) =>
  [
    Object.keys(rows[0]).join(','),
    ...rows.map((r) =>
      Object.values(r)
        .map((v) => (v === null ? '' : String(v)))
        .join(','),
    ),
  ].join('\n') + '\n';
const money = (v: bigint) => render(v, 2)!;
/** `rows` with the record of `r`'s period replaced by `r`. */
const swap = (rows: any[], r: any) => rows.map((x) => (x.report_date === r.report_date ? r : x));

/** The restated h1 2026 income statement and balance sheet of `income` and `balance` (the API's records, file columns too). */
function restate(income: Record<string, any>, balance: Record<string, any>) {
  const cut = CUT(cents(income.net_profit_attributable));
  const less = (s: string) => money(cents(s) - cut);
  const npa = cents(income.net_profit_attributable) - cut;
  const i = {
    ...income,
    announce_date: RESTATED_ON,
    operating_profit: less(income.operating_profit),
    total_profit: less(income.total_profit),
    net_profit: less(income.net_profit),
    net_profit_attributable: money(npa),
    basic_eps: render(divide(npa, cents(balance.share_capital), 10_000n), 4),
  };
  const more = (s: string) => money(cents(s) + cut);
  const b = {
    ...balance,
    announce_date: RESTATED_ON,
    total_liabilities: more(balance.total_liabilities),
    current_liabilities: more(balance.current_liabilities),
    equity_attributable: less(balance.equity_attributable),
    total_equity: less(balance.total_equity),
  };
  return { income: i, balance: b };
}

describe.each(STORES)('restated statements on $name', ({ url }) => {
  let h: Harness;
  const dir = tmp('mds-restated-');
  /** What the API said before the restatement was loaded. */
  let before: { valuations: any[]; income: any[]; balance: any[]; firstPage: any; version: number };
  let restated: ReturnType<typeof restate>;
  let loaded: Awaited<ReturnType<typeof ingest>>;
  const valuations = () => walk(h, `${E}/valuations?from=2026-08-01&to=2026-11-20`, 1000);

  beforeAll(async () => {
    h = await harness(await url(), DEMO);
    const income = await walk(h, `${E}/income-statements`, 1000);
    const balance = await walk(h, `${E}/balance-sheets`, 1000);
    const firstPage = await get(h, `${E}/income-statements?page[size]=12`);
    before = { valuations: await valuations(), income, balance, firstPage, version: Number(firstPage.headers['data-version']) };
    const h1 = (rows: any[]) => rows.find((r) => r.report_date === '2026-06-30')!;
    restated = restate(h1(income), h1(balance));
    writeFileSync(join(dir, 'income_statements.csv'), csv([restated.income]));
    writeFileSync(join(dir, 'balance_sheets.csv'), csv([restated.balance]));
    loaded = await ingest(h.store, [
      { path: join(dir, 'income_statements.csv'), dataset: dataset('income_statements')! },
      { path: join(dir, 'balance_sheets.csv'), dataset: dataset('balance_sheets')! },
    ]);
  }, 120_000);
  afterAll(async () => {
    await h?.close();
  });

  it('loads the restatement as a version of its own: inserted, logged, the original kept', async () => {
    const original = before.income.find((r) => r.report_date === '2026-06-30');
    // The demo announced h1 2026 before the day, and the restatement after it.
    expect(original.announce_date < '2026-09-01' && original.net_profit_attributable !== restated.income.net_profit_attributable).toBe(
      true,
    );
    expect(loaded.ok).toBe(true);
    expect(loaded.datasets.map((d) => [d.dataset, d.inserted, d.updated, d.unchanged])).toEqual([
      ['income_statements', 1, 0, 0],
      ['balance_sheets', 1, 0, 0],
    ]);
    expect(loaded.dataVersion).toBe(before.version + 1);
    const log = await changesSince((q, p) => h.store.selectRows(q, p), before.version);
    expect(log.map((v) => [v.version, v.origin, v.changes])).toEqual([
      [
        before.version + 1,
        'ingest of 2 files',
        ['balance_sheets', 'income_statements'].map((dataset) => ({
          dataset,
          rows: 1,
          instruments: ['600519.SH'],
          from: 20260630,
          to: 20260630,
        })),
      ],
    ]);
    // Loading it again changes nothing and makes no version.
    const again = await ingest(h.store, [{ path: join(dir, 'income_statements.csv'), dataset: dataset('income_statements')! }]);
    expect(again.datasets.map((d) => [d.inserted, d.updated, d.unchanged])).toEqual([[0, 0, 1]]);
    expect(again.dataVersion).toBeNull();
    // A row of a stored version (the same announce_date) corrects that version: updated, not added.
    const file = join(dir, 'corrected.csv');
    writeFileSync(file, csv([{ ...restated.income, basic_eps: '0.0001' }]));
    const corrected = await ingest(h.store, [{ path: file, dataset: dataset('income_statements')! }]);
    expect(corrected.datasets.map((d) => [d.inserted, d.updated, d.unchanged])).toEqual([[0, 1, 0]]);
    expect((await get(h, `${E}/income-statements?from=2026-06-30&to=2026-06-30`)).body.data).toEqual([
      { ...restated.income, basic_eps: '0.0001' },
    ]);
    const back = await ingest(h.store, [{ path: join(dir, 'income_statements.csv'), dataset: dataset('income_statements')! }]);
    expect(back.datasets.map((d) => [d.inserted, d.updated, d.unchanged])).toEqual([[0, 1, 0]]);
  });

  it('values the days before the announcement as before, and the restated figures from it on', async () => {
    const after = await valuations();
    expect(after.map((v) => v.trade_date)).toEqual(before.valuations.map((v) => v.trade_date));
    const q3 = before.income.find((r) => r.report_date === '2026-09-30').announce_date;
    const of = (rows: any[], date: string) => rows.find((r) => r.report_date === date);
    // TTM on h1 2026: h1 2026 + annual 2025 − h1 2025, the restated h1 from its announcement.
    const ttm = cents(restated.income.net_profit_attributable) + cents(of(before.income, '2025-12-31').net_profit_attributable);
    const base = ttm - cents(of(before.income, '2025-06-30').net_profit_attributable);
    let changed = 0;
    after.forEach((v, i) => {
      const was = before.valuations[i];
      if (v.trade_date < RESTATED_ON || v.trade_date >= q3) {
        // Before it (the issue: 2026-09-01 moved), and once q3 is the latest report, nothing moves.
        expect(v, v.trade_date).toEqual(was);
        return;
      }
      const mv = cents(v.close) * BigInt(v.total_shares);
      expect(v.pe_ttm, v.trade_date).toBe(render(divide(mv, base, 10_000n), 4));
      expect(v.pb, v.trade_date).toBe(render(divide(mv, cents(restated.balance.equity_attributable), 10_000n), 4));
      expect(v.pe_ttm).not.toBe(was.pe_ttm);
      // What the restatement did not touch is as it was.
      expect({ ...v, pe_ttm: null, pb: null }).toEqual({ ...was, pe_ttm: null, pb: null });
      changed++;
    });
    expect(changed).toBeGreaterThan(10);
    const day = async (d: string) => (await get(h, `${E}/valuations?date=${d}`)).body.data[0];
    expect(await day('2026-09-01')).toEqual(before.valuations.find((v) => v.trade_date === '2026-09-01'));
    expect((await day(RESTATED_ON)).pe_ttm).toBe(after.find((v) => v.trade_date === RESTATED_ON).pe_ttm);
  });

  it('lists the latest version of each period, and with as_of what was known that day', async () => {
    expect(await walk(h, `${E}/income-statements`, 1000)).toEqual(swap(before.income, restated.income));
    expect(await walk(h, `${E}/balance-sheets`, 1000)).toEqual(swap(before.balance, restated.balance));
    // A page at a time: the same records.
    expect(await walk(h, `${E}/income-statements`, 2)).toEqual(swap(before.income, restated.income));
    // The day before the restatement: the original; periods announced later are absent.
    const known = (d: string) => before.income.filter((r) => r.announce_date <= d);
    expect(await walk(h, `${E}/income-statements?as_of=2026-09-14`, 1000)).toEqual(known('2026-09-14'));
    expect(await walk(h, `${E}/income-statements?as_of=2026-09-01`, 3)).toEqual(known('2026-09-01'));
    expect(await walk(h, `${E}/income-statements?as_of=${RESTATED_ON}`, 1000)).toEqual(swap(known(RESTATED_ON), restated.income));
    expect(await walk(h, `${E}/balance-sheets?as_of=2026-09-14&from=2026-01-01`, 1000)).toEqual(
      before.balance.filter((r) => r.announce_date <= '2026-09-14' && r.report_date >= '2026-01-01'),
    );
    expect(await walk(h, `${E}/cash-flow-statements?as_of=2000-01-01`, 1000)).toEqual([]);
    expect((await walk(h, `${E}/financial-indicators?as_of=2026-09-14`, 1000)).map((r) => r.report_date)).toEqual(
      known('2026-09-14').map((r) => r.report_date),
    );
  });

  it('goes on from a cursor issued before the restatement was loaded, each period once', async () => {
    const first = before.firstPage.body;
    expect(first.data).toHaveLength(12);
    const next = await get(h, first.links.next);
    expect(next.status).toBe(200);
    expect(next.headers['data-version-cursor']).toBe(String(before.version));
    const rest = await walk(h, first.links.next.replace(/^.*\?/, `${E}/income-statements?`).replace(/&?page\[size\]=12/, ''), 1000);
    expect(rest[0]).toEqual(next.body.data[0]);
    expect([...first.data, ...next.body.data]).toEqual(
      swap(before.income, restated.income).slice(0, first.data.length + next.body.data.length),
    );
  });

  it('refuses an as_of that is not a date, naming it', async () => {
    for (const v of ['2026-02-30', 'yesterday', '20260915', '2026-9-15']) {
      const r = await get(h, `${E}/income-statements?as_of=${v}`);
      expect(r.status, v).toBe(400);
      expect(
        r.body.errors.map((e: any) => [e.code, e.source.parameter]),
        v,
      ).toEqual([['invalid_parameter', 'as_of']]);
    }
  });

  it('exports every version, and a store loaded from the files answers alike', async () => {
    const out = tmp('mds-restated-export-');
    expect((await mds(h.url, 'export', '--all', '--dir', out)).code).toBe(0);
    const lines = readFileSync(join(out, 'income_statements.csv'), 'utf8')
      .split('\n')
      .filter((l) => l.startsWith('600519.SH,2026-06-30,'));
    expect(lines.map((l) => l.split(',')[3])).toEqual([
      before.income.find((r) => r.report_date === '2026-06-30').announce_date,
      RESTATED_ON,
    ]);
    const b = await emptyHarness(await url());
    try {
      const r = await mds(b.url, 'ingest', '--dir', out);
      expect(r.code, r.stderr).toBe(0);
      for (const p of [
        `${E}/income-statements`,
        `${E}/balance-sheets?as_of=2026-09-14`,
        `${E}/income-statements?as_of=${RESTATED_ON}`,
        `${E}/valuations?from=2026-08-01&to=2026-11-20&page[size]=1000`,
      ])
        expect((await get(b, p)).body.data, p).toEqual((await get(h, p)).body.data);
      const again = join(tmp('mds-restated-export-'), 'income_statements.csv');
      expect((await mds(b.url, 'export', 'income_statements', '--out', again)).code).toBe(0);
      expect(readFileSync(again, 'utf8')).toBe(readFileSync(join(out, 'income_statements.csv'), 'utf8'));
    } finally {
      await b.close();
    }
  });
});

describe.each(STORES)('migration 0022 on $name', ({ url }) => {
  it('keeps every statement of a store made before it, and takes a restatement after', async () => {
    const store = openStore(await url());
    try {
      // The store as the code before 0022 left it.
      const before = MIGRATION_NAMES.slice(0, MIGRATION_NAMES.indexOf('0022_statement_versions'));
      const steps: Record<string, Migration> = {};
      for (const name of before) {
        const m = await import(`../src/store/migrations/${name}.ts`);
        steps[name] = { up: (db) => m.up(db, store.dialect) };
      }
      expect(
        (await new Migrator({ db: store.db, provider: { getMigrations: async () => steps } }).migrateToLatest()).error,
      ).toBeUndefined();
      const db = store.db as unknown as Kysely<any>;
      const tables = ['income_statements', 'balance_sheets', 'cash_flow_statements', 'financial_indicators'];
      const rows = (n: number) => [
        { inst: 1, report_date: 20250630, report_type: 'h1', announce_date: 20250820 + n },
        { inst: 1, report_date: 20250930, report_type: 'q3', announce_date: 20251030 },
        { inst: 2, report_date: 20250630, report_type: 'h1', announce_date: 20250825 },
      ];
      const columns = async (t: string) =>
        (
          await store.select<{ name: string }>(
            store.dialect === 'sqlite'
              ? 'select name from pragma_table_info(?) order by cid'
              : 'select column_name as name from information_schema.columns where table_schema = current_schema() and table_name = ? order by ordinal_position',
            [t],
          )
        ).map((c) => c.name);
      /** A row of `t` with its key from `k` and every other column `7` . */
      const full = (cols: string[], k: Record<string, unknown>) => Object.fromEntries(cols.map((c) => [c, k[c] ?? 7]));
      const read = (t: string) => db.selectFrom(t).selectAll().orderBy(['inst', 'report_date', 'report_type', 'announce_date']).execute();
      const stored: Record<string, unknown[]> = {};
      for (const t of tables) {
        const cols = await columns(t);
        await db
          .insertInto(t)
          .values(rows(0).map((k) => full(cols, k)))
          .execute();
        // Before 0022 a second announcement of a period is a key conflict.
        await expect(
          db
            .insertInto(t)
            .values(full(cols, rows(5)[0]))
            .execute(),
        ).rejects.toThrow();
        stored[t] = await read(t);
      }
      expect((await migrate(store)).applied).toEqual(MIGRATION_NAMES.slice(before.length));
      for (const t of tables) {
        expect(await read(t), t).toEqual(stored[t]);
        await db
          .insertInto(t)
          .values(full(await columns(t), rows(5)[0]))
          .execute();
        expect(
          (await read(t)).map((r: any) => Number(r.announce_date)),
          t,
        ).toEqual([20250820, 20250825, 20251030, 20250825]);
      }
    } finally {
      await store.close();
    }
  });
});
