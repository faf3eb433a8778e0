import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { get, HAVE_SHARED, SHARED, STORES, walk, type Harness } from './helpers.js';
import { emptyHarness, tmp } from './ingest-helpers.js';
import { ingest } from '../src/ingest/load.js';
import { exportDatasets } from '../src/ingest/export.js';
import { dataset } from '../src/datasets/registry.js';
import { divRoundHalfUp, formatScaled, parseScaled } from '../src/lib/decimal.js';

// Adjusted prices served from published factors (dataset adj_factors) and their precedence over
// corporate actions (docs/analytics.md, "Adjustment basis"). Every file is loaded by `ingest`,
// the operator's path, from canonical CSV written here.

if (!HAVE_SHARED) console.warn(`${SHARED} is absent: the Vanke (000002.SZ) adj_factors checks are skipped.`);

/** Loads canonical CSV texts, by dataset name, in one ingest command (the app's next request reads the new data version). */
async function load(h: Harness, files: Record<string, string[]>): Promise<void> {
  const dir = tmp('mds-adj-');
  const input = Object.entries(files).map(([name, lines]) => {
    const path = join(dir, `${name}.csv`);
    writeFileSync(path, lines.join('\n') + '\n');
    return { path, dataset: dataset(name)! };
  });
  const r = await ingest(h.store, input);
  if (!r.ok) throw new Error(r.errors.join('\n'));
}

const MARKET = (id: string) =>
  `${id},${id === 'SZ' ? 'Shenzhen Stock Exchange,深圳证券交易所,XSHE' : 'Shanghai Stock Exchange,上海证券交易所,XSHG'},Asia/Shanghai,CNY,1990-12-01`;
const HEADERS = {
  markets: 'id,name,name_local,mic,timezone,currency,opened',
  trading_days: 'market,date',
  instruments:
    'instrument_id,kind,board,name,name_en,list_date,delist_date,total_shares,float_shares,fund_type,underlying,base_date,base_value',
  bars_1d: 'instrument_id,trade_date,open,high,low,close,volume,amount',
  corporate_actions:
    'instrument_id,ex_date,record_date,pay_date,announce_date,cash_per_share,bonus_per_share,transfer_per_share,rights_per_share,rights_price',
  adj_factors: 'instrument_id,trade_date,adj_factor',
};
const file = (name: keyof typeof HEADERS, rows: string[]) => ({ [name]: [HEADERS[name], ...rows] });

/** Price units (1/1000 CNY) × n/d, rounded half-up to 0.01 CNY, as the API writes it. */
const px = (p: number, n: bigint, d: bigint) => formatScaled(Number(divRoundHalfUp(BigInt(p) * n, d * 10n) * 10n), 3, 2);
const scaled = (s: string, k: number) => {
  const v = parseScaled(s, k);
  if (v === null) throw new Error(`not a decimal at scale ${k}: ${s}`);
  return v;
};

for (const store of STORES) {
  describe(`synthetic Tushare-style factors, one per trading day (${store.name})`, () => {
    // 600999.SH; factors 2.000 (06-03, 06-04) and 2.500 (from 06-05); 05-31 precedes the first row.
    const days = ['2024-05-31', '2024-06-03', '2024-06-04', '2024-06-05', '2024-06-06', '2024-06-07'];
    const closes = ['10.00', '10.10', '10.01', '8.02', '8.33', '8.01'],
      volumes = [1000, 1001, 999, 2000, 1234, 1235];
    const factors = [null, '2.000', '2.000', '2.500', '2.500', '2.500'];
    let h: Harness;
    beforeAll(async () => {
      h = await emptyHarness(await store.url());
      await load(h, {
        ...file('markets', [MARKET('SH')]),
        ...file(
          'trading_days',
          [...days, '2024-06-11'].map((d) => `SH,${d}`),
        ),
        ...file('instruments', ['600999.SH,equity,main,测试股份,,2010-01-04,,,,,,,', '600998.SH,equity,main,常数股份,,2010-01-04,,,,,,,']),
        ...file(
          'bars_1d',
          ['600999.SH', '600998.SH'].flatMap((id) =>
            days.map((d, i) => `${id},${d},${closes[i]},${closes[i]},${closes[i]},${closes[i]},${volumes[i]},1000.00`),
          ),
        ),
        // An event the vendor factors already hold: it must not adjust again.
        ...file('corporate_actions', ['600999.SH,2024-06-05,2024-06-04,,2024-05-20,0.00000,0.250000,0.000000,0.000000,0.00']),
        ...file('adj_factors', [
          ...days.flatMap((d, i) => (factors[i] ? [`600999.SH,${d},${factors[i]}`] : [])),
          ...days.map((d) => `600998.SH,${d},1.208`),
        ]), // a factor that never changes
      });
    });
    afterAll(async () => {
      await h?.close();
    });

    const bars = async (q: string) =>
      (await walk(h, `/api/v1/equities/600999.SH/bars?interval=1d&${q}`, 1000)).map((b) => [b.trade_date, b.close, b.volume]);

    it('backward = raw × factor, the first factor before the first row; volume ÷ factor (half-up)', async () => {
      // 10.00×2, 10.10×2, 10.01×2, 8.02×2.5 = 20.05, 8.33×2.5 = 20.825, 8.01×2.5 = 20.025 (both half-up)
      // volumes 1000/2, 1001/2 = 500.5, 999/2 = 499.5, 2000/2.5, 1234/2.5 = 493.6, 1235/2.5 = 494
      expect(await bars('adjustment=backward')).toEqual([
        ['2024-05-31', '20.00', 500],
        ['2024-06-03', '20.20', 501],
        ['2024-06-04', '20.02', 500],
        ['2024-06-05', '20.05', 800],
        ['2024-06-06', '20.83', 494],
        ['2024-06-07', '20.03', 494],
      ]);
    });

    it('forward = raw × factor / latest factor (2/2.5 = 0.8 before 06-05); volume ÷ 0.8', async () => {
      // 10.10×0.8 = 8.08, 10.01×0.8 = 8.008 → 8.01; 1001/0.8 = 1251.25, 999/0.8 = 1248.75
      expect(await bars('adjustment=forward')).toEqual([
        ['2024-05-31', '8.00', 1250],
        ['2024-06-03', '8.08', 1251],
        ['2024-06-04', '8.01', 1249],
        ['2024-06-05', '8.02', 2000],
        ['2024-06-06', '8.33', 1234],
        ['2024-06-07', '8.01', 1235],
      ]);
    });

    it('listAdjustmentFactors: the dates the factor changes, source vendor', async () => {
      const r = await get(h, '/api/v1/equities/600999.SH/adjustment-factors');
      expect(r.status).toBe(200);
      expect(r.body.data).toEqual([
        { instrument_id: '600999.SH', trade_date: '2024-06-03', backward_factor: '2', forward_factor: '0.8', source: 'vendor' },
        { instrument_id: '600999.SH', trade_date: '2024-06-05', backward_factor: '2.5', forward_factor: '1', source: 'vendor' },
      ]);
      const w = await get(h, '/api/v1/equities/600999.SH/adjustment-factors?from=2024-06-04&page[size]=1');
      expect(w.body.data.map((f: any) => [f.trade_date, f.forward_factor])).toEqual([['2024-06-05', '1']]);
    });

    it('a factor that never changes: forward prices and indicators are the raw ones, backward ones raw × 1.208', async () => {
      const none = await walk(h, '/api/v1/equities/600998.SH/bars?interval=1d&adjustment=none', 100);
      expect(none).toHaveLength(6);
      expect(await walk(h, '/api/v1/equities/600998.SH/bars?interval=1d&adjustment=forward', 100)).toEqual(
        none.map((b) => ({ ...b, adjustment: 'forward' })),
      );
      // 10.00×1.208 = 12.08, 10.10×1.208 = 12.2008, 8.33×1.208 = 10.06264; 1000/1.208 = 827.8
      const back = (await walk(h, '/api/v1/equities/600998.SH/bars?interval=1d&adjustment=backward', 100)).map((b) => [b.close, b.volume]);
      expect([back[0], back[1], back[4]]).toEqual([
        ['12.08', 828],
        ['12.20', 829],
        ['10.06', 1022],
      ]);
      const ind = async (adj: string) =>
        (await walk(h, `/api/v1/equities/600998.SH/technical-indicators/macd?interval=1d&adjustment=${adj}`, 100)).map((p) => p.values);
      expect(await ind('forward')).toEqual(await ind('none'));
      const f = (await get(h, '/api/v1/equities/600998.SH/adjustment-factors')).body.data;
      expect(f.map((x: any) => [x.trade_date, x.backward_factor, x.forward_factor])).toEqual([['2024-05-31', '1.208', '1']]);
    });

    it('ingest checks the rows (positive exact decimals, ≤ 16 decimals, trading days, equities or funds) and stores them exactly', async () => {
      const dir = tmp('mds-adj-'),
        path = join(dir, 'adj_factors.csv');
      writeFileSync(
        path,
        [
          HEADERS.adj_factors,
          '600999.SH,2024-06-07,0',
          '600999.SH,2024-06-07,-1',
          '600999.SH,2024-06-07,1e3',
          '600999.SH,2024-06-07,1.00000000000000001',
          '600999.SH,2024-06-08,1',
          '000001.SH,2024-06-07,1',
        ].join('\n') + '\n',
      );
      const r = await ingest(h.store, [{ path, dataset: dataset('adj_factors')! }]);
      expect(r.ok).toBe(false);
      expect(r.errors.map((e) => e.slice(path.length + 1).replace(/ \(in the store.*$/, ''))).toEqual([
        ...[2, 3, 4, 5].map(
          (l) =>
            `${l}:3: adj_factor: expected a positive decimal string with at most 16 decimals (backward ratio factor), got "${['0', '-1', '1e3', '1.00000000000000001'][l - 2]}"`,
        ),
        '6:2: trade_date: expected a trading day of SH',
        '7:1: instrument_id: expected the id (CODE.MARKET) of a known equity or fund: in the store or in this command\'s instruments, got "000001.SH"',
      ]);
      // Stored as canonical decimal text: 2.000 and 2.500 are exported as 2 and 2.5; 16 decimals kept.
      await exportDatasets(h.store, [dataset('adj_factors')!], { dir });
      expect(readFileSync(join(dir, 'adj_factors.csv'), 'utf8').trim().split('\n')).toEqual([
        HEADERS.adj_factors,
        ...days.flatMap((d, i) => (factors[i] ? [`600999.SH,${d},${factors[i].replace(/\.?0+$/, '')}`] : [])),
        ...days.map((d) => `600998.SH,${d},1.208`),
      ]); // in key order: 600999.SH was loaded first
    });

    it('a forward walk stays on its basis when a new factor is loaded mid-walk; a new walk takes it', async () => {
      const first = await get(h, '/api/v1/equities/600999.SH/bars?interval=1d&adjustment=forward&page[size]=3');
      expect(first.body.data.map((b: any) => b.close)).toEqual(['8.00', '8.08', '8.01']);
      // 2024-06-11 factor 5.000: a later event; the latest factor doubles.
      await load(h, file('adj_factors', ['600999.SH,2024-06-11,5.000']));
      const rest = await get(h, first.body.links.next);
      expect(rest.body.data.map((b: any) => b.close)).toEqual(['8.02', '8.33', '8.01']);
      expect((await bars('adjustment=forward')).map((b) => b[1])).toEqual(['4.00', '4.04', '4.00', '4.01', '4.17', '4.01']);
    });
  });

  describe.skipIf(!HAVE_SHARED)(`Vanke 000002.SZ: Sina factors loaded as adj_factors, precedence over its events (${store.name})`, () => {
    const rows = (f: string) =>
      readFileSync(join(SHARED, f), 'utf8')
        .trim()
        .split('\n')
        .slice(1)
        .map((l) => l.split(','));
    // date,open,high,low,close,amount_10k_cny,volume_lots; listed 1991-01-29; zero-volume rows are suspended days.
    const raw = HAVE_SHARED ? rows('ohlcv/hikyuu_sz000002_daily_raw_1991_2011.csv').filter((r) => r[0] >= '1991-01-29') : [];
    const bars = raw
      .filter((r) => r[6] !== '0')
      .map((r) => ({
        date: r[0],
        open: scaled(r[1], 3),
        high: scaled(r[2], 3),
        low: scaled(r[3], 3),
        close: scaled(r[4], 3),
        volume: scaled(r[6], 0) * 100,
        amount: formatScaled(scaled(r[5], 6), 2, 2), // 10k CNY → CNY: ×10^4
      }));
    // Sina hfq factors, newest first in the file; the 1900-01-01 row is a sentinel, not a factor.
    const sina = HAVE_SHARED
      ? rows('adjustments/sina_000002SZ_hfq_factor.csv')
          .filter((r) => r[0] !== '1900-01-01')
          .map(([date, f]) => ({ date, f, num: BigInt(f.replace('.', '')), den: 10n ** BigInt(f.split('.')[1].length) }))
          .sort((a, b) => (a.date < b.date ? -1 : 1))
      : [];
    const hfqAt = (date: string) => sina.filter((s) => s.date <= date).at(-1)!;
    const latest = sina.at(-1)!;
    let h: Harness;

    beforeAll(async () => {
      h = await emptyHarness(await store.url());
      // Trading days: every date of the file from listing (suspended days included) and the Sina ex-dates after it.
      const days = [...new Set([...raw.map((r) => r[0]), ...sina.map((s) => s.date)])].sort();
      const per10 = (s: string, k: number) => formatScaled(scaled(s, k - 1), k, k); // per 10 shares → per share
      const prevDay = (d: string) => raw.filter((r) => r[0] < d).at(-1)![0];
      // ts_code,name,date,bonus/10,rights/10,rights_price,cash/10,transfer/10,…,has_price_event; a rights price
      // without rights shares (2007-09-05, a placement) distributes nothing.
      const events = rows('adjustments/hikyuu_stkweight_events_to_2011.csv').filter(
        (r) => r[0] === '000002.SZ' && r[11] === '1' && [r[3], r[4], r[6], r[7]].some((v) => Number(v) > 0),
      );
      await load(h, {
        ...file('markets', [MARKET('SZ')]),
        ...file(
          'trading_days',
          days.map((d) => `SZ,${d}`),
        ),
        ...file('instruments', ['000002.SZ,equity,main,万科A,,1991-01-29,,,,,,,']),
        ...file(
          'bars_1d',
          bars.map(
            (b) =>
              `000002.SZ,${b.date},${[b.open, b.high, b.low, b.close].map((p) => formatScaled(p, 3, 3)).join(',')},${b.volume},${b.amount}`,
          ),
        ),
        ...file(
          'corporate_actions',
          events.map(
            (r) =>
              `000002.SZ,${r[2]},${prevDay(r[2])},,${prevDay(r[2])},${per10(r[6], 5)},` +
              `${per10(r[3], 6)},${per10(r[7], 6)},${per10(r[4], 6)},${formatScaled(scaled(r[5], 3), 3, 3)}`,
          ),
        ),
      });
    });
    afterAll(async () => {
      await h?.close();
    });

    // 2011-05-27, 10派1 on a 7.90 close: ex-rights reference 7.80, limits 7.80 × (1 ± 10%), whatever the adjustment basis.
    const limits = async () =>
      (await get(h, '/api/v1/equities/000002.SZ/price-limits?date=2011-05-27')).body.data.map((d: any) => [
        d.pre_close,
        d.limit_up,
        d.limit_down,
      ]);
    const closes = async (adj: string) =>
      await walk(h, `/api/v1/equities/000002.SZ/bars?interval=1d&adjustment=${adj}&from=1991-01-01`, 1000);

    it("events only: adjusted by the corporate actions; backward closes differ from Sina's on 1,674 of 4,468 days from 1993-04-05, by ≤ 0.06", async () => {
      const f = (await get(h, '/api/v1/equities/000002.SZ/adjustment-factors?page[size]=100')).body.data;
      expect(f.every((x: any) => x.source === 'corporate_actions')).toBe(true);
      // One factor per Sina ex-date 1994–2011 (the events file has none before 1994).
      expect(f.map((x: any) => x.trade_date)).toEqual(sina.filter((s) => s.date >= '1994' && s.date < '2012').map((s) => s.date));
      const back = await closes('backward');
      expect(back).toHaveLength(bars.length);
      // Sina's hfq rebased to 1 on 1993-04-05 (its last factor before the first event both sources have).
      const base = hfqAt('1993-04-05');
      let differ = 0,
        maxTicks = 0,
        n = 0;
      back.forEach((b, i) => {
        if (b.trade_date < '1993-04-05') {
          expect(b.close, b.trade_date).toBe(px(bars[i].close, 1n, 1n));
          return;
        }
        const s = hfqAt(b.trade_date),
          ticks = Math.abs(scaled(b.close, 2) - scaled(px(bars[i].close, s.num * base.den, s.den * base.num), 2));
        n++;
        if (ticks) differ++;
        maxTicks = Math.max(maxTicks, ticks);
      });
      expect([n, differ, maxTicks]).toEqual([4468, 1674, 6]);
      expect(await limits()).toEqual([['7.80', '8.58', '7.02']]);
    });

    it("with Sina's factors loaded: backward = raw × hfq and forward = raw × hfq / hfq(latest), every day, to the tick", async () => {
      await load(
        h,
        file(
          'adj_factors',
          sina.map((s) => `000002.SZ,${s.date},${s.f}`),
        ),
      );
      const f = (await get(h, '/api/v1/equities/000002.SZ/adjustment-factors?page[size]=100')).body.data;
      expect(f.map((x: any) => [x.trade_date, x.backward_factor, x.source])).toEqual(
        sina.map((s) => [s.date, s.f.replace(/\.?0+$/, ''), 'vendor']),
      );
      const [back, fwd] = [await closes('backward'), await closes('forward')];
      expect(back.map((b) => b.trade_date)).toEqual(bars.map((b) => b.date));
      const bad: string[] = [];
      bars.forEach((b, i) => {
        const s = hfqAt(b.date);
        for (const [k, o] of [
          ['open', b.open],
          ['high', b.high],
          ['low', b.low],
          ['close', b.close],
        ] as const) {
          if (back[i][k] !== px(o, s.num, s.den)) bad.push(`backward ${b.date} ${k} ${back[i][k]}`);
          if (fwd[i][k] !== px(o, s.num * latest.den, s.den * latest.num)) bad.push(`forward ${b.date} ${k} ${fwd[i][k]}`);
        }
        if (back[i].volume !== Number(divRoundHalfUp(BigInt(b.volume) * s.den, s.num))) bad.push(`backward ${b.date} volume`);
      });
      expect(bad).toEqual([]);
      expect(await limits()).toEqual([['7.80', '8.58', '7.02']]); // corporate actions still set the reference price
    });

    it('weekly backward bars aggregate the adjusted days', async () => {
      const weeks = await walk(h, '/api/v1/equities/000002.SZ/bars?interval=1w&adjustment=backward&from=1991-01-01', 1000);
      // Independent: group the expected adjusted days by Monday-based week.
      const week = (d: string) => Math.floor((Date.UTC(+d.slice(0, 4), +d.slice(5, 7) - 1, +d.slice(8, 10)) / 86_400_000 + 3) / 7);
      const expected = new Map<number, { date: string; open: string; high: number; low: number; close: string; volume: number }>();
      for (const b of bars) {
        const s = hfqAt(b.date),
          k = week(b.date),
          hi = scaled(px(b.high, s.num, s.den), 2),
          lo = scaled(px(b.low, s.num, s.den), 2);
        const v = Number(divRoundHalfUp(BigInt(b.volume) * s.den, s.num)),
          w = expected.get(k);
        if (!w)
          expected.set(k, { date: b.date, open: px(b.open, s.num, s.den), high: hi, low: lo, close: px(b.close, s.num, s.den), volume: v });
        else
          Object.assign(w, {
            date: b.date,
            high: Math.max(w.high, hi),
            low: Math.min(w.low, lo),
            close: px(b.close, s.num, s.den),
            volume: w.volume + v,
          });
      }
      expect(weeks.map((w) => [w.trade_date, w.open, w.high, w.low, w.close, w.volume])).toEqual(
        [...expected.values()].map((w) => [w.date, w.open, formatScaled(w.high, 2, 2), formatScaled(w.low, 2, 2), w.close, w.volume]),
      );
    });

    it('MA5 on forward prices equals the mean of the five Sina-adjusted closes', async () => {
      const points = await walk(
        h,
        '/api/v1/equities/000002.SZ/technical-indicators/ma?interval=1d&adjustment=forward&from=1991-01-01',
        1000,
      );
      expect(points).toHaveLength(bars.length);
      const fwd = bars.map((b) => {
        const s = hfqAt(b.date);
        return scaled(px(b.close, s.num * latest.den, s.den * latest.num), 2);
      });
      points.forEach((p, i) => {
        if (i < 4) {
          expect(p.values.ma5).toBeUndefined();
          return;
        }
        const sum = fwd.slice(i - 4, i + 1).reduce((a, c) => a + c, 0); // cents; ÷5 has at most 3 decimals more
        expect(p.values.ma5, p.timestamp).toBe(formatScaled(sum * 20, 4, 4)); // sum/5 cents = sum×20 in 1/10000 CNY
      });
    });
  });
}
