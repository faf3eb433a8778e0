/**
 * Tushare Pro `stock_basic` → instruments (https://tushare.pro/document/2?doc_id=25): ts_code,
 * name, list_date, delist_date and enname (optional); kind equity, the board from the vendor's
 * `market` column (市场类型), else from the exchanges' code ranges (market/codes.ts). A row whose
 * code neither knows is skipped and listed; the rest of the file loads.
 */
import { BOARD_MARKETS } from '../../market/boards.js';
import { securityOf } from '../../market/codes.js';
import type { BoardId, MarketId } from '../../market/types.js';
import { tsCode } from './tushare.js';
import { Bad, vendorCsv, ymd, type Get, type Layout, type VendorReport } from './vendor.js';

/**
 * The boards of stock_basic's `market` column (市场类型: 主板/创业板/科创板/CDR/北交所; 中小板 in
 * exports before the SME board joined the main board in 2021). CDR names no board: a CDR's is
 * its code's (689009 STAR).
 */
const MARKET_BOARDS: ReadonlyMap<string, BoardId | null> = new Map([
  ['主板', 'main'],
  ['中小板', 'main'],
  ['创业板', 'chinext'],
  ['科创板', 'star'],
  ['北交所', 'bse'],
  ['CDR', null],
]);

/**
 * The board of a stock_basic row: the vendor's `market` label when it names a board (the label
 * wins over the code ranges, noted when they disagree), else the code range's; null when
 * neither says (the row is skipped and listed, not the file refused). A label naming a board of
 * another exchange than the code's is an error of the row.
 */
function stockBoard(get: Get, id: string, report: VendorReport): BoardId | null {
  const market = id.slice(7) as MarketId;
  const sec = securityOf(id.slice(0, 6), market);
  const byCode = sec.kind === 'equity' ? sec.board : null;
  const label = get('market');
  const labelled = MARKET_BOARDS.get(label);
  if (labelled) {
    if (!BOARD_MARKETS[labelled].includes(market))
      throw new Bad('market', `${label} (${labelled}) is a board of ${BOARD_MARKETS[labelled].join(' and ')}, not of ${id}`);
    if (byCode !== labelled)
      report.adjust(
        byCode === null
          ? `board ${labelled} from the market column for a code in no A-share equity range`
          : `board ${labelled} from the market column where the code range says ${byCode}`,
        id,
      );
    return labelled;
  }
  if (label !== '' && labelled === undefined)
    report.adjust(`market ${JSON.stringify(label)} names no known board: board from the code range`, id);
  if (byCode === null) report.skip('codes in no A-share equity range, without a board in the market column', id);
  return byCode;
}

export const tushareStockBasic: Layout = {
  format: 'tushare',
  dataset: 'instruments',
  async *read(input) {
    yield* vendorCsv(input, ['ts_code', 'name', 'list_date'], (get) => {
      const id = tsCode(get);
      const board = stockBoard(get, id, input.report);
      if (board === null) return null;
      const out: Record<string, string> = {
        instrument_id: id,
        kind: 'equity',
        board,
        name: get('name'),
        list_date: ymd(get, 'list_date', true),
      };
      const delist = ymd(get, 'delist_date', true),
        en = get('enname');
      if (delist) out.delist_date = delist;
      if (en) out.name_en = en;
      return out;
    });
  },
};
