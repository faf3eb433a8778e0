/**
 * The whole market, where a real Tongdaxin folder is at hand (MDS_TDX_VIPDOC: a `vipdoc` folder,
 * docs/ingest.md "Whole market"): its equity files (every MDS_TDX_STRIDE-th, default 12; 1 for
 * the whole folder) loaded by `mds ingest --tdx`, then, on every trading day they cover, the
 * limit-up, limit-down and broken pools and the breadth the API answers are compared with the
 * price-limit rules (market/limits.ts) applied to the files' own records, decoded here; and every
 * 40th fund file's bars (ETFs, LOFs: listFundBars) against its records. Skipped, saying why,
 * without the folder.
 */
import { mkdirSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get, STORES, walk, type Harness } from './helpers.js';
import { emptyHarness, tmp } from './ingest-helpers.js';
import { ingest } from '../src/ingest/load.js';
import { tdxFolder } from '../src/ingest/tdx-folder.js';
import { SHIPPED_CALENDARS } from '../src/market/calendar.js';
import { securityOf } from '../src/market/codes.js';
import { limitPrices, limitRounding, limitRule, listingKind } from '../src/market/limits.js';
import type { BoardId, MarketId } from '../src/market/types.js';

const VIPDOC = process.env.MDS_TDX_VIPDOC ?? '';
const STRIDE = Number(process.env.MDS_TDX_STRIDE ?? 12);
const BSE_OPENED = 20211115;

interface Day {
  date: number;
  high: number;
  low: number;
  close: number;
  volume: number;
}
interface Equity {
  id: string;
  market: MarketId;
  board: BoardId;
  days: Day[];
}

/** A fund's records as decoded from its file: [date, open, high, low, close] in 1/1000 CNY, volume in shares. */
interface Fund {
  id: string;
  rows: [number, number, number, number, number, number][];
}

/**
 * The equity files chosen (and every 40th fund file), as symlinks in a folder of the same layout;
 * their records decoded (prices in 1/1000 CNY; a fund's are thousandths as stored).
 */
function choose(root: string, into: string, funds: Fund[] = []): Equity[] {
  const out: Equity[] = [];
  for (const folder of ['sh', 'sz', 'bj']) {
    const market = folder.toUpperCase() as MarketId;
    const dir = join(root, folder, 'lday');
    let names: string[];
    try {
      names = readdirSync(dir).sort();
    } catch {
      continue;
    }
    const equities = names.filter((n) => securityOf(n.slice(2, 8), market).kind === 'equity');
    mkdirSync(join(into, folder, 'lday'), { recursive: true });
    names
      .filter((n) => securityOf(n.slice(2, 8), market).kind === 'fund')
      .forEach((name, i) => {
        if (i % 40 !== 0) return;
        const b = readFileSync(join(dir, name));
        const rows: Fund['rows'] = [];
        for (let o = 0; o + 32 <= b.length; o += 32) {
          const date = b.readUInt32LE(o);
          if (!SHIPPED_CALENDARS[market].isTradingDay(date)) continue;
          rows.push([date, ...[4, 8, 12, 16].map((k) => b.readUInt32LE(o + k)), b.readUInt32LE(o + 24)] as Fund['rows'][number]);
        }
        if (!rows.length) return;
        symlinkSync(join(dir, name), join(into, folder, 'lday', name));
        funds.push({ id: `${name.slice(2, 8)}.${market}`, rows });
      });
    equities.forEach((name, i) => {
      if (i % STRIDE !== 0) return;
      const b = readFileSync(join(dir, name));
      const days: Day[] = [];
      for (let o = 0; o + 32 <= b.length; o += 32) {
        const date = b.readUInt32LE(o);
        if (market === 'BJ' && date < BSE_OPENED) continue;
        if (!SHIPPED_CALENDARS[market].isTradingDay(date)) continue;
        days.push({
          date,
          high: b.readUInt32LE(o + 8) * 10,
          low: b.readUInt32LE(o + 12) * 10,
          close: b.readUInt32LE(o + 16) * 10,
          volume: b.readUInt32LE(o + 24),
        });
      }
      if (!days.length) return;
      symlinkSync(join(dir, name), join(into, folder, 'lday', name));
      const sec = securityOf(name.slice(2, 8), market);
      out.push({ id: `${name.slice(2, 8)}.${market}`, market, board: (sec as { board: BoardId }).board, days });
    });
  }
  return out;
}

interface Expected {
  limit_up: string[];
  limit_down: string[];
  broken_limit_up: string[];
  breadth: Map<string, Record<string, number>>;
}

/**
 * The rules applied to the files: an equity whose first bar is the folder's first day has an
 * unknown listing date (states from the day after that bar); a later first bar is its listing.
 * The reference is the previous close (a Tongdaxin folder holds no corporate actions).
 */
function expected(equities: Equity[]): Map<number, Expected> {
  const first = new Map<MarketId, number>();
  for (const e of equities) first.set(e.market, Math.min(first.get(e.market) ?? Infinity, e.days[0].date));
  const out = new Map<number, Expected>();
  const at = (d: number) => out.get(d) ?? out.set(d, { limit_up: [], limit_down: [], broken_limit_up: [], breadth: new Map() }).get(d)!;
  for (const e of equities) {
    const cal = SHIPPED_CALENDARS[e.market];
    const f = e.days[0].date;
    const listDate = f > first.get(e.market)! || (e.market === 'BJ' && f === BSE_OPENED) ? f : null;
    const listIdx = listDate === null ? null : cal.indexOnOrAfter(listDate);
    const kind = listingKind(e.market, listDate ?? 0, null);
    const byDate = new Map(e.days.map((d) => [d.date, d]));
    let pre: number | null = null;
    for (const date of cal.between(f, e.days[e.days.length - 1].date)) {
      const bar = byDate.get(date);
      const started = listDate !== null || date > f;
      if (started) {
        const idx = listIdx === null ? Number.MAX_SAFE_INTEGER : cal.ordinal(date)! - listIdx;
        const rule = limitRule({
          board: e.board,
          market: e.market,
          st: false,
          date,
          listDate: listDate ?? 0,
          tradingDayIndexSinceListing: idx,
          listingKind: kind,
        });
        const lim =
          pre !== null && rule.ratioPct !== null ? limitPrices(pre, rule.ratioPct, undefined, limitRounding(e.market, date)) : null;
        const x = at(date);
        const b = x.breadth.get(e.market) ?? {
          listed: 0,
          advancers: 0,
          decliners: 0,
          unchanged: 0,
          limit_up: 0,
          limit_down: 0,
          suspended: 0,
        };
        x.breadth.set(e.market, b);
        b.listed++;
        if (!bar) b.suspended++;
        else {
          if (pre !== null) {
            if (bar.close > pre) b.advancers++;
            else if (bar.close < pre) b.decliners++;
            else b.unchanged++;
          }
          // A close beyond a limit is a limit move only at the day's extreme (else the reference is in doubt).
          if (lim && (bar.close === lim.up || (bar.close > lim.up && bar.close === bar.high))) {
            x.limit_up.push(e.id);
            b.limit_up++;
          }
          if (lim && (bar.close === lim.down || (bar.close < lim.down && bar.close === bar.low))) {
            x.limit_down.push(e.id);
            b.limit_down++;
          }
          if (lim && bar.high >= lim.up && bar.close < lim.up) x.broken_limit_up.push(e.id);
        }
      }
      if (bar) pre = bar.close;
    }
  }
  return out;
}

for (const store of STORES)
  describe.skipIf(!VIPDOC)(`the whole market from a Tongdaxin folder (${store.name})`, () => {
    let h: Harness;
    let want: Map<number, Expected>;
    const funds: Fund[] = [];
    beforeAll(async () => {
      const dir = tmp('mds-whole-market-');
      const equities = choose(VIPDOC, join(dir, 'vipdoc'), funds);
      want = expected(equities);
      h = await emptyHarness(await store.url());
      const r = await ingest(h.store, tdxFolder(join(dir, 'vipdoc')).files);
      expect(r.errors).toEqual([]);
    }, 1_800_000);
    afterAll(async () => {
      await h?.close();
    });

    it('answers on every day the pools and the breadth that the rules give from the files', async () => {
      const iso = (d: number) => `${String(d).slice(0, 4)}-${String(d).slice(4, 6)}-${String(d).slice(6)}`;
      let members = 0;
      for (const [date, x] of [...want].sort((a, b) => a[0] - b[0])) {
        for (const pool of ['limit_up', 'limit_down', 'broken_limit_up'] as const) {
          const got = (await walk(h, `/api/v1/equities/pools/${pool}?date=${iso(date)}`, 1000)).map((m) => m.instrument_id);
          expect(got, `${pool} ${date}`).toEqual([...x[pool]].sort());
          members += got.length;
        }
        for (const [market, b] of x.breadth) {
          const [row] = (await get(h, `/api/v1/markets/${market}/breadth?date=${iso(date)}`)).body.data;
          expect(row, `${market} ${date}`).toMatchObject(b);
        }
      }
      expect(want.size).toBeGreaterThan(1000);
      expect(members).toBeGreaterThan(0);
    }, 1_800_000);

    it("serves each fund's daily bars as its file holds them (thousandths of CNY, shares)", async () => {
      expect(funds.length).toBeGreaterThan(5);
      const milli = (v: number) => `${Math.floor(v / 1000)}.${String(v % 1000).padStart(3, '0')}`;
      for (const f of funds) {
        const bars = await walk(h, `/api/v1/funds/${f.id}/bars?interval=1d&from=1990-01-01`, 1000);
        expect(
          bars.map((b) => [b.trade_date, b.open, b.high, b.low, b.close, b.volume]),
          f.id,
        ).toEqual(
          f.rows.map(([d, o, hi, l, c, v]) => [
            `${String(d).slice(0, 4)}-${String(d).slice(4, 6)}-${String(d).slice(6)}`,
            ...[o, hi, l, c].map(milli),
            v,
          ]),
        );
      }
    });
  });

if (!VIPDOC)
  console.warn('whole-market.test: MDS_TDX_VIPDOC is not set (a Tongdaxin vipdoc folder, docs/ingest.md "Whole market"); skipped');
