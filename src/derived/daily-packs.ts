import type { BulkSession } from '../store/types.js';
import type { InstrumentKind } from '../market/kinds.js';

/** What rendering needs of an instrument. */
export interface PageInstrument {
  id: string;
  kind: InstrumentKind;
}

/** The daily packs that the derivations of this folder are made from (keyed by inst and month). */
export const DAILY_PACKS = 'bars_1d_packs';

/** The id and kind of instruments `insts`. */
export async function instruments(s: BulkSession, insts: number[]): Promise<Map<number, PageInstrument>> {
  const out = new Map<number, PageInstrument>();
  for (let i = 0; i < insts.length; i += 500) {
    const part = insts.slice(i, i + 500);
    const rows = await s.queryRows(`select inst, id, kind from instruments where inst in (${part.map(() => '?').join(', ')})`, part);
    for (const [inst, id, kind] of rows as [number, string, InstrumentKind][]) out.set(inst, { id, kind });
  }
  return out;
}

/**
 * `column` of `table` (keyed by inst and month) for the keys from the first to the last of
 * `rows` (`[inst, month, …]` in key order), by `inst/month`: what a check compares a batch with.
 */
export async function storedInRange(s: BulkSession, table: string, column: string, rows: unknown[][]): Promise<Map<string, unknown>> {
  const [first, last] = [rows[0], rows[rows.length - 1]];
  const stored = await s.queryRows(
    `select inst, month, ${column} from ${table} where (inst, month) >= (?, ?) and (inst, month) <= (?, ?)`,
    [first[0], first[1], last[0], last[1]],
  );
  return new Map(stored.map((r) => [`${String(r[0])}/${String(r[1])}`, r[2]]));
}

/** The daily packs `[inst, month, n, data]` in key order, 500 at a time. */
export async function* packBatches(s: BulkSession): AsyncGenerator<unknown[][]> {
  let pos: unknown[] = [];
  for (;;) {
    const rows = await s.queryRows(
      `select inst, month, n, data from ${DAILY_PACKS}${pos.length ? ' where (inst, month) > (?, ?)' : ''}` +
        ' order by inst, month limit ?',
      [...pos, 500],
    );
    if (rows.length === 0) return;
    yield rows;
    pos = rows[rows.length - 1].slice(0, 2);
  }
}
