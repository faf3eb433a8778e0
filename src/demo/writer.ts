/** Chunked, ordered inserts through the demo's one transaction (`BulkSession.insert`), counting rows per table and the range of their dates. */
import type { BulkSession } from '../store/types.js';
import type { Database } from '../store/schema.js';

export type TableName = keyof Database & string;

const CHUNK = 20_000;

export class Writer {
  readonly counts: Partial<Record<TableName, number>> = {};
  /** The first and last value (YYYYMMDD) of the `date` column of each table written that has one. */
  readonly dates: Partial<Record<TableName, { from: number; to: number }>> = {};

  /** `progress` hears of each table written, with its rows. */
  constructor(
    private readonly s: BulkSession,
    private readonly progress: (step: string) => void = () => {},
  ) {}

  /** Inserts the rows in iteration order, CHUNK rows per insert. */
  async write(table: TableName, columns: string[], rows: Iterable<unknown[]>): Promise<void> {
    let buf: unknown[][] = [];
    let n = 0;
    const at = columns.indexOf('date');
    for (const row of rows) {
      if (row.length !== columns.length) throw new Error(`demo: ${table} row has ${row.length} values for ${columns.length} columns`);
      if (at >= 0) this.dated(table, row[at] as number);
      buf.push(row);
      if (buf.length >= CHUNK) {
        await this.s.insert(table, columns, buf);
        n += buf.length;
        buf = [];
      }
    }
    if (buf.length > 0) await this.s.insert(table, columns, buf);
    const written = n + buf.length;
    this.counts[table] = (this.counts[table] ?? 0) + written;
    this.progress(`${table}: ${written.toLocaleString('en-US')} row${written === 1 ? '' : 's'}`);
  }

  private dated(table: TableName, date: number): void {
    const d = this.dates[table];
    if (d === undefined) this.dates[table] = { from: date, to: date };
    else if (date < d.from) d.from = date;
    else if (date > d.to) d.to = date;
  }
}

export const BAR_COLUMNS = ['open', 'high', 'low', 'close', 'volume', 'amount'];
export const QUOTE_COLUMNS = [
  'inst',
  'ts',
  'date',
  'last',
  'open',
  'high',
  'low',
  'pre_close',
  'volume',
  'amount',
  ...['bid_p', 'bid_v', 'ask_p', 'ask_v'].flatMap((p) => [1, 2, 3, 4, 5].map((l) => p + l)),
];
export const INSTRUMENT_COLUMNS = [
  'inst',
  'id',
  'kind',
  'code',
  'market',
  'board',
  'name',
  'name_lc',
  'name_en',
  'list_date',
  'list_date_source',
  'delist_date',
  'total_shares',
  'float_shares',
  'fund_type',
  'underlying',
  'base_date',
  'base_value',
];
export const ACTION_COLUMNS = [
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
];
