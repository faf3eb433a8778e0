/**
 * Ingest speed: `mds ingest`'s code path loading N one-minute bars from a CSV file into an
 * empty SQLite store, against the raw engine's own bulk insert of the same rows (one
 * better-sqlite3 prepared insert in one transaction, rows already in memory, no parsing or
 * validation), measured in the same run. Run alone: `npx tsx bench/ingest.ts [--rows N]`.
 */
import Database from 'better-sqlite3';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { migrate, openStore } from '../src/derived/open.js';
import type { Store } from '../src/store/types.js';
import { ingest } from '../src/ingest/load.js';
import { dataset } from '../src/datasets/registry.js';
import { marketTradingDays } from '../src/market/calendar.js';
import { formatDate, formatTimestamp, marketEpoch } from '../src/lib/time.js';
import { formatScaled } from '../src/lib/decimal.js';

export interface BenchIngestOptions {
  rows?: number;
  log?: (line: string) => void;
}
export interface BenchIngestResult {
  rows: number;
  ingestRowsPerSec: number;
  rawRowsPerSec: number;
  ratio: number;
}

const MINUTES = [570, ...Array.from({ length: 120 }, (_, i) => 571 + i), ...Array.from({ length: 120 }, (_, i) => 781 + i)];
const INSTRUMENTS = 100;

async function writeLines(path: string, lines: Iterable<string>): Promise<void> {
  const out = createWriteStream(path);
  let buf = '';
  for (const l of lines) {
    buf += l + '\n';
    if (buf.length > 1 << 20) {
      if (!out.write(buf)) await once(out, 'drain');
      buf = '';
    }
  }
  out.end(buf);
  await once(out, 'close');
}

/** The reference data both stores get first (not timed): markets, trading days, 100 equities. */
async function reference(dir: string, days: number[]): Promise<string[]> {
  const files = [join(dir, 'markets.csv'), join(dir, 'trading_days.csv'), join(dir, 'instruments.csv')];
  await writeLines(files[0], [
    'id,name,name_local,mic,timezone,currency,opened',
    'SH,Shanghai Stock Exchange,上海证券交易所,XSHG,Asia/Shanghai,CNY,1990-12-19',
  ]);
  await writeLines(files[1], ['market,date', ...days.map((d) => `SH,${formatDate(d)}`)]);
  await writeLines(files[2], [
    'instrument_id,kind,board,name',
    ...Array.from({ length: INSTRUMENTS }, (_, i) => `${600000 + i}.SH,equity,main,股票${i}`),
  ]);
  return files;
}

/** Deterministic minute bars [inst, ts, date, open, high, low, close, volume, amount] (inst 1..100). */
function* bars(days: number[], rows: number): Generator<number[]> {
  let n = 0;
  for (let inst = 1; inst <= INSTRUMENTS; inst++) {
    let px = 10_000 + inst * 37;
    for (const d of days) {
      for (const m of MINUTES) {
        if (n++ >= rows) return;
        const open = px;
        px = Math.max(1000, px + ((n * 7919) % 41) - 20);
        const high = Math.max(open, px) + (n % 7),
          low = Math.min(open, px) - (n % 5);
        const volume = 100 * (1 + (n % 500));
        yield [inst, marketEpoch(d, m), d, open, high, low, px, volume, Math.round((volume * (open + px)) / 20)];
      }
    }
  }
}

export async function benchIngest(opts: BenchIngestOptions = {}): Promise<BenchIngestResult> {
  const rows = opts.rows ?? 1_000_000;
  const log = opts.log ?? ((l: string) => console.log(l));
  const dir = mkdtempSync(join(tmpdir(), 'mds-bench-ingest-'));
  try {
    const perInst = Math.ceil(rows / INSTRUMENTS);
    const days = marketTradingDays('SH', 20240102, 20261231).slice(0, Math.ceil(perInst / MINUTES.length));
    const refs = await reference(dir, days);
    const csv = join(dir, 'bars_1m.csv');
    await writeLines(
      csv,
      (function* () {
        yield 'instrument_id,timestamp,open,high,low,close,volume,amount';
        for (const b of bars(days, rows)) {
          yield (
            `${600000 + b[0] - 1}.SH,${formatTimestamp(b[1])},${formatScaled(b[3], 3, 2)},${formatScaled(b[4], 3, 2)},` +
            `${formatScaled(b[5], 3, 2)},${formatScaled(b[6], 3, 2)},${b[7]},${formatScaled(b[8], 2, 2)}`
          );
        }
      })(),
    );
    const prepare = async (file: string): Promise<Store> => {
      const s = openStore(file);
      await migrate(s);
      const r = await ingest(
        s,
        refs.map((path) => ({ path, dataset: dataset(path.replace(/^.*\/|\.csv$/g, ''))! })),
      );
      if (!r.ok) throw new Error(r.errors.join('\n'));
      return s;
    };

    // mds ingest's code path: read, parse, validate, upsert, bump the data version; one transaction.
    const a = await prepare(join(dir, 'ingest.sqlite'));
    const t0 = performance.now();
    const r = await ingest(a, [{ path: csv, dataset: dataset('bars_1m')! }]);
    const ingestSec = (performance.now() - t0) / 1000;
    await a.close();
    if (!r.ok || r.datasets[0].inserted !== rows)
      throw new Error(`bench ingest failed: ${r.errors.join('\n') || JSON.stringify(r.datasets)}`);

    // The raw engine: the same rows, prepared insert in one transaction, same pragmas as the store.
    await (await prepare(join(dir, 'raw.sqlite'))).close();
    const all = [...bars(days, rows)];
    const raw = new Database(join(dir, 'raw.sqlite'));
    raw.pragma('journal_mode = WAL');
    raw.pragma('synchronous = NORMAL');
    raw.pragma('cache_size = -65536');
    const stmt = raw.prepare(
      'insert into bars_1m (inst, ts, date, open, high, low, close, volume, amount) values (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    const t1 = performance.now();
    raw.transaction((rs: number[][]) => {
      for (const x of rs) stmt.run(x);
    })(all);
    const rawSec = (performance.now() - t1) / 1000;
    raw.close();

    const result = { rows, ingestRowsPerSec: Math.round(rows / ingestSec), rawRowsPerSec: Math.round(rows / rawSec), ratio: 0 };
    result.ratio = Math.round((result.ingestRowsPerSec / result.rawRowsPerSec) * 100) / 100;
    log(`ingest bars_1m: ${rows} rows from CSV in ${ingestSec.toFixed(2)} s = ${result.ingestRowsPerSec} rows/s`);
    log(`raw better-sqlite3 insert: ${rows} rows in ${rawSec.toFixed(2)} s = ${result.rawRowsPerSec} rows/s`);
    log(`ratio ingest/raw: ${result.ratio} (aim >= 0.5)`);
    return result;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { rows: { type: 'string', default: '1000000' } } });
  await benchIngest({ rows: Number(values.rows) });
}
