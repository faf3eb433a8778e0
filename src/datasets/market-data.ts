/** Market-data datasets: daily and minute bars, quotes, trades, corporate actions, adjustment factors. */
import { epochToMarketDate, MARKET_OFFSET_SECONDS } from '../lib/time.js';
import { minuteIndex } from '../market/sessions.js';
import { date, instrument, int, oneOf, positiveDecimalText, timestamp } from './columns.js';
import { all, col, ohlcCheck, orderCheck, type Ix, type Problem, type Row } from './dataset.js';
import type { DatasetDef } from './dataset.js';
import type { RowContext } from './context.js';
import { AMOUNT, BAR_AMOUNT, CASH_PER_SHARE, PRICE, PRICE0, SHARE_RATIO, SHARES } from './units.js';

let memoDay = NaN,
  memoDate = 0;
/** epochToMarketDate, remembering the last day (rows come in runs of one day). */
function marketDate(ts: number): number {
  const day = Math.floor((ts + MARKET_OFFSET_SECONDS) / 86400);
  if (day !== memoDay) {
    memoDay = day;
    memoDate = epochToMarketDate(ts);
  }
  return memoDate;
}

const INST = col('instrument_id', instrument(), 'a known instrument (equity, index or fund)', { column: 'inst' });
const OHLCV = [
  col('open', PRICE, 'CNY (index points for indices)'),
  col('high', PRICE, 'CNY'),
  col('low', PRICE, 'CNY'),
  col('close', PRICE, 'CNY'),
  col('volume', SHARES, 'shares (not lots of 100)'),
  col('amount', BAR_AMOUNT, 'turnover, CNY; empty when unknown (the source has none), served as null', { optional: true }),
];
const OHLC = { open: 'open', high: 'high', low: 'low', close: 'close' };

/** The trading day `d` of the row's instrument is in the calendar (store or this command). */
function tradingDay(ix: Ix, dateCol: string, reportAt = dateCol, fromTs = false) {
  const i = ix.instrument_id,
    d = ix[dateCol];
  return (r: Row, ctx: RowContext): Problem | null => {
    const market = ctx.marketOf(r[i] as number);
    const day = fromTs ? marketDate(r[d] as number) : (r[d] as number);
    return ctx.isTradingDay(market, day)
      ? null
      : [reportAt, `expected a trading day of ${market} (in the store or in this command's trading_days)`];
  };
}

/** A 1m bar ends on a whole minute in 09:30..11:30 or 13:01..15:00 market time: a bar label (market/sessions.ts). */
function minuteCheck(ix: Ix) {
  const t = ix.timestamp;
  return (r: Row): Problem | null => {
    const local = (r[t] as number) + MARKET_OFFSET_SECONDS;
    const sec = ((local % 86400) + 86400) % 86400;
    return sec % 60 === 0 && minuteIndex(sec / 60) >= 0
      ? null
      : ['timestamp', 'expected the end of a 1m bar: a whole minute within 09:30-11:30 or 13:01-15:00 market time'];
  };
}

const dateOfTs = (ix: Ix) => (r: Row) => [marketDate(r[ix.timestamp] as number)];

export const bars1d: DatasetDef = {
  name: 'bars_1d',
  table: 'bars_1d',
  doc: 'Daily bars, unadjusted. Suspended days have no row.',
  columns: [INST, col('trade_date', date, 'trading day', { column: 'date' }), ...OHLCV],
  key: ['instrument_id', 'trade_date'],
  // Derived bars (derived/derived-daily.ts) are not exported: loading the 1m bars derives them again.
  check: (ix) => all(ohlcCheck(ix, OHLC), tradingDay(ix, 'trade_date')),
};

export const bars1m: DatasetDef = {
  name: 'bars_1m',
  table: 'bars_1m',
  doc:
    'One-minute bars, unadjusted, labelled by their end: 241 a day (09:30 opening auction, 09:31..11:30, 13:01..15:00) ' +
    'or the 240-bar vendor convention (auction folded into 09:31).',
  columns: [INST, col('timestamp', timestamp, 'end of the bar', { column: 'ts' }), ...OHLCV],
  key: ['instrument_id', 'timestamp'],
  check: (ix) => all(minuteCheck(ix), ohlcCheck(ix, OHLC), tradingDay(ix, 'timestamp', 'timestamp', true)),
  derived: { columns: ['date'], doc: 'date (trading day of timestamp)', values: dateOfTs },
};

const LEVELS = [1, 2, 3, 4, 5];
const book = (side: 'bid' | 'ask') =>
  LEVELS.flatMap(
    (l) =>
      [
        [`${side}_p${l}`, col(`${side}_p${l}`, PRICE, `${side} price, level ${l} (empty: no level)`, { optional: true })],
        [`${side}_v${l}`, col(`${side}_v${l}`, int(1, 'shares'), `${side} volume, level ${l}`, { optional: true })],
      ] as const,
  );
const bookCols = (kind: 'p' | 'v') => [...book('bid'), ...book('ask')].filter(([n]) => n[4] === kind).map(([, c]) => c);

/** Levels come in price/volume pairs, without gaps, bids descending and asks ascending. */
function bookCheck(ix: Ix) {
  return (r: Row): Problem | null => {
    for (const side of ['bid', 'ask'] as const) {
      let prev: number | null = null,
        ended = false;
      for (const l of LEVELS) {
        const p = r[ix[`${side}_p${l}`]] as number | null,
          v = r[ix[`${side}_v${l}`]] as number | null;
        if ((p === null) !== (v === null))
          return [`${side}_${p === null ? 'p' : 'v'}${l}`, `expected ${side}_p${l} and ${side}_v${l} both present or both empty`];
        if (p === null) {
          ended = true;
          continue;
        }
        if (ended) return [`${side}_p${l}`, `expected no level ${l} after an empty level`];
        if (prev !== null && (side === 'bid' ? p >= prev : p <= prev))
          return [`${side}_p${l}`, `expected ${side} prices ${side === 'bid' ? 'descending' : 'ascending'} by level`];
        prev = p;
      }
    }
    return null;
  };
}

function quoteRange(ix: Ix) {
  return (r: Row): Problem | null => {
    if (r[ix.volume] === 0) return null;
    const low = r[ix.low] as number,
      high = r[ix.high] as number;
    for (const c of ['last', 'open']) {
      const v = r[ix[c]] as number;
      if (v < low || v > high) return [c, `expected low <= ${c} <= high once the day has traded`];
    }
    return low <= 0 ? ['low', 'expected a price > 0 once the day has traded'] : null;
  };
}

export const quotes: DatasetDef = {
  name: 'quotes',
  table: 'quotes',
  doc: 'Quote snapshots: last price, the day so far, cumulative volume and amount, up to five book levels a side.',
  columns: [
    INST,
    col('timestamp', timestamp, 'snapshot time', { column: 'ts' }),
    col('last', PRICE0, 'last price, CNY'),
    col('open', PRICE0, "the day's open so far"),
    col('high', PRICE0, "the day's high so far"),
    col('low', PRICE0, "the day's low so far"),
    col('pre_close', PRICE, 'previous close (ex-rights reference)'),
    col('volume', SHARES, 'cumulative shares'),
    col('amount', AMOUNT, 'cumulative turnover, CNY'),
    ...bookCols('p').slice(0, 5),
    ...bookCols('v').slice(0, 5),
    ...bookCols('p').slice(5),
    ...bookCols('v').slice(5),
  ],
  key: ['instrument_id', 'timestamp'],
  check: (ix) => all(quoteRange(ix), bookCheck(ix), tradingDay(ix, 'timestamp', 'timestamp', true)),
  derived: { columns: ['date'], doc: 'date (trading day of timestamp)', values: dateOfTs },
};

export const trades: DatasetDef = {
  name: 'trades',
  table: 'trades',
  doc: 'Tick trades of a trading day, numbered by seq from 1.',
  columns: [
    INST,
    col('trade_date', date, 'trading day', { column: 'date' }),
    col('seq', int(1), 'sequence within the day, from 1'),
    col('timestamp', timestamp, 'trade time', { column: 'ts' }),
    col('price', PRICE, 'CNY'),
    col('volume', SHARES, 'shares'),
    col('amount', AMOUNT, 'CNY'),
    col('side', oneOf(['buy', 'sell', 'neutral']), 'taker side; neutral for auctions'),
  ],
  key: ['instrument_id', 'trade_date', 'seq'],
  check: (ix) =>
    all(tradingDay(ix, 'trade_date'), (r) =>
      marketDate(r[ix.timestamp] as number) === r[ix.trade_date] ? null : ['timestamp', 'expected a time on trade_date (market time)'],
    ),
};

export const corporateActions: DatasetDef = {
  name: 'corporate_actions',
  table: 'corporate_actions',
  doc: 'Implemented ex-rights / ex-dividend events (除权除息); they set ex-rights reference prices, limits and adjusted bars.',
  columns: [
    col('instrument_id', instrument(['equity', 'fund']), 'a known equity or fund', { column: 'inst' }),
    col('ex_date', date, 'ex-rights / ex-dividend date'),
    col('record_date', date, 'record date'),
    col('pay_date', date, 'cash payment date', { optional: true }),
    col('announce_date', date, 'implementation notice date'),
    col('cash_per_share', CASH_PER_SHARE, 'cash dividend per share, CNY, pre-tax (5 decimals)'),
    col('bonus_per_share', SHARE_RATIO, 'bonus shares (送股) per share held', { column: 'bonus_ratio' }),
    col('transfer_per_share', SHARE_RATIO, 'transfer shares (转增) per share held', { column: 'transfer_ratio' }),
    col('rights_per_share', SHARE_RATIO, 'rights shares (配股) per share held', { column: 'rights_ratio' }),
    col('rights_price', PRICE0, 'rights issue price, CNY (0 without rights)'),
  ],
  key: ['instrument_id', 'ex_date'],
  check: (ix) =>
    all(
      orderCheck(ix, 'record_date', 'ex_date'),
      orderCheck(ix, 'announce_date', 'ex_date'),
      (r) =>
        (r[ix.rights_per_share] as number) > 0 && r[ix.rights_price] === 0
          ? ['rights_price', 'expected a rights price > 0 with rights shares']
          : null,
      (r) =>
        ['cash_per_share', 'bonus_per_share', 'transfer_per_share', 'rights_per_share'].some((c) => (r[ix[c]] as number) > 0)
          ? null
          : ['cash_per_share', 'expected an event that distributes something (cash, bonus, transfer or rights shares)'],
    ),
};

export const adjFactors: DatasetDef = {
  name: 'adj_factors',
  table: 'adj_factors',
  doc:
    "Published backward (后复权, hfq) ratio adjustment factors, e.g. Tushare Pro `adj_factor` or Sina's hfq factors. " +
    "A row's factor applies from its trade_date until the next row's. An instrument with any rows has its adjusted " +
    'prices computed from them instead of from corporate_actions (docs/analytics.md, "Adjustment basis").',
  columns: [
    col('instrument_id', instrument(['equity', 'fund']), 'a known equity or fund', { column: 'inst' }),
    col('trade_date', date, "the first trading day the factor applies to (it applies until the next row's date)", { column: 'date' }),
    col(
      'adj_factor',
      positiveDecimalText(16, 'backward ratio factor'),
      'backward (hfq) ratio factor: backward price = raw price × adj_factor; stored exactly (Sina prints 16 decimals, Tushare 3)',
    ),
  ],
  key: ['instrument_id', 'trade_date'],
  check: (ix) => tradingDay(ix, 'trade_date'),
};
