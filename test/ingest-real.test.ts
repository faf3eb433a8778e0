import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { get, HAVE_SHARED, SHARED, STORES, walk, type Harness } from './helpers.js';
import { emptyHarness } from './ingest-helpers.js';
import { loadSharedData } from './shared-data.js';
import { divRoundHalfUp, formatScaled, parseScaled } from '../src/lib/decimal.js';

if (!HAVE_SHARED) console.warn(`${SHARED} is absent: the real-data ingest test is skipped.`);

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
    beforeAll(async () => {
      h = await emptyHarness(await kind.url());
      await loadSharedData(h.store);
    });
    afterAll(async () => { await h?.close(); });

    it('600000.SH daily bars: every open, high, low, close, volume and amount of the TDX file', async () => {
      const src = rows('ohlcv/tdx_sh600000_daily_raw.csv');
      const api = await walk(h, '/api/v1/equities/600000.SH/bars?interval=1d&from=1999-01-01', 1000);
      expect(api).toHaveLength(src.length);
      api.forEach((b, i) => {
        const s = src[i];
        expect([b.trade_date, b.open, b.high, b.low, b.close, b.volume, b.amount])
          .toEqual([s.date, dec(s.open), dec(s.high), dec(s.low), dec(s.close), Number(s.volume_shares), dec(s.amount_cny)]);
      });
    });

    it('000001.SH index daily bars: closes, volumes in shares (lots × 100) and amounts', async () => {
      const src = rows('ohlcv/tdx_sh000001_index_daily.csv');
      const api = await walk(h, '/api/v1/indices/000001.SH/bars?interval=1d&from=1990-01-01', 1000);
      expect(api).toHaveLength(src.length);
      let widened = 0;
      api.forEach((b, i) => {
        const s = src[i];
        expect([b.trade_date, b.open, b.close, b.volume, b.amount]).toEqual([s.date, dec(s.open), dec(s.close), Number(s.volume_lots) * 100, dec(s.amount_cny)]);
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

    it('000001.SH: czsc\'s daily file, loaded first, is TDX\'s on every day (amounts known); czsc\'s minutes served with amount null, no day derived', async () => {
      const czsc = rows('ohlcv/czsc_000001.SH_D.csv').map((s) => s.dt.slice(0, 10));
      const tdx = new Map(rows('ohlcv/tdx_sh000001_index_daily.csv').map((s) => [s.date, s]));
      const api = await walk(h, `/api/v1/indices/000001.SH/bars?interval=1d&from=${czsc[0]}&to=${czsc.at(-1)}`, 1000);
      expect(api.map((b) => [b.trade_date, b.volume, b.amount])).toEqual(czsc.map((d) => [d, Number(tdx.get(d)!.volume_lots) * 100, dec(tdx.get(d)!.amount_cny)]));
      const src = rows('ohlcv/czsc_000001.XSHG_1MIN.csv');
      const mins = await walk(h, '/api/v1/indices/000001.SH/bars?interval=1m&from=2020-07-01', 1000);
      expect(mins.map((b) => [b.timestamp, b.close, b.volume, b.amount]))
        .toEqual(src.map((s) => [`${s.dt.replace(' ', 'T')}+08:00`, dec(s.close), Number(s.vol.replace(/\.0$/, '')), null]));
      // (688001.SH's 12 days, which have no daily file, are derived.)
      const derived = await h.store.select<{ id: string }>('select i.id from bars_1d_derived d join instruments i on i.inst = d.inst', []);
      expect(derived.map((r) => r.id)).toEqual(Array(12).fill('688001.SH'));
    });

    it('688001.SH one-minute bars, and 5m bars equal the TDX 5-minute file', async () => {
      const src = rows('ohlcv/tdx_sh688001_1min.csv');
      const api = await walk(h, '/api/v1/equities/688001.SH/bars?interval=1m&from=2021-01-01', 1000);
      expect(api.map((b) => [b.timestamp, b.close, b.volume, b.amount]))
        .toEqual(src.map((s) => [`${s.date}T${s.time}:00+08:00`, dec(s.close), Number(s.volume_shares), dec(s.amount_cny)]));
      const five = rows('ohlcv/tdx_sh688001_5min.csv');
      const agg = await walk(h, '/api/v1/equities/688001.SH/bars?interval=5m&from=2021-06-01', 1000);
      expect(agg.map((b) => [b.timestamp, b.open, b.high, b.low, b.close, b.volume]))
        .toEqual(five.map((s) => [`${s.date}T${s.time}:00+08:00`, dec(s.open), dec(s.high), dec(s.low), dec(s.close), Number(s.volume_shares)]));
    });

    it('600000.SH corporate actions set the ex-rights reference price (2010-06-10: 10送3派1.5)', async () => {
      const limits = await walk(h, '/api/v1/equities/600000.SH/price-limits?date=2010-06-10', 10);
      const prev = rows('ohlcv/tdx_sh600000_daily_raw.csv').filter((s) => s.date < '2010-06-10').at(-1)!;
      // ref = (Cp − 0.15) / 1.3, rounded half-up to 0.001 (the store's price unit).
      const ref = Number(divRoundHalfUp((BigInt(parseScaled(prev.close, 3)!) - 150n) * 10n, 13n));
      expect(limits[0].pre_close).toBe(formatScaled(ref, 3, 2));
    });
  });
}
