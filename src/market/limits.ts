/**
 * Daily price limits (涨跌停, CONTRACT.md §6). Prices in 1/1000 CNY, dates YYYYMMDD.
 *
 * Rules encoded (effective dates from the exchanges' rule books):
 * - main board 10%; ST/*ST (risk warning) 5%, 10% from 2026-07-06;
 * - ChiNext 20% from the registration reform on 2020-08-24, 10% before (ST 5% before, 20% after);
 * - STAR 20% (ST too) since it opened in 2019;
 * - Beijing 30% (ST too);
 * - new listings without limits: the first 5 trading days (index 0..4) on STAR, on ChiNext for
 *   stocks listed from 2020-08-24 and on the main board for stocks listed from 2023-04-10; the
 *   first day only in Beijing.
 * - Before those reforms a main-board or ChiNext IPO's first day had an asymmetric band around
 *   the issue price (+44% / −36% from 2014), which one symmetric ratio cannot express: we return
 *   ratioPct null with reason 'ipo_first_day_band', so no limits are published for that day.
 *   Its days 1..4 had the ordinary limit. Such listings predate the demo data (2023+).
 * Not modelled: the no-limit first day after a long suspension or of a delisting period, and
 * pre-2014 IPO rules.
 */
import { divRoundHalfUp } from '../lib/decimal.js';
import type { BoardId } from './types.js';

export const CHINEXT_REFORM = 20200824;
export const MAIN_BOARD_REGISTRATION = 20230410;
export const MAIN_BOARD_ST_10PCT = 20260706;

export interface LimitRuleInput {
  board: BoardId;
  /** Under risk warning (ST or *ST) on `date`. */
  st: boolean;
  /** The trading day the limit applies to. */
  date: number;
  listDate: number;
  /** Trading days since listing on `date`: 0 = the listing day. */
  tradingDayIndexSinceListing: number;
}

export interface LimitRule {
  /** Limit in percent of the previous close, or null when the day has no (symmetric) limit. */
  ratioPct: number | null;
  /** Machine-friendly reason, e.g. 'main_board', 'st_main_board', 'new_listing_no_limit'. */
  reason: string;
}

/** Which limit applies. limitRule({ board: 'main', st: true, date: 20240301, … }) -> { ratioPct: 5, reason: 'st_main_board' } */
export function limitRule(input: LimitRuleInput): LimitRule {
  const { board, st, date, listDate, tradingDayIndexSinceListing: day } = input;
  if (day < 0) throw new RangeError(`not listed yet on ${date} (trading day index ${day})`);

  const noLimitDays =
    board === 'star' ? 5
      : board === 'chinext' ? (listDate >= CHINEXT_REFORM ? 5 : 0)
        : board === 'main' ? (listDate >= MAIN_BOARD_REGISTRATION ? 5 : 0)
          : 1;
  if (day < noLimitDays) return { ratioPct: null, reason: 'new_listing_no_limit' };
  if (day === 0) return { ratioPct: null, reason: 'ipo_first_day_band' };

  switch (board) {
    case 'main':
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
 * preClose × (1 ± ratioPct/100) rounded half-up to the tick, exactly; a limit that would move less
 * than one tick moves one tick, and the down limit never goes below one tick.
 * limitPrices(10010, 10) -> { up: 11010, down: 9010 } (10.01 -> 11.01 / 9.01)
 */
export function limitPrices(preClose: number, ratioPct: number, tick = 10): { up: number; down: number } {
  if (!Number.isSafeInteger(preClose) || preClose <= 0) throw new RangeError(`bad previous close: ${preClose}`);
  if (!Number.isInteger(ratioPct) || ratioPct < 0 || ratioPct >= 100) throw new RangeError(`bad ratio: ${ratioPct}`);
  if (!Number.isInteger(tick) || tick <= 0) throw new RangeError(`bad tick: ${tick}`);
  const at = (pct: number) =>
    Number(divRoundHalfUp(BigInt(preClose) * BigInt(pct), 100n * BigInt(tick))) * tick;
  const up = Math.max(at(100 + ratioPct), preClose + tick);
  const down = Math.max(Math.min(at(100 - ratioPct), preClose - tick), tick);
  return { up, down };
}
