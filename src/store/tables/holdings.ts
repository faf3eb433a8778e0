/**
 * What a store holds, in a few cheap reads, for the server's start banner (app/server.ts): its
 * instruments by kind, the first and last day of its bars, quotes and trades, and which other
 * datasets hold rows. Each range is a seek per instrument on the table's primary key (as
 * readers/equity-days.ts latestBarDate), never a scan of the rows: milliseconds on a whole market.
 */
import type { Store } from '../types.js';
import { DATASETS } from '../../datasets/registry.js';

/** First and last trading day (YYYYMMDD). */
export interface DayRange {
  from: number;
  to: number;
}

export interface StoreHoldings {
  /** Instruments by kind (`equity`, `index`, `fund`), kinds without any left out. */
  kinds: Record<string, number>;
  /** The days of the stored bars and ticks, null where there are none. */
  bars1d: DayRange | null;
  bars1m: DayRange | null;
  quotes: DayRange | null;
  trades: DayRange | null;
  /** The other datasets (ingest's names, in load order) that hold rows. */
  datasets: string[];
}

/** Tables whose days are read as ranges, by their date column's ordering key. */
const RANGED = [
  ['bars_1d', 'date', 'date'],
  ['bars_1m', 'date', 'ts'],
  ['quotes', 'date', 'ts'],
  ['trades', 'date', 'date'],
] as const;
/** Datasets the banner says otherwise: markets exist in every store, instruments are counted, the ranged ones dated. */
const SAID = new Set<string>(['markets', 'instruments', ...RANGED.map(([t]) => t)]);

/** The first and last day of `table`: per instrument, its first and last row by `key` (a primary-key seek each). */
async function range(store: Store, table: string, date: string, key: string): Promise<DayRange | null> {
  const edge = (dir: string) => `(select t.${date} from ${table} t where t.inst = i.inst order by t.${key} ${dir} limit 1)`;
  const [[from, to]] = await store.selectRows(`select min(${edge('asc')}), max(${edge('desc')}) from instruments i`, []);
  return from === null || from === undefined ? null : { from: Number(from), to: Number(to) };
}

/** What `store` holds (see the file's comment). */
export async function storeHoldings(store: Store): Promise<StoreHoldings> {
  const kinds = Object.fromEntries(
    (await store.selectRows('select kind, count(*) from instruments group by kind order by kind', [])).map(([k, n]) => [
      String(k),
      Number(n),
    ]),
  );
  const [bars1d, bars1m, quotes, trades] = await Promise.all(RANGED.map(([t, d, k]) => range(store, t, d, k)));
  const others = DATASETS.filter((d) => !SAID.has(d.name));
  const held = await Promise.all(others.map(async (d) => (await store.selectRows(`select 1 from ${d.table} limit 1`, [])).length > 0));
  return { kinds, bars1d, bars1m, quotes, trades, datasets: others.filter((_, i) => held[i]).map((d) => d.name) };
}
