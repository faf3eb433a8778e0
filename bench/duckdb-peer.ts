/**
 * The peer a quant would use instead of the service: DuckDB over the same Tongdaxin files, loaded
 * the fast way and asked the whole-market bench's questions in SQL (bench/whole-market.ts).
 *
 * Load: the `.day` files the service serves (market/codes.ts securityOf: equities, indices, ETFs,
 * LOFs; Beijing bars before the exchange opened dropped, as the service skips them) read in Node,
 * decoded into typed-array columns (prices in 1/1000 CNY: ×10 for stocks and indices, as they are
 * for funds; index volume ×100 to shares), then copied a vector at a time (memcpy) into DuckDB data
 * chunks of 2,048 rows and appended with the appender: DuckDB's bulk path without a text format in
 * between. The load ends with a market calendar (the distinct days of each market's bars) and a
 * checkpoint of the database file.
 *
 * The SQL follows the service's rules (market/limits.ts, market/day-limits.ts, market/pools.ts,
 * ingest/tdx-folder.ts) with a quant's simplifications, said where they are:
 * - the reference of a day is the instrument's previous bar's close (the folder has no corporate
 *   actions, so the service's is the same);
 * - no equity is ST (the folder says nothing of it; the service knows no ST period either);
 * - a listing date is the first bar when it falls after the market's earliest first bar (or on
 *   BJ's opening day), else unknown; the service takes that earliest bar over every file of the
 *   folder, served or not, this over the files loaded;
 * - trading days are the days the market's bars have (the service's calendar is the exchanges');
 *   the service also skips bars on days its calendar has closed, these are kept.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { securityOf } from '../src/market/codes.js';
import { EXCHANGES } from '../src/market/markets.js';
import type { MarketId } from '../src/market/types.js';

type Api = typeof import('@duckdb/node-api');
type Bindings = typeof import('@duckdb/node-bindings');

const FOLDERS: Record<string, MarketId> = { sh: 'SH', sz: 'SZ', bj: 'BJ' };
const OPENED = new Map(EXCHANGES.map((m) => [m.id, m.opened]));
const RECORD = 32;
const CHUNK = 2048;

export interface PeerLoad {
  version: string;
  files: number;
  rows: number;
  instruments: number;
  /** Seconds: reading and decoding the files; appending and checkpointing; the whole load. */
  decode: number;
  append: number;
  seconds: number;
  /** The database file's size after the checkpoint (null in memory). */
  bytes: number | null;
}

/** A served `.day` file and its instrument. */
interface DayFile {
  id: string;
  market: MarketId;
  kind: 'equity' | 'index' | 'fund';
  board: string | null;
  path: string;
  size: number;
}

/** The served `.day` files of a `vipdoc` folder (or the folder holding it), in instrument id order. */
function dayFiles(path: string): DayFile[] {
  let root = path;
  try {
    if (statSync(join(path, 'vipdoc')).isDirectory()) root = join(path, 'vipdoc');
  } catch {
    /* the folder is vipdoc itself */
  }
  const out: DayFile[] = [];
  for (const [folder, market] of Object.entries(FOLDERS)) {
    const dir = join(root, folder, 'lday');
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      continue;
    }
    const re = new RegExp(`^${folder}(\\d{6})\\.day$`, 'i');
    for (const name of names) {
      const m = re.exec(name);
      if (!m) continue;
      const sec = securityOf(m[1], market);
      if (sec.kind === null) continue;
      const p = join(dir, name);
      const size = statSync(p).size;
      if (size < RECORD) continue;
      out.push({ id: `${m[1]}.${market}`, market, kind: sec.kind, board: sec.kind === 'equity' ? sec.board : null, path: p, size });
    }
  }
  return out.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** Days since 1970-01-01 of a YYYYMMDD date (DuckDB's DATE). */
const epochDays = (d: number) => Date.UTC(Math.floor(d / 10000), (Math.floor(d / 100) % 100) - 1, d % 100) / 86_400_000;

/** The folder decoded into columns; `first` is each instrument's first kept bar (YYYYMMDD). */
function decode(files: DayFile[]) {
  const cap = files.reduce((n, f) => n + Math.floor(f.size / RECORD), 0);
  const cols = {
    inst: new Int32Array(cap),
    date: new Int32Array(cap),
    open: new Int32Array(cap),
    high: new Int32Array(cap),
    low: new Int32Array(cap),
    close: new Int32Array(cap),
    volume: new BigInt64Array(cap),
    amount: new Float32Array(cap),
  };
  const vol32 = new Uint32Array(cols.volume.buffer);
  const days = new Map<number, number>();
  const first: (number | null)[] = [];
  let n = 0;
  files.forEach((f, inst) => {
    const buf = readFileSync(f.path);
    const records = Math.floor(buf.length / RECORD);
    const aligned = buf.byteOffset % 4 === 0 ? buf : Buffer.from(buf);
    const u = new Uint32Array(aligned.buffer, aligned.byteOffset, records * 8);
    const fl = new Float32Array(aligned.buffer, aligned.byteOffset, records * 8);
    const scale = f.kind === 'fund' ? 1 : 10,
      lots = f.kind === 'index' ? 100 : 1;
    const opened = f.market === 'BJ' ? OPENED.get('BJ')! : 0;
    let firstBar: number | null = null;
    for (let r = 0, o = 0; r < records; r++, o += 8) {
      const d = u[o];
      if (d < opened) continue;
      firstBar ??= d;
      let e = days.get(d);
      if (e === undefined) days.set(d, (e = epochDays(d)));
      cols.inst[n] = inst;
      cols.date[n] = e;
      cols.open[n] = u[o + 1] * scale;
      cols.high[n] = u[o + 2] * scale;
      cols.low[n] = u[o + 3] * scale;
      cols.close[n] = u[o + 4] * scale;
      cols.amount[n] = fl[o + 5];
      const v = u[o + 6] * lots;
      vol32[2 * n] = v % 4294967296;
      vol32[2 * n + 1] = Math.floor(v / 4294967296);
      n++;
    }
    first.push(firstBar);
  });
  return { cols, n, first };
}

/** The DuckDB peer: loaded, then asked the bench's questions. */
export class DuckPeer {
  private constructor(
    private readonly instance: DuckDBInstance,
    private readonly conn: DuckDBConnection,
    readonly load: PeerLoad,
  ) {}

  /**
   * @duckdb/node-api and its bindings, or why they cannot load (the bench then skips the peer).
   */
  static async api(): Promise<{ api: Api; bindings: Bindings } | string> {
    try {
      const api = await import('@duckdb/node-api');
      // A CommonJS module: its exports are the ESM import's default.
      const m = await import('@duckdb/node-bindings');
      const bindings = ((m as { default?: Bindings }).default ?? m) as Bindings;
      return { api, bindings };
    } catch (e) {
      return `@duckdb/node-api cannot load: ${(e as Error).message.split('\n')[0]}`;
    }
  }

  /** Loads `vipdoc` into a new database at `file` (':memory:' for none). */
  static async open(duck: { api: Api; bindings: Bindings }, vipdoc: string, file: string): Promise<DuckPeer> {
    const { api, bindings } = duck;
    const t0 = process.hrtime.bigint();
    const files = dayFiles(vipdoc);
    const { cols, n, first } = decode(files);
    const t1 = process.hrtime.bigint();
    const instance = await api.DuckDBInstance.create(file);
    const conn = await instance.connect();
    await conn.run(`create table instruments (inst integer primary key, id varchar, market varchar, kind varchar, board varchar, list_date date);
      create table bars (inst integer, date date, open decimal(9,3), high decimal(9,3), low decimal(9,3), close decimal(9,3), volume bigint, amount float)`);
    // Listing dates as the service makes them: the first bar, when after the market's earliest first bar or on its opening day.
    const earliest = new Map<MarketId, number>();
    files.forEach((f, i) => {
      const d = first[i];
      if (d !== null && d < (earliest.get(f.market) ?? Infinity)) earliest.set(f.market, d);
    });
    const ia = await conn.createAppender('instruments');
    let instruments = 0;
    files.forEach((f, i) => {
      const d = first[i];
      if (d === null) return; // every bar before the market opened: the service skips the file
      instruments++;
      const listed = d !== null && (d > earliest.get(f.market)! || d === OPENED.get(f.market));
      ia.appendInteger(i);
      ia.appendVarchar(f.id);
      ia.appendVarchar(f.market);
      ia.appendVarchar(f.kind);
      if (f.board === null) ia.appendNull();
      else ia.appendVarchar(f.board);
      if (listed) ia.appendDate(new api.DuckDBDateValue(epochDays(d)));
      else ia.appendNull();
      ia.endRow();
    });
    ia.closeSync();
    const appender = await conn.createAppender('bars');
    const chunk = api.DuckDBDataChunk.create(Array.from({ length: appender.columnCount }, (_, c) => appender.columnType(c)));
    const columns = [cols.inst, cols.date, cols.open, cols.high, cols.low, cols.close, cols.volume, cols.amount];
    for (let at = 0; at < n; at += CHUNK) {
      const rows = Math.min(CHUNK, n - at);
      chunk.reset();
      columns.forEach((col, c) => {
        const w = col.BYTES_PER_ELEMENT;
        bindings.copy_data_to_vector(
          bindings.data_chunk_get_vector(chunk.chunk, c),
          0,
          col.buffer as ArrayBuffer,
          col.byteOffset + at * w,
          rows * w,
        );
      });
      chunk.rowCount = rows;
      appender.appendDataChunk(chunk);
    }
    appender.closeSync();
    await conn.run(`create table calendar as select market, date, (row_number() over (partition by market order by date) - 1)::integer as i
      from (select distinct i.market, b.date from bars b join instruments i using (inst))`);
    if (file !== ':memory:') await conn.run('checkpoint');
    const t2 = process.hrtime.bigint();
    const s = (a: bigint, b: bigint) => Number(b - a) / 1e9;
    const version = String((await conn.runAndReadAll('select version()')).getRowsJS()[0][0]);
    return new DuckPeer(instance, conn, {
      version,
      files: files.length,
      rows: n,
      instruments,
      decode: s(t0, t1),
      append: s(t1, t2),
      seconds: s(t0, t2),
      bytes: file === ':memory:' ? null : statSync(file).size,
    });
  }

  private async rows(sql: string, values: (string | number)[]) {
    return (await this.conn.runAndReadAll(sql, values)).getRowsJS();
  }

  /** The limit-up pool of `date` (YYYY-MM-DD): instrument ids, in id order. */
  async pool(date: string): Promise<string[]> {
    return (await this.rows(POOL, [date])).map((r) => String(r[0]));
  }

  /** The first 100 bars of `market`'s cross-section on `date`, by instrument id: ids. */
  async cross(market: string, date: string): Promise<string[]> {
    return (await this.rows(CROSS, [market, date])).map((r) => String(r[0]));
  }

  /** Breadth of `market`'s equities per day from `from`: [YYYYMMDD, advancers, decliners, unchanged]. */
  async breadth(market: string, from: string): Promise<[number, number, number, number][]> {
    return (await this.rows(BREADTH, [market, from])).map((r) => [Number(r[0]), Number(r[1]), Number(r[2]), Number(r[3])]);
  }

  /** An instrument's first 100 daily bars. */
  async page(id: string): Promise<number> {
    return (await this.rows(PAGE, [id])).length;
  }

  close(): void {
    this.conn.closeSync();
    this.instance.closeSync();
  }
}

/**
 * The limit as a multiple of the reference (null: no limit that day), by limits.ts limitRule without
 * ST: none before 1996-12-16; none on a new listing's first days (STAR 5, ChiNext listed from
 * 2020-08-24 5, main board listed from 2023-04-10 5, Beijing 1 except the transfers of its opening
 * day; the listing day itself has no reference); main board 10%, ChiNext 10% then 20% from
 * 2020-08-24, STAR 20%, Beijing 30%. `t` the day's bar, `i` the instrument,
 * `c`/`l` the calendar rows of the day and of the listing day.
 */
const RATIO = `case
  when t.date < date '1996-12-16' then null
  when i.list_date is not null and c.i - l.i < case i.board
    when 'star' then 5
    when 'chinext' then case when i.list_date >= date '2020-08-24' then 5 else 0 end
    when 'main' then case when i.list_date >= date '2023-04-10' then 5 else 0 end
    else case when i.market = 'BJ' and i.list_date = date '2021-11-15' then 0 else 1 end end then null
  when i.board = 'main' then 1.10
  when i.board = 'chinext' then case when t.date >= date '2020-08-24' then 1.20 else 1.10 end
  when i.board = 'star' then 1.20
  else 1.30 end`;

/** Up limit: the reference × ratio rounded half-up to 0.01, at least a tick above it (limits.ts limitPrices). */
const UP = 'greatest(round(d.ref * d.k, 2), d.ref + 0.01)';

/**
 * The bars of a day (`today`, a select of bars `b` on day `date`) with their references `refs`: each
 * instrument's previous close, arg_max over its earlier bars (exact over any suspension).
 */
const DAY = (date: string, today: string) => `
  today as (${today}),
  refs as (select inst, arg_max(close, date) as ref from bars where date < ${date} and inst in (select inst from today) group by inst)`;

const POOL = `with ${DAY('$1::date', 'select b.* from bars b where b.date = $1::date')},
  d as (select i.id, t.close, r.ref, ${RATIO} as k
    from today t join refs r using (inst) join instruments i on i.inst = t.inst and i.kind = 'equity'
    join calendar c on c.market = i.market and c.date = t.date left join calendar l on l.market = i.market and l.date = i.list_date)
  select id from d where k is not null and close >= ${UP} order by id`;

const CROSS = `with ${DAY('$2::date', 'select b.* from bars b join instruments m on m.inst = b.inst and m.market = $1 where b.date = $2::date order by b.inst limit 100')},
  d as (select t.*, r.ref, case when i.kind = 'equity' then ${RATIO} end as k
    from today t join instruments i using (inst) left join refs r using (inst)
    join calendar c on c.market = i.market and c.date = t.date left join calendar l on l.market = i.market and l.date = i.list_date)
  select i.id, i.kind, i.board, d.date, d.open, d.high, d.low, d.close, d.ref as pre_close, d.close - d.ref as change,
    round((d.close - d.ref) * 100 / d.ref, 2) as pct_change, d.volume, d.amount,
    case when d.k is not null then ${UP} end as limit_up,
    case when d.k is not null then greatest(least(round(d.ref * (2 - d.k), 2), d.ref - 0.01), 0.01) end as limit_down
  from d join instruments i using (inst) order by i.id`;

const BREADTH = `select strftime(date, '%Y%m%d')::integer, count(*) filter (where close > ref), count(*) filter (where close < ref), count(*) filter (where close = ref)
  from (select b.date, b.close, lag(b.close) over (partition by b.inst order by b.date) as ref
    from bars b join instruments i on i.inst = b.inst and i.market = $1 and i.kind = 'equity')
  where date >= $2::date and ref is not null group by date order by date`;

const PAGE = 'select b.* from bars b join instruments i using (inst) where i.id = $1 order by b.date limit 100';
