/**
 * What the fundamentals generator reads from a store the core demo has filled: the equities,
 * their daily bars, corporate actions, classifications and ST periods. Everything else it
 * produces is derived from these rows and the seed, so it stays consistent with them.
 */
import type { BulkSession } from '../../store/types.js';
import { equityDailyCloses } from '../../store/tables/bars.js';
import { corporateActionRows } from '../../store/tables/corporate-actions.js';
import { equityRows } from '../../store/tables/instruments.js';
import { instrumentClassifications } from '../../store/tables/reference.js';
import { stPeriodRows } from '../../store/tables/st-periods.js';

export interface ActionIn {
  exDate: number;
  recordDate: number;
  payDate: number | null;
  announceDate: number;
  /** 1/100000 CNY per share, pre-tax. */
  cash: number;
  /** Shares per share held, millionths. */
  bonus: number;
  transfer: number;
  rightsRatio: number;
  /** 1/1000 CNY. */
  rightsPrice: number;
}

export interface DayIn {
  date: number;
  close: number;
  amount: number;
}

export interface EquityIn {
  inst: number;
  id: string;
  code: string;
  market: string;
  board: string;
  name: string;
  nameEn: string;
  listDate: number;
  /** Current (latest) share counts. */
  totalShares: number;
  floatShares: number;
  bars: DayIn[];
  /** Ascending by ex-date. */
  actions: ActionIn[];
  /** Ascending by id. */
  classifications: { id: string; name: string; type: string }[];
  st: { start: number; end: number | null }[];
}

export interface Inputs {
  equities: EquityIn[];
  /** First day of daily data in the store. */
  start: number;
}

/** Loads every equity with its rows, ordered by inst (= id order in the demo), through the demo's transaction `s`. */
export async function loadInputs(s: BulkSession): Promise<Inputs> {
  const rows = await equityRows(s);
  const byInst = new Map<number, EquityIn>();
  const equities = rows.map((r) => {
    const e: EquityIn = {
      inst: r.inst,
      id: r.id,
      code: r.code,
      market: r.market,
      board: r.board ?? 'main',
      name: r.name,
      nameEn: r.name_en ?? r.id,
      listDate: r.list_date ?? 19900101,
      totalShares: r.total_shares ?? 0,
      floatShares: r.float_shares ?? r.total_shares ?? 0,
      bars: [],
      actions: [],
      classifications: [],
      st: [],
    };
    byInst.set(r.inst, e);
    return e;
  });
  const bars = await equityDailyCloses(s);
  let start = 99991231;
  for (const b of bars) {
    byInst.get(b.inst)!.bars.push({ date: b.date, close: b.close, amount: b.amount });
    if (b.date < start) start = b.date;
  }

  const actions = await corporateActionRows(s);
  for (const a of actions) {
    byInst.get(a.inst)?.actions.push({
      exDate: a.ex_date,
      recordDate: a.record_date,
      payDate: a.pay_date,
      announceDate: a.announce_date,
      cash: a.cash_per_share,
      bonus: a.bonus_ratio,
      transfer: a.transfer_ratio,
      rightsRatio: a.rights_ratio,
      rightsPrice: a.rights_price,
    });
  }

  const cls = await instrumentClassifications(s);
  for (const c of cls) byInst.get(c.inst)?.classifications.push({ id: c.id, name: c.name, type: c.type });

  const st = await stPeriodRows(s);
  for (const s of st) byInst.get(s.inst)?.st.push({ start: s.start_date, end: s.end_date });

  return { equities, start: start === 99991231 ? 20230103 : start };
}
