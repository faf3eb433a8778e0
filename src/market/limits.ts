/**
 * Daily price limits (涨跌停, CONTRACT.md §6) by the rules in force on each date, 1990 on. Prices
 * in 1/1000 CNY, dates YYYYMMDD. docs/price-limits.md has the table of rules with their sources;
 * limits.test.ts tests each row.
 *
 * - Before 1992-05-21 (SSE) and 1991-08-17 (SZSE) the exchanges set limits that changed often
 *   and differed by stock and direction (0.5% to 5%, asymmetric at times); they are not
 *   published: null limits, reason 'early_market_limits'.
 * - From then to 1996-12-15 prices were free: null limits, reason 'no_limit_period'.
 * - From 1996-12-16: 10%; risk-warning (ST, *ST) stocks 5% from the ST system's start on
 *   1998-04-22 (10% on the main board from 2026-07-06); ChiNext (from 2009-10-30) 10%, 20% from
 *   the registration reform on 2020-08-24 (ST too); STAR (from 2019-07-22) 20%; Beijing (from
 *   2021-11-15) 30%.
 * - New listings: no limit on the first 5 trading days (index 0..4) on STAR, on ChiNext for
 *   listings from 2020-08-24 and on the main board for listings from 2023-04-10; on the first
 *   day only in Beijing. Any other listing day had no limit until 2013 ('new_listing_no_limit')
 *   and from 2014 an asymmetric band around the issue price (+44% / −36%) that one symmetric
 *   ratio cannot express ('ipo_first_day_band'); both publish null limits.
 * - A listing by transfer (`listingKind` 'transfer') is not a new listing: the 71 companies of
 *   NEEQ's select tier (精选层) that moved to the Beijing Stock Exchange on its opening day,
 *   2021-11-15, traded at ±30% of their last NEEQ close that day; only the 10 public offerings
 *   listed that day were free of limits (listingKind).
 * - Shares not through the split-share reform (股权分置改革), marked `S` in their names from
 *   2006-10-09 (S佳通, SST…, S*ST…: hasReformMark), 5% on the main board from 2007-01-08
 *   ('share_reform_pending').
 * - Rounding (limitRounding): half-up to the tick on SH and SZ; on the BSE, from its opening,
 *   toward the previous close (the up limit rounded down, the down limit up), as the exchange
 *   publishes its limit prices.
 * Not modelled: the no-limit first day after the share-reform resumption (2005–2006), PT stocks
 * (1999–2002), the first day after a long suspension or of a delisting period.
 */
import { divRoundHalfUp } from '../lib/decimal.js';
import { KINDS } from './kinds.js';
import type { BoardId, MarketId } from './types.js';

/** First day without the early limits: SSE freed all prices on 1992-05-21; SZSE in August 1991. */
export const EARLY_LIMITS_END: Readonly<Record<MarketId, number>> = { SH: 19920521, SZ: 19910817, BJ: 0 };
/** The 10% limit of both exchanges (交易所关于实行价格涨跌幅限制的通知, effective 1996-12-16). */
export const TEN_PERCENT_FROM = 19961216;
/** Special treatment (ST) and its 5% limit from 1998-04-22. */
export const ST_FROM = 19980422;
/** IPO first-day band (+44%/−36% of the issue price) for listings from 2014 on. */
export const IPO_BAND_FROM = 20140101;
export const CHINEXT_REFORM = 20200824;
export const MAIN_BOARD_REGISTRATION = 20230410;
export const MAIN_BOARD_ST_10PCT = 20260706;
/** The Beijing Stock Exchange's first trading day, when NEEQ's select tier (精选层) moved to it. */
export const BSE_OPENING = 20211115;
/**
 * The 5% limit of shares not through the split-share reform (the `S` mark, given on 2006-10-09),
 * from 2007-01-08: S深发展A (000001.SZ) moved 7.44% on 2007-01-05 and at most 5% from then on
 * until its reform's resumption on 2007-06-20 (the real bars in ../shared/data).
 */
export const REFORM_PENDING_5PCT_FROM = 20070108;

/**
 * Whether a name carries the `S` mark of a share not through the split-share reform (股改): `S`
 * before the short name (S佳通, S 石化) or before its ST mark (SST自仪, S*ST石岘), after NFKC
 * (full-width Ｓ). ST华兴 and Latin names (Sunrise) have none.
 * hasReformMark('S佳通') -> true; hasReformMark('ST佳通') -> false
 */
export function hasReformMark(name: string | null): boolean {
  return name !== null && /^S\s*(?:\*?ST|\p{Script=Han})/u.test(name.normalize('NFKC'));
}

/** How a limit price is rounded to the tick: half-up, or toward the previous close (truncated). */
export type LimitRounding = 'half_up' | 'toward_close';

/**
 * The rounding of `market`'s limit prices on `date`: the SSE and SZSE trading rules say half-up
 * (四舍五入); the BSE publishes its limits truncated toward the previous close (430047.BJ,
 * previous close 15.29: 19.87 and 10.71, where half-up gives 19.88 and 10.70), from its opening.
 * limitRounding('BJ', 20211115) -> 'toward_close'
 */
export function limitRounding(market: MarketId, date: number): LimitRounding {
  return market === 'BJ' && date >= BSE_OPENING ? 'toward_close' : 'half_up';
}

/** How an equity came to its exchange: a new listing ('ipo'), or moved from another venue ('transfer'). */
export const LISTING_KINDS = ['ipo', 'transfer'] as const;
export type ListingKind = (typeof LISTING_KINDS)[number];

/**
 * How an equity was listed: as the instrument record says (`stored`, the instruments dataset's
 * optional `listing_kind`), else by the documented default: a Beijing listing dated BSE_OPENING
 * is one of the select tier's transfers (71 of the day's 81 listings), any other listing is new.
 * listingKind('BJ', 20211115, null) -> 'transfer'; listingKind('BJ', 20211115, 'ipo') -> 'ipo'.
 */
export function listingKind(market: MarketId, listDate: number, stored: string | null): ListingKind {
  if (stored !== null) {
    if (!(LISTING_KINDS as readonly string[]).includes(stored)) throw new RangeError(`bad listing kind: ${stored}`);
    return stored as ListingKind;
  }
  return market === 'BJ' && listDate === BSE_OPENING ? 'transfer' : 'ipo';
}

export interface LimitRuleInput {
  board: BoardId;
  market: MarketId;
  /** Under risk warning (ST or *ST) on `date`. */
  st: boolean;
  /** The trading day the limit applies to. */
  date: number;
  listDate: number;
  /** Trading days since listing on `date`: 0 = the listing day. */
  tradingDayIndexSinceListing: number;
  /** How the equity was listed (listingKind); a transfer has no new-listing days. Default 'ipo'. */
  listingKind?: ListingKind;
  /** Not through the split-share reform on `date` (its name's `S` mark, hasReformMark). Default false. */
  reformPending?: boolean;
}

export interface LimitRule {
  /** Limit in percent of the previous close, or null when the day has no (symmetric) limit. */
  ratioPct: number | null;
  /** Machine-friendly reason, e.g. 'main_board', 'st_main_board', 'new_listing_no_limit'. */
  reason: string;
}

/** Which limit applies. limitRule({ board: 'main', market: 'SH', st: true, date: 20240301, … }) -> { ratioPct: 5, reason: 'st_main_board' } */
export function limitRule(input: LimitRuleInput): LimitRule {
  const { board, market, date, listDate, tradingDayIndexSinceListing: day } = input;
  if (day < 0) throw new RangeError(`not listed yet on ${date} (trading day index ${day})`);
  if (date < EARLY_LIMITS_END[market]) return { ratioPct: null, reason: 'early_market_limits' };
  if (date < TEN_PERCENT_FROM) return { ratioPct: null, reason: 'no_limit_period' };

  if (input.listingKind !== 'transfer') {
    const noLimitDays =
      board === 'star'
        ? 5
        : board === 'chinext'
          ? listDate >= CHINEXT_REFORM
            ? 5
            : 0
          : board === 'main'
            ? listDate >= MAIN_BOARD_REGISTRATION
              ? 5
              : 0
            : 1;
    if (day < noLimitDays) return { ratioPct: null, reason: 'new_listing_no_limit' };
    if (day === 0) return { ratioPct: null, reason: listDate < IPO_BAND_FROM ? 'new_listing_no_limit' : 'ipo_first_day_band' };
  }

  const st = input.st && date >= ST_FROM;
  switch (board) {
    case 'main':
      if (input.reformPending && date >= REFORM_PENDING_5PCT_FROM) return { ratioPct: 5, reason: 'share_reform_pending' };
      return st ? { ratioPct: date >= MAIN_BOARD_ST_10PCT ? 10 : 5, reason: 'st_main_board' } : { ratioPct: 10, reason: 'main_board' };
    case 'chinext': {
      const reformed = date >= CHINEXT_REFORM;
      return st ? { ratioPct: reformed ? 20 : 5, reason: 'st_chinext' } : { ratioPct: reformed ? 20 : 10, reason: 'chinext' };
    }
    case 'star':
      return { ratioPct: 20, reason: st ? 'st_star' : 'star' };
    case 'bse':
      return { ratioPct: 30, reason: st ? 'st_bse' : 'bse' };
  }
}

/**
 * Up and down limit prices from the previous close (the ex-rights reference price on an ex-date):
 * preClose × (1 ± ratioPct/100) rounded to the tick exactly, half-up or toward the previous close
 * (limitRounding); a limit that would move less than one tick moves one tick, and the down limit
 * never goes below one tick.
 * limitPrices(10010, 10) -> { up: 11010, down: 9010 } (10.01 -> 11.01 / 9.01)
 * limitPrices(15290, 30, 10, 'toward_close') -> { up: 19870, down: 10710 } (19.877 / 10.703)
 */
export function limitPrices(
  preClose: number,
  ratioPct: number,
  tick = KINDS.equity.tick,
  rounding: LimitRounding = 'half_up',
): { up: number; down: number } {
  if (!Number.isSafeInteger(preClose) || preClose <= 0) throw new RangeError(`bad previous close: ${preClose}`);
  if (!Number.isInteger(ratioPct) || ratioPct < 0 || ratioPct >= 100) throw new RangeError(`bad ratio: ${ratioPct}`);
  if (!Number.isInteger(tick) || tick <= 0) throw new RangeError(`bad tick: ${tick}`);
  const scaled = (pct: number) => BigInt(preClose) * BigInt(pct);
  const unit = 100n * BigInt(tick);
  const halfUp = (pct: number) => Number(divRoundHalfUp(scaled(pct), unit)) * tick;
  // Toward the previous close: the up limit rounded down, the down limit rounded up.
  const floor = (pct: number) => Number(scaled(pct) / unit) * tick;
  const ceil = (pct: number) => Number((scaled(pct) + unit - 1n) / unit) * tick;
  const [upAt, downAt] = rounding === 'half_up' ? [halfUp, halfUp] : [floor, ceil];
  const up = Math.max(upAt(100 + ratioPct), preClose + tick);
  const down = Math.max(Math.min(downAt(100 - ratioPct), preClose - tick), tick);
  return { up, down };
}
