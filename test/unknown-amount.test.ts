/**
 * Bars whose amount (turnover) is unknown (docs/ingest.md, "Bars without an amount"): czsc's
 * files load with the amount unknown, stored as UNKNOWN_AMOUNT and served as null (1m bars, 5m
 * bars aggregated from them, daily bars derived from them), never 0; the derived daily bars of
 * the SSE Composite against TDX's daily file, and TDX's loaded bars winning over them; a
 * canonical CSV with an empty or absent amount; weekly and adjusted bars of days of which one has
 * no amount; export and ingest round-tripping the empty field. SQLite and PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { get, HAVE_SHARED, SHARED, STORES, walk, type Harness } from './helpers.js';
import { emptyHarness, snapshot, tmp } from './ingest-helpers.js';
import { loadSharedData, SHARED_COMMANDS } from './shared-data.js';
import { ingest } from '../src/ingest/load.js';
import { dataset } from '../src/datasets/registry.js';
import { exportDatasets } from '../src/ingest/export.js';
import { checkBarPacks } from '../src/derived/bar-packs.js';
import { UNKNOWN_AMOUNT } from '../src/store/schema.js';
import { formatScaled, parseScaled } from '../src/lib/decimal.js';

if (!HAVE_SHARED) console.warn(`${SHARED} is absent: the czsc part of the unknown-amount test is skipped.`);

const rows = (file: string) => {
  const [head, ...lines] = readFileSync(join(SHARED, 'ohlcv', file), 'utf8')
    .trim()
    .split(/\r?\n/);
  const names = head.split(',');
  return lines.map((l) => Object.fromEntries(l.split(',').map((v, i) => [names[i], v])) as Record<string, string>);
};
/** A source decimal as the API renders it (2 decimals; exact, or the test fails). */
const dec = (s: string) => {
  const v = parseScaled(s, 3);
  if (v === null || v % 10 !== 0) throw new Error(`not exact at 2 decimals: ${s}`);
  return formatScaled(v, 3, 2);
};
/** czsc volumes are written as floats ("720858300.0"): the integer, when the fraction is zero. */
const whole = (s: string) => {
  const m = /^(\d+)(\.0+)?$/.exec(s);
  if (!m) throw new Error(`not a whole number: ${s}`);
  return Number(m[1]);
};
/** The commands that set up a store for the shared instruments: markets, the akshare calendar, instruments. */
const BASE = SHARED_COMMANDS.filter(([name, format]) => ['markets', 'instruments'].includes(name) || format === 'akshare');
const command = (name: string, format: string) => SHARED_COMMANDS.filter(([n, f]) => n === name && f === format);

const load = async (h: Harness, name: string, path: string) => {
  const r = await ingest(h.store, [{ path, dataset: dataset(name)! }]);
  expect(r.errors).toEqual([]);
  return r;
};
const DAILY_HEADER = 'instrument_id,trade_date,open,high,low,close,volume,amount';

for (const kind of STORES) {
  describe.skipIf(!HAVE_SHARED)(`czsc bars (no amount) in an empty ${kind.name} store`, () => {
    let h: Harness;
    const minutes = HAVE_SHARED ? rows('czsc_000001.XSHG_1MIN.csv') : [];
    const tdx = HAVE_SHARED ? new Map(rows('tdx_sh000001_index_daily.csv').map((d) => [d.date, d])) : new Map();
    const days = [...new Set(minutes.map((m) => m.dt.slice(0, 10)))];
    beforeAll(async () => {
      h = await emptyHarness(await kind.url());
      await loadSharedData(h.store, [...BASE, ...command('bars_1m', 'czsc')]);
    });
    afterAll(async () => {
      await h?.close();
    });

    it('serves every 1m bar of the file: amount null, volume in shares as written, prices as written', async () => {
      const api = await walk(h, '/api/v1/indices/000001.SH/bars?interval=1m&from=2020-07-01&to=2020-07-15', 1000);
      expect(api).toHaveLength(2640);
      expect(api.map((b) => [b.timestamp, b.open, b.high, b.low, b.close, b.volume, b.amount])).toEqual(
        minutes.map((m) => [`${m.dt.replace(' ', 'T')}+08:00`, dec(m.open), dec(m.high), dec(m.low), dec(m.close), whole(m.vol), null]),
      );
      const [stored] = await h.store.select<{ n: number; amounts: number }>(
        'select count(*) as n, count(distinct amount) as amounts from bars_1m where amount = ?',
        [UNKNOWN_AMOUNT],
      );
      expect([Number(stored.n), Number(stored.amounts)]).toEqual([2640, 1]);
    });

    it('5m bars: amount null, volumes the sums of their five minutes', async () => {
      const api = await walk(h, '/api/v1/indices/000001.SH/bars?interval=5m&from=2020-07-01&to=2020-07-15', 1000);
      expect(api).toHaveLength(2640 / 5);
      expect(api.every((b) => b.amount === null)).toBe(true);
      expect(api.map((b) => b.volume)).toEqual(api.map((_, i) => minutes.slice(5 * i, 5 * i + 5).reduce((t, m) => t + whole(m.vol), 0)));
    });

    it("daily bars derived for 2020-07-01..15: TDX's open, close and volume exactly, amount null, marked derived", async () => {
      const api = await walk(h, '/api/v1/indices/000001.SH/bars?interval=1d&from=2020-07-01&to=2020-07-15', 100);
      expect(api.map((b) => b.trade_date)).toEqual(days);
      expect(days).toHaveLength(11);
      // High and low are the minutes' extremes, which differ from the official index's (README).
      expect(api.map((b) => [b.trade_date, b.open, b.close, b.volume, b.amount])).toEqual(
        days.map((d) => [d, dec(tdx.get(d)!.open), dec(tdx.get(d)!.close), Number(tdx.get(d)!.volume_lots) * 100, null]),
      );
      const marks = await h.store.select<{ n: number }>('select count(*) as n from bars_1d_derived', []);
      expect(Number(marks[0].n)).toBe(11);
      const week = (await get(h, '/api/v1/indices/000001.SH/bars?interval=1w&date=2020-07-10')).body.data[0];
      expect([week.trade_date, week.amount]).toEqual(['2020-07-10', null]);
    });

    it('exports the minutes with an empty amount; the export loads into an empty store as the same bars (CSV and NDJSON)', async () => {
      const dir = tmp();
      for (const format of ['csv', 'ndjson'] as const) {
        const path = join(dir, `bars_1m.${format}`);
        await exportDatasets(h.store, [dataset('bars_1m')!], { path }, { format });
        const text = readFileSync(path, 'utf8').trim().split('\n');
        if (format === 'csv') expect(text[1]).toBe('000001.SH,2020-07-01T09:31:00+08:00,2991.18,2991.50,2990.34,2990.43,720858300,');
        else expect(JSON.parse(text[0])).toMatchObject({ timestamp: '2020-07-01T09:31:00+08:00', volume: 720858300, amount: null });
        const other = await emptyHarness(await kind.url());
        try {
          await loadSharedData(other.store, BASE);
          const r = await ingest(other.store, [{ path, dataset: dataset('bars_1m')! }]);
          expect([r.errors, r.derived.inserted]).toEqual([[], 11]);
          expect(await snapshot(other.store)).toEqual(await snapshot(h.store));
          const api = await walk(other, '/api/v1/indices/000001.SH/bars?interval=1m&from=2020-07-15&to=2020-07-15', 1000);
          expect(api.map((b) => [b.timestamp, b.volume, b.amount])).toEqual(
            minutes.filter((m) => m.dt.startsWith('2020-07-15')).map((m) => [`${m.dt.replace(' ', 'T')}+08:00`, whole(m.vol), null]),
          );
        } finally {
          await other.close();
        }
      }
    });

    it("czsc's daily file: every day's open, high, low and close (read in its O, C, H, L order), volume = lots × 100, amount null", async () => {
      const r = await loadSharedData(h.store, command('bars_1d', 'czsc'));
      expect([r[0].errors, r[0].datasets[0].rows]).toEqual([[], 3332]);
      const src = rows('czsc_000001.SH_D.csv');
      const api = await walk(h, '/api/v1/indices/000001.SH/bars?interval=1d&from=2006-01-01&to=2020-12-31', 1000);
      expect(api.map((b) => [b.trade_date, b.open, b.high, b.low, b.close, b.volume, b.amount])).toEqual(
        src.map((s) => [s.dt.slice(0, 10), dec(s.open), dec(s.high), dec(s.low), dec(s.close), whole(s.vol) * 100, null]),
      );
      // The 11 days derived from the minutes are loaded bars now.
      expect(Number((await h.store.select<{ n: number }>('select count(*) as n from bars_1d_derived', []))[0].n)).toBe(0);
    });

    it("TDX's daily file loaded next wins on all 11 days (amounts known, the derived marks gone); the minutes derive nothing again", async () => {
      const r = await loadSharedData(h.store, command('bars_1d', 'tdx-csv'));
      expect(r[0].errors).toEqual([]);
      const api = await walk(h, '/api/v1/indices/000001.SH/bars?interval=1d&from=2020-07-01&to=2020-07-15', 100);
      expect(api.map((b) => [b.trade_date, b.open, b.close, b.volume, b.amount])).toEqual(
        days.map((d) => [
          d,
          dec(tdx.get(d)!.open),
          dec(tdx.get(d)!.close),
          Number(tdx.get(d)!.volume_lots) * 100,
          dec(tdx.get(d)!.amount_cny),
        ]),
      );
      expect(Number((await h.store.select<{ n: number }>('select count(*) as n from bars_1d_derived', []))[0].n)).toBe(0);
      const again = await loadSharedData(h.store, command('bars_1m', 'czsc'));
      expect(again[0].derived).toEqual({ inserted: 0, updated: 0, unchanged: 0 });
      // A week of loaded days has a known amount again: the sum of TDX's.
      const week = (await get(h, '/api/v1/indices/000001.SH/bars?interval=1w&date=2020-07-10')).body.data[0];
      const fen = (s: string) => BigInt(parseScaled(s, 2)!);
      const sum = days.filter((d) => d >= '2020-07-06' && d <= '2020-07-10').reduce((t, d) => t + fen(tdx.get(d)!.amount_cny), 0n);
      expect(fen(week.amount)).toBe(sum);
      expect((await checkBarPacks(h.store)).problems).toEqual([]);
    });
  });

  describe(`canonical bars with an empty or absent amount, ${kind.name}`, () => {
    let h: Harness;
    const dir = tmp();
    // Two weeks of 600000.SH: the first has one day without an amount (2024-01-03, closing at
    // its up limit, 7.10 × 1.1), the second has all.
    const DAYS = [
      '2024-01-02',
      '2024-01-03',
      '2024-01-04',
      '2024-01-05',
      '2024-01-08',
      '2024-01-09',
      '2024-01-10',
      '2024-01-11',
      '2024-01-12',
    ];
    const line = (d: string, i: number) =>
      d === '2024-01-03'
        ? '600000.SH,2024-01-03,7.01,7.81,6.90,7.81,2000,'
        : `600000.SH,${d},7.0${i},7.20,6.90,7.10,${1000 * (i + 1)},${7100 * (i + 1)}.00`;
    beforeAll(async () => {
      h = await emptyHarness(await kind.url());
      const markets = readFileSync(new URL('../examples/markets.csv', import.meta.url), 'utf8');
      writeFileSync(join(dir, 'markets.csv'), markets);
      writeFileSync(join(dir, 'trading_days.csv'), 'market,date\n' + DAYS.map((d) => `SH,${d}`).join('\n') + '\n');
      writeFileSync(join(dir, 'instruments.csv'), 'instrument_id,kind,board,name,list_date\n600000.SH,equity,main,浦发银行,1999-11-10\n');
      // A cash dividend of 0.50 CNY ex 2024-01-10: adjusted prices differ from raw ones before it.
      writeFileSync(
        join(dir, 'corporate_actions.csv'),
        'instrument_id,ex_date,record_date,pay_date,announce_date,cash_per_share,' +
          'bonus_per_share,transfer_per_share,rights_per_share,rights_price\n600000.SH,2024-01-10,2024-01-09,,2024-01-02,0.50000,0,0,0,0\n',
      );
      writeFileSync(join(dir, 'bars_1d.csv'), [DAILY_HEADER, ...DAYS.map(line)].join('\n') + '\n');
      for (const name of ['markets', 'trading_days', 'instruments', 'bars_1d', 'corporate_actions'])
        await load(h, name, join(dir, `${name}.csv`));
    });
    afterAll(async () => {
      await h?.close();
    });

    it('an empty amount field is null, served and stored as unknown; others as written', async () => {
      const api = await walk(h, '/api/v1/equities/600000.SH/bars?interval=1d&from=2024-01-01', 100);
      expect(api.map((b) => [b.trade_date, b.volume, b.amount])).toEqual(
        DAYS.map((d, i) => [d, 1000 * (i + 1), d === '2024-01-03' ? null : `${7100 * (i + 1)}.00`]),
      );
      const stored = await h.store.select<{ amount: number }>('select amount from bars_1d where date = 20240103', []);
      expect(stored.map((r) => Number(r.amount))).toEqual([UNKNOWN_AMOUNT]);
    });

    it("a pool prints the daily bar's unknown amount as null", async () => {
      const pool = await walk(h, '/api/v1/equities/pools/limit_up?date=2024-01-03', 10);
      expect(pool.map((m) => [m.instrument_id, m.close, m.limit_up, m.volume, m.amount])).toEqual([
        ['600000.SH', '7.81', '7.81', 2000, null],
      ]);
    });

    it('a weekly bar mixing known and unknown amounts is null; a week of known amounts is their sum; adjusted bars keep both', async () => {
      for (const adjustment of ['none', 'forward', 'backward']) {
        // Adjustment scales volumes before the ex-date, not amounts (money).
        const weeks = await walk(h, `/api/v1/equities/600000.SH/bars?interval=1w&from=2024-01-01&adjustment=${adjustment}`, 10);
        expect(
          weeks.map((b) => [b.trade_date, b.amount]),
          adjustment,
        ).toEqual([
          ['2024-01-05', null],
          ['2024-01-12', `${7100 * 35}.00`],
        ]);
        if (adjustment === 'none') expect(weeks.map((b) => b.volume)).toEqual([10_000, 35_000]);
        const days = await walk(
          h,
          `/api/v1/equities/600000.SH/bars?interval=1d&from=2024-01-03&to=2024-01-03&adjustment=${adjustment}`,
          10,
        );
        expect(
          days.map((b) => b.amount),
          adjustment,
        ).toEqual([null]);
      }
      // The dividend does move adjusted prices (else the adjusted path would be the raw one).
      const fwd = await walk(h, '/api/v1/equities/600000.SH/bars?interval=1d&from=2024-01-03&to=2024-01-03&adjustment=forward', 10);
      expect(fwd[0].close).not.toBe('7.81');
    });

    it('an absent amount column keeps the stored amount (docs/ingest.md, "Idempotent"); export writes empty fields and ingest reads them back unchanged', async () => {
      const path = join(dir, 'no-amount.csv');
      writeFileSync(path, 'instrument_id,trade_date,open,high,low,close,volume\n600000.SH,2024-01-12,7.00,7.20,6.90,7.15,500\n');
      await load(h, 'bars_1d', path);
      const [b] = await walk(h, '/api/v1/equities/600000.SH/bars?interval=1d&from=2024-01-12&to=2024-01-12', 10);
      expect([b.close, b.volume, b.amount]).toEqual(['7.15', 500, `${7100 * 9}.00`]);
      const out = join(dir, 'export.csv');
      await exportDatasets(h.store, [dataset('bars_1d')!], { path: out });
      const exported = readFileSync(out, 'utf8');
      expect(exported.split('\n').filter((l) => l.endsWith(','))).toEqual(['600000.SH,2024-01-03,7.01,7.81,6.90,7.81,2000,']);
      expect(exported).toContain(`600000.SH,2024-01-12,7.00,7.20,6.90,7.15,500,${7100 * 9}.00\n`);
      const before = await snapshot(h.store);
      const r = await load(h, 'bars_1d', out);
      expect([r.datasets[0].updated, r.datasets[0].unchanged]).toEqual([0, DAYS.length]);
      expect(await snapshot(h.store)).toEqual(before);
      expect((await checkBarPacks(h.store)).problems).toEqual([]);
    });
  });
}
