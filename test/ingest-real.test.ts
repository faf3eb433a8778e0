import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { get, HAVE_SHARED, SHARED, STORES, walk, type Harness } from './helpers.js';
import { emptyHarness } from './ingest-helpers.js';
import { loadSharedData, TDX_DAY_FILES, tdxDayRecords } from './shared-data.js';
import type { IngestResult } from '../src/ingest/load.js';
import { divRoundHalfUp, formatScaled, parseScaled } from '../src/lib/decimal.js';

if (!HAVE_SHARED) console.warn(`${SHARED} is absent: the real-data ingest test is skipped.`);

const iso = (yyyymmdd: string) => `${yyyymmdd.slice(0, 4)}-${yyyymmdd.slice(4, 6)}-${yyyymmdd.slice(6, 8)}`;
/** The SSE/SZSE calendar from akshare. */
const CALENDAR = HAVE_SHARED
  ? (JSON.parse(readFileSync(join(SHARED, 'calendar/akshare_trade_calendar.json'), 'utf8')) as string[]).map(iso)
  : [];
const rows = (file: string) => {
  const [head, ...lines] = readFileSync(join(SHARED, file), 'utf8').trim().split(/\r?\n/);
  const names = head.split(',');
  return lines.map((l) => Object.fromEntries(l.split(',').map((v, i) => [names[i], v])) as Record<string, string>);
};
/** A source decimal as the API renders it at `digits` (exact; the source is already at that precision). */
const dec = (s: string, digits = 2) => formatScaled(parseScaled(s, digits)!, digits, digits);
/** Source rows whose open or close lies outside their own high-low range (ingest widens high/low on them). */
const outside = (s: Record<string, string>) => {
  const [o, h, l, c] = [s.open, s.high, s.low, s.close].map(Number);
  return Math.max(o, c) > h || Math.min(o, c) < l;
};

for (const kind of STORES) {
  describe.skipIf(!HAVE_SHARED)(`shared/data ingested by the vendor formats into an empty ${kind.name} store, served unchanged`, () => {
    let h: Harness;
    let loads: IngestResult[];
    beforeAll(async () => {
      h = await emptyHarness(await kind.url());
      loads = await loadSharedData(h.store);
    }, 300_000);
    afterAll(async () => {
      await h?.close();
    });

    it('600000.SH daily bars: every open, high, low, close, volume and amount of the TDX file', async () => {
      const src = rows('ohlcv/tdx_sh600000_daily_raw.csv');
      const api = await walk(h, '/api/v1/equities/600000.SH/bars?interval=1d&from=1999-01-01', 1000);
      expect(api).toHaveLength(src.length);
      api.forEach((b, i) => {
        const s = src[i];
        expect([b.trade_date, b.open, b.high, b.low, b.close, b.volume, b.amount]).toEqual([
          s.date,
          dec(s.open),
          dec(s.high),
          dec(s.low),
          dec(s.close),
          Number(s.volume_shares),
          dec(s.amount_cny),
        ]);
      });
    });

    it('000001.SH index daily bars: closes, volumes in shares (lots × 100) and amounts', async () => {
      const src = rows('ohlcv/tdx_sh000001_index_daily.csv');
      const api = await walk(h, '/api/v1/indices/000001.SH/bars?interval=1d&from=1990-01-01', 1000);
      expect(api).toHaveLength(src.length);
      let widened = 0;
      api.forEach((b, i) => {
        const s = src[i];
        expect([b.trade_date, b.open, b.close, b.volume, b.amount]).toEqual([
          s.date,
          dec(s.open),
          dec(s.close),
          Number(s.volume_lots) * 100,
          dec(s.amount_cny),
        ]);
        if (!outside(s)) expect([b.high, b.low]).toEqual([dec(s.high), dec(s.low)]);
        else widened++;
      });
      expect(widened).toBeGreaterThan(0);
      expect(widened).toBeLessThan(20);
      const days = await walk(h, '/api/v1/markets/SH/trading-days?from=1990-12-19&to=2025-08-05', 1000);
      expect(days.map((d) => d.date)).toEqual(src.map((s) => s.date));
      // A year of index turnover passes 2^53 fen: the yearly bar's amount stays exact.
      const fen = (x: string) => BigInt(x.replace('.', ''));
      const y2021 = (await get(h, '/api/v1/indices/000001.SH/bars?interval=1y&date=2021-06-30')).body.data[0];
      const sum = api.filter((b) => b.trade_date.startsWith('2021')).reduce((t, b) => t + fen(b.amount), 0n);
      expect(sum > 2n ** 53n).toBe(true);
      expect(fen(y2021.amount)).toBe(sum);
    });

    it("000001.SH: czsc's daily file, loaded first, is TDX's on every day (amounts known); czsc's minutes served with amount null, no day derived", async () => {
      const czsc = rows('ohlcv/czsc_000001.SH_D.csv').map((s) => s.dt.slice(0, 10));
      const tdx = new Map(rows('ohlcv/tdx_sh000001_index_daily.csv').map((s) => [s.date, s]));
      const api = await walk(h, `/api/v1/indices/000001.SH/bars?interval=1d&from=${czsc[0]}&to=${czsc.at(-1)}`, 1000);
      expect(api.map((b) => [b.trade_date, b.volume, b.amount])).toEqual(
        czsc.map((d) => [d, Number(tdx.get(d)!.volume_lots) * 100, dec(tdx.get(d)!.amount_cny)]),
      );
      const src = rows('ohlcv/czsc_000001.XSHG_1MIN.csv');
      const mins = await walk(h, '/api/v1/indices/000001.SH/bars?interval=1m&from=2020-07-01', 1000);
      expect(mins.map((b) => [b.timestamp, b.close, b.volume, b.amount])).toEqual(
        src.map((s) => [`${s.dt.replace(' ', 'T')}+08:00`, dec(s.close), Number(s.vol.replace(/\.0$/, '')), null]),
      );
      // (688001.SH's 12 days, which have no daily file, are derived.)
      const derived = await h.store.select<{ id: string }>('select i.id from bars_1d_derived d join instruments i on i.inst = d.inst', []);
      expect(derived.map((r) => r.id)).toEqual(Array(12).fill('688001.SH'));
    });

    it('688001.SH one-minute bars, and 5m bars equal the TDX 5-minute file', async () => {
      const src = rows('ohlcv/tdx_sh688001_1min.csv');
      const api = await walk(h, '/api/v1/equities/688001.SH/bars?interval=1m&from=2021-01-01', 1000);
      expect(api.map((b) => [b.timestamp, b.close, b.volume, b.amount])).toEqual(
        src.map((s) => [`${s.date}T${s.time}:00+08:00`, dec(s.close), Number(s.volume_shares), dec(s.amount_cny)]),
      );
      const five = rows('ohlcv/tdx_sh688001_5min.csv');
      const agg = await walk(h, '/api/v1/equities/688001.SH/bars?interval=5m&from=2021-06-01', 1000);
      expect(agg.map((b) => [b.timestamp, b.open, b.high, b.low, b.close, b.volume])).toEqual(
        five.map((s) => [`${s.date}T${s.time}:00+08:00`, dec(s.open), dec(s.high), dec(s.low), dec(s.close), Number(s.volume_shares)]),
      );
    });

    it('600519.SH and 000300.SH (TDX, 2015–2023): every open, high, low, close, volume and amount of the CSVs; 000001.SZ to 2023-02-24', async () => {
      for (const [id, path, file, lots] of [
        ['600519.SH', 'equities', 'ohlcv/tdx_sh600519_daily_raw_2015_2023.csv', false],
        ['000300.SH', 'indices', 'ohlcv/tdx_sh000300_index_daily_2015_2023.csv', true],
      ] as const) {
        const src = rows(file);
        const api = await walk(h, `/api/v1/${path}/${id}/bars?interval=1d&from=2015-01-01`, 1000);
        expect(
          api.map((b) => [b.trade_date, b.open, b.high, b.low, b.close, b.volume, b.amount]),
          id,
        ).toEqual(
          src.map((s) => [
            s.date,
            dec(s.open),
            dec(s.high),
            dec(s.low),
            dec(s.close),
            lots ? Number(s.volume_lots) * 100 : Number(s.volume_shares),
            dec(s.amount_cny),
          ]),
        );
      }
      expect(rows('ohlcv/tdx_sh000300_index_daily_2015_2023.csv').at(-1)).toMatchObject({ date: '2023-02-24', close: '4061.05' });
      const last = (await get(h, '/api/v1/equities/000001.SZ/bars?interval=1d&date=2023-02-24')).body.data;
      const day = tdxDayRecords('ohlcv/tdx_day/sz000001.day').at(-1)!;
      expect(last.map((b: { close: string }) => b.close)).toEqual([formatScaled(day.close, 2, 2)]);
    });

    it('the .day binaries decode to exactly the rows of the matching CSVs: loaded after them they change nothing', () => {
      const day = (file: string) => tdxDayRecords(file).map((r) => ({ ...r, amount: String(r.amount) }));
      const fromCsv = (file: string) =>
        rows(file).map((s) => ({
          date: s.date,
          open: Number(parseScaled(s.open, 2)),
          high: Number(parseScaled(s.high, 2)),
          low: Number(parseScaled(s.low, 2)),
          close: Number(parseScaled(s.close, 2)),
          amount: s.amount_cny,
          volume: Number(s.volume_shares ?? s.volume_lots),
        }));
      // Decoded here from the bytes (32-byte records), independently of the layout.
      expect(day('ohlcv/tdx_day/sh600519.day')).toEqual(fromCsv('ohlcv/tdx_sh600519_daily_raw_2015_2023.csv'));
      expect(day('ohlcv/tdx_day/sh000300.day')).toEqual(fromCsv('ohlcv/tdx_sh000300_index_daily_2015_2023.csv'));
      // sz000001.day equals mootdx's copy on its 1,384 common days (ohlcv/README.md).
      const mootdx = new Map(fromCsv('ohlcv/tdx_sz000001_daily_raw.csv').map((r) => [r.date, r]));
      const common = day('ohlcv/tdx_day/sz000001.day').filter((r) => mootdx.has(r.date));
      expect(common.length).toBe(1384);
      expect(common).toEqual(common.map((r) => mootdx.get(r.date)));
      // And as --format tdx-day loads them, after the CSVs: nothing changes but sz000001.day's 433 later days.
      const files = loads.flatMap((r) => r.files).filter((f) => f.path.endsWith('.day'));
      expect(files.map((f) => [f.path.slice(SHARED.length), f.rows, f.inserted, f.updated, f.unchanged])).toEqual(
        TDX_DAY_FILES.map((f) => [f, 1817, f.endsWith('sz000001.day') ? 433 : 0, 0, f.endsWith('sz000001.day') ? 1384 : 1817]),
      );
    });

    it('the suspension runs of reference/ are the gaps of the stored bars (no bar inside a run, bars either side)', async () => {
      const runs = rows('reference/derived_suspension_runs_from_vendor_bars.csv');
      expect(runs.length).toBe(191);
      const stored = new Map<string, Set<string>>();
      for (const id of new Set(runs.map((r) => r.ts_code))) {
        stored.set(
          id,
          new Set((await walk(h, `/api/v1/equities/${id}/bars?interval=1d&from=1990-01-01`, 1000)).map((b) => b.trade_date as string)),
        );
      }
      let checked = 0;
      for (const r of runs) {
        const have = stored.get(r.ts_code)!;
        const inside = CALENDAR.filter((d) => d >= r.first_missing_date && d <= r.last_missing_date);
        expect(inside.length, `${r.ts_code} ${r.first_missing_date}`).toBe(Number(r.trading_days));
        expect(
          inside.filter((d) => have.has(d)),
          `${r.ts_code} ${r.first_missing_date}`,
        ).toEqual([]);
        expect(have.has(r.last_trade_date_before), `${r.ts_code} before ${r.first_missing_date}`).toBe(true);
        if (r.resume_date <= r.source_covers_to) expect(have.has(r.resume_date), `${r.ts_code} resumes ${r.resume_date}`).toBe(true);
        checked++;
      }
      expect(checked).toBe(191);
      // listSuspensions derives the same runs from the stored bars (no suspension file loaded): each run is one of them.
      for (const id of new Set(runs.map((r) => r.ts_code))) {
        const derived = await walk(h, `/api/v1/equities/${id}/suspensions`, 1000);
        expect(new Set(derived.map((s) => s.source)), id).toEqual(new Set(['derived']));
        const byStart = new Map(derived.map((s) => [s.start_date, s]));
        for (const r of runs.filter((x) => x.ts_code === id)) {
          const s = byStart.get(r.first_missing_date);
          expect(s && [s.end_date, s.resume_date], `${id} ${r.first_missing_date}`).toEqual([r.last_missing_date, r.resume_date]);
        }
      }
      // Price limits mark the days of a run suspended: 000001.SZ 2010-06-30 … 2010-09-01 (46 days).
      const limits = await walk(h, '/api/v1/equities/000001.SZ/price-limits?from=2010-06-29&to=2010-09-02', 100);
      expect(limits.filter((l) => l.suspended).map((l) => l.trade_date)).toEqual(
        CALENDAR.filter((d) => d >= '2010-06-30' && d <= '2010-09-01'),
      );
      expect(limits.filter((l) => l.suspended).length).toBe(46);
    });

    it('CSI 300 members: the four loaded equities that both undated lists hold are instruments of the store', async () => {
      const hikyuu = new Set(rows('reference/hikyuu_zsbk_hs300_constituents_undated.csv').map((r) => r.ts_code));
      const tdx = new Set(rows('reference/tdx_block_zs_hs300_constituents_undated.csv').map((r) => r.ts_code));
      expect([hikyuu.size, tdx.size, [...hikyuu].filter((id) => tdx.has(id)).length]).toEqual([300, 300, 175]);
      const equities = (await walk(h, '/api/v1/equities', 100)).map((e) => e.id as string);
      const members = equities.filter((id) => hikyuu.has(id) && tdx.has(id)).sort();
      expect(members).toEqual(['000001.SZ', '000002.SZ', '600000.SH', '600519.SH']);
      expect((await get(h, '/api/v1/indices/000300.SH')).body.data).toMatchObject({ id: '000300.SH', name: '沪深300' });
    });

    it('600000.SH corporate actions set the ex-rights reference price (2010-06-10: 10送3派1.5)', async () => {
      const limits = await walk(h, '/api/v1/equities/600000.SH/price-limits?date=2010-06-10', 10);
      const prev = rows('ohlcv/tdx_sh600000_daily_raw.csv')
        .filter((s) => s.date < '2010-06-10')
        .at(-1)!;
      // ref = (Cp − 0.15) / 1.3, rounded half-up to 0.001 (the store's price unit).
      const ref = Number(divRoundHalfUp((BigInt(parseScaled(prev.close, 3)!) - 150n) * 10n, 13n));
      expect(limits[0].pre_close).toBe(formatScaled(ref, 3, 2));
    });
  });
}
