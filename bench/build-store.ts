/**
 * Builds a large benchmark store fast: `equities` equities with `days` daily bars each (ending
 * at `end`), 1m bars for the last `minuteDays` days, a few corporate actions, and the
 * reference tables. Prices follow a bounded random walk on the real calendar (within ±9.9%
 * a day, so within the main-board limits), and quarterly income statements. Not the demo market:
 * no trades, quotes or ST rules.
 */
import { migrate } from '../src/derived/open.js';
import type { Store } from '../src/store/types.js';
import { Rng } from '../src/demo/random.js';
import { MINUTE_LABELS } from '../src/market/sessions.js';
import { CALENDAR_FIRST, tradingDaysBetween } from '../src/market/calendar.js';
import { addDays, marketEpoch } from '../src/lib/time.js';

export interface BenchSize {
  equities: number;
  days: number;
  minuteDays: number;
  end: number;
}

const CHUNK = 50_000;

async function chunked(store: Store, table: any, cols: string[], gen: Iterable<unknown[]>): Promise<number> {
  let buf: unknown[][] = [];
  let n = 0;
  for (const r of gen) {
    buf.push(r);
    if (buf.length === CHUNK) {
      await store.bulkInsert(table, cols, buf);
      n += buf.length;
      buf = [];
    }
  }
  if (buf.length) await store.bulkInsert(table, cols, buf);
  return n + buf.length;
}

function code(i: number): [string, string] {
  const m = i % 5;
  if (m === 0) return [String(600000 + Math.floor(i / 5)), 'SH'];
  if (m === 1) {
    const k = Math.floor(i / 5);
    return [String(k < 1000 ? 688000 + k : 603000 + k), 'SH'];
  }
  if (m === 2) return [String(Math.floor(i / 5)).padStart(6, '0'), 'SZ'];
  if (m === 3) {
    const k = Math.floor(i / 5);
    return [k < 2000 ? String(300000 + k) : String(500 + k).padStart(6, '0'), 'SZ'];
  }
  return [String(830000 + Math.floor(i / 5)), 'BJ'];
}

/**
 * The board of a code of code(), by its prefix: past 15,000 equities its main segment reaches
 * 604xxx and beyond, outside the exchange's ranges that boardOf (market/boards.ts) knows.
 */
const boardOfCode = (c: string, m: string) => (m === 'BJ' ? 'bse' : c.startsWith('688') ? 'star' : c.startsWith('30') ? 'chinext' : 'main');

export async function buildBenchStore(store: Store, size: BenchSize, seed = 42): Promise<Record<string, number>> {
  await migrate(store);
  const rng = Rng.from(seed, 'bench');
  const all = tradingDaysBetween(CALENDAR_FIRST, size.end);
  const days = all.slice(-size.days);
  const counts: Record<string, number> = {};
  // The markets (migration 0008) and their calendars (shipped) are in every store already.
  const ids = Array.from({ length: size.equities }, (_, i) => code(i))
    .map(([c, m]) => `${c}.${m}`)
    .sort();
  const cols = ['inst', 'id', 'kind', 'code', 'market', 'board', 'name', 'name_lc', 'name_en', 'list_date', 'total_shares', 'float_shares'];
  counts.instruments = await chunked(
    store,
    'instruments',
    cols,
    ids.map((id, i) => {
      const [c, m] = id.split('.');
      return [i + 1, id, 'equity', c, m, boardOfCode(c, m), `测试${i}`, `测试${i}`, `Bench ${i}`, 20000104, 1e9, 8e8];
    }),
  );
  const last = new Float64Array(ids.length);
  counts.bars_1d = await chunked(
    store,
    'bars_1d',
    ['inst', 'date', 'open', 'high', 'low', 'close', 'volume', 'amount'],
    (function* () {
      for (let i = 0; i < ids.length; i++) {
        let close = rng.int(300, 20000) * 10;
        for (const d of days) {
          const move = Math.max(-0.099, Math.min(0.099, rng.normal() * 0.02));
          const c = Math.max(10, Math.round((close * (1 + move)) / 10) * 10);
          const o = Math.max(10, Math.round((close * (1 + move * rng.next())) / 10) * 10);
          const hi = Math.max(o, c) + 10 * rng.int(0, 3),
            lo = Math.max(10, Math.min(o, c) - 10 * rng.int(0, 3));
          const vol = rng.int(100, 100_000) * 100;
          yield [i + 1, d, o, hi, lo, c, vol, Math.round((((o + c) / 2) * vol) / 10)];
          close = c;
        }
        last[i] = close;
      }
    })(),
  );
  const mdays = size.minuteDays > 0 ? days.slice(-size.minuteDays) : [];
  counts.bars_1m = await chunked(
    store,
    'bars_1m',
    ['inst', 'ts', 'date', 'open', 'high', 'low', 'close', 'volume', 'amount'],
    (function* () {
      for (let i = 0; i < ids.length; i++) {
        let p = last[i];
        for (const d of mdays) {
          for (const m of MINUTE_LABELS) {
            const c = Math.max(10, p + 10 * rng.int(-2, 2));
            const vol = rng.int(1, 200) * 100;
            yield [i + 1, marketEpoch(d, m), d, p, Math.max(p, c), Math.min(p, c), c, vol, Math.round((c * vol) / 10)];
            p = c;
          }
        }
      }
    })(),
  );
  counts.corporate_actions = await chunked(
    store,
    'corporate_actions',
    [
      'inst',
      'ex_date',
      'record_date',
      'pay_date',
      'announce_date',
      'cash_per_share',
      'bonus_ratio',
      'transfer_ratio',
      'rights_ratio',
      'rights_price',
    ],
    (function* () {
      for (let i = 0; i < ids.length; i += 3) {
        for (let k = 100; k < days.length; k += 250) {
          yield [i + 1, days[k], days[k - 1], days[k], days[k - 20], rng.int(1000, 50_000), 0, rng.chance(0.2) ? 300_000 : 0, 0, 0];
        }
      }
    })(),
  );
  counts.income_statements = await chunked(
    store,
    'income_statements',
    [
      'inst',
      'report_date',
      'report_type',
      'announce_date',
      'revenue',
      'operating_cost',
      'operating_profit',
      'total_profit',
      'income_tax',
      'net_profit',
      'net_profit_attributable',
      'basic_eps',
    ],
    (function* () {
      // Cumulative quarterly statements (q1, h1, q3, annual) from 2014 to the last announced one.
      const types = ['q1', 'h1', 'q3', 'annual'],
        ends = [331, 630, 930, 1231],
        lag = [25, 55, 25, 100];
      for (let i = 0; i < ids.length; i++) {
        const quarterly = rng.int(5_000, 5_000_000) * 100_000; // fen
        for (let y = 2014; y <= Math.floor(size.end / 10000); y++) {
          let revenue = 0;
          for (let q = 0; q < 4; q++) {
            const reportDate = y * 10000 + ends[q],
              announce = addDays(reportDate, lag[q]);
            if (announce > size.end) break;
            revenue += Math.round(quarterly * (0.8 + 0.4 * rng.next()));
            const cost = Math.round(revenue * 0.7),
              profit = revenue - cost,
              tax = Math.round(profit / 4),
              net = profit - tax;
            const attributable = Math.round(net * 0.95);
            yield [
              i + 1,
              reportDate,
              types[q],
              announce,
              revenue,
              cost,
              profit,
              profit,
              tax,
              net,
              attributable,
              Math.round((attributable / 1e9) * 100),
            ];
          }
        }
      }
    })(),
  );
  await store.bulkInsert('meta', ['key', 'value'], [['data_version', `bench-${seed}`]]);
  return counts;
}
