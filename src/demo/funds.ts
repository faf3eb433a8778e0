/**
 * Exchange-traded funds of the demo: each tracks one demo index at a constant ratio with a small
 * AR(1) premium, 0.001 ticks and ±10% limits (±20% for funds on ChiNext or STAR indices, as the
 * exchanges set them since 2020); minute bars follow the index's minute bars.
 */
import type { MarketId } from '../market/types.js';
import { limitPrices } from '../market/limits.js';
import type { Rng } from './random.js';
import type { DayBar, MinuteBar } from './model.js';
import type { IndexSeries } from './levels.js';
import { MIN_DAILY_VOLUME, MIN_LOTS, splitLots } from './intraday.js';

export interface FundDef {
  code: string;
  market: MarketId;
  name: string;
  nameEn: string;
  type: 'etf' | 'lof';
  /** Underlying index id and price = level × ratio (before the premium). */
  underlying: string;
  ratio: number;
  listDate: number;
}

export const FUND_DEFS: readonly FundDef[] = [
  {
    code: '510050',
    market: 'SH',
    name: '上证50ETF',
    nameEn: 'SSE 50 ETF',
    type: 'etf',
    underlying: '000016.SH',
    ratio: 1 / 1000,
    listDate: 20050223,
  },
  {
    code: '510210',
    market: 'SH',
    name: '上证指数ETF',
    nameEn: 'SSE Composite ETF',
    type: 'etf',
    underlying: '000001.SH',
    ratio: 1 / 3000,
    listDate: 20110909,
  },
  {
    code: '510300',
    market: 'SH',
    name: '沪深300ETF',
    nameEn: 'CSI 300 ETF',
    type: 'etf',
    underlying: '000300.SH',
    ratio: 1.02 / 1000,
    listDate: 20120528,
  },
  {
    code: '510500',
    market: 'SH',
    name: '中证500ETF',
    nameEn: 'CSI 500 ETF',
    type: 'etf',
    underlying: '000905.SH',
    ratio: 1 / 1000,
    listDate: 20130315,
  },
  {
    code: '512100',
    market: 'SH',
    name: '中证1000ETF',
    nameEn: 'CSI 1000 ETF',
    type: 'etf',
    underlying: '000852.SH',
    ratio: 1 / 2600,
    listDate: 20161104,
  },
  {
    code: '588000',
    market: 'SH',
    name: '科创50ETF',
    nameEn: 'STAR 50 ETF',
    type: 'etf',
    underlying: '000688.SH',
    ratio: 1 / 1000,
    listDate: 20201116,
  },
  {
    code: '159845',
    market: 'SZ',
    name: '1000ETF',
    nameEn: 'CSI 1000 ETF (SZ)',
    type: 'etf',
    underlying: '000852.SH',
    ratio: 1 / 3000,
    listDate: 20210315,
  },
  {
    code: '159901',
    market: 'SZ',
    name: '深证100ETF',
    nameEn: 'SZSE 100 ETF',
    type: 'etf',
    underlying: '399330.SZ',
    ratio: 1 / 2200,
    listDate: 20060424,
  },
  {
    code: '159915',
    market: 'SZ',
    name: '创业板ETF',
    nameEn: 'ChiNext ETF',
    type: 'etf',
    underlying: '399006.SZ',
    ratio: 1 / 1000,
    listDate: 20111209,
  },
  {
    code: '159919',
    market: 'SZ',
    name: '300ETF',
    nameEn: 'CSI 300 ETF (SZ)',
    type: 'etf',
    underlying: '000300.SH',
    ratio: 1.03 / 1000,
    listDate: 20120528,
  },
  {
    code: '159943',
    market: 'SZ',
    name: '深证成指ETF',
    nameEn: 'SZSE Component ETF',
    type: 'etf',
    underlying: '399001.SZ',
    ratio: 1 / 10000,
    listDate: 20150320,
  },
  {
    code: '159949',
    market: 'SZ',
    name: '创业板50',
    nameEn: 'ChiNext 50 ETF',
    type: 'etf',
    underlying: '399006.SZ',
    ratio: 1 / 2000,
    listDate: 20160722,
  },
  {
    code: '160119',
    market: 'SZ',
    name: '中证500LOF',
    nameEn: 'CSI 500 LOF',
    type: 'lof',
    underlying: '000905.SH',
    ratio: 1 / 3000,
    listDate: 20090203,
  },
];

export interface FundSeries {
  daily: (DayBar | null)[];
  minutes: Map<number, MinuteBar[]>;
  units: number;
}

const TICK = 1;
/** Indices of ChiNext / STAR stocks only: funds tracking them share those boards' 20% limit. */
const GROWTH_BOARD_INDICES = new Set(['399006.SZ', '000688.SH']);

/** Daily and minute bars of one fund from its underlying index series. */
export function simulateFund(r: Rng, def: FundDef, idx: IndexSeries, days: number[]): FundSeries {
  const units = Math.round(Math.exp(Math.log(8e9) + 0.8 * r.normal()) / 10_000) * 10_000;
  const turnover = r.uniform(0.01, 0.04);
  const daily: (DayBar | null)[] = new Array(days.length).fill(null);
  const minutes = new Map<number, MinuteBar[]>();
  let prem = 0,
    prev: number | null = null;
  for (let i = 0; i < days.length; i++) {
    const ib = idx.daily[i];
    if (ib === null || days[i] < def.listDate) continue;
    prem = 0.7 * prem + 0.0008 * r.normal();
    const k = def.ratio * (1 + prem);
    const ref = prev ?? Math.max(TICK, Math.round(ib.ref * k));
    const { up, down } = limitPrices(ref, GROWTH_BOARD_INDICES.has(def.underlying) ? 20 : 10, TICK);
    const px = (level: number) => Math.min(up, Math.max(down, Math.round(level * k)));
    const volume = Math.max(MIN_DAILY_VOLUME, Math.floor((units * turnover * Math.exp(0.4 * r.normal())) / 100) * 100);
    const im = idx.minutes.get(days[i]);
    let bar: DayBar;
    if (im) {
      const lots = volume / 100,
        cont = im.length - 1;
      const auction = Math.max(1, Math.min(lots - MIN_LOTS * cont, Math.round(lots * r.uniform(0.005, 0.02))));
      const vols = splitLots(
        lots - auction,
        im.slice(1).map(() => 0.3 + r.next()),
        MIN_LOTS,
      );
      const mins = im.map((m, j): MinuteBar => {
        const v = (j === 0 ? auction : vols[j - 1]) * 100;
        const o = px(m.open),
          h = px(m.high),
          l = px(m.low),
          c = px(m.close);
        return {
          ts: m.ts,
          label: m.label,
          open: o,
          high: h,
          low: l,
          close: c,
          volume: v,
          amount: Math.round((((o + h + l + c) / 4) * v) / 10),
        };
      });
      minutes.set(days[i], mins);
      bar = {
        date: days[i],
        open: mins[0].open,
        high: Math.max(...mins.map((m) => m.high)),
        low: Math.min(...mins.map((m) => m.low)),
        close: mins[mins.length - 1].close,
        volume,
        amount: 0,
        ref,
        up,
        down,
      };
    } else {
      const o = px(ib.open),
        h = px(ib.high),
        l = px(ib.low),
        c = px(ib.close);
      bar = {
        date: days[i],
        open: o,
        high: h,
        low: l,
        close: c,
        volume,
        amount: Math.round((((o + h + l + 2 * c) / 5) * volume) / 10),
        ref,
        up,
        down,
      };
    }
    daily[i] = bar;
    prev = bar.close;
  }
  return { daily, minutes, units };
}
