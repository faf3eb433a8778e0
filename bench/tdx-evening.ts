/**
 * An evening of a Tongdaxin install, for bench/whole-market.ts: the install as it was the evening
 * before (every bar file with the records of the folder's last day and after cut off) and as it is
 * once the client appended that day, both under `dir` as installs of their own (`vipdoc/` beside
 * `T0002/`). The day before is a copy; the day after links to the folder given (nothing copied).
 *
 *   npx tsx bench/tdx-evening.ts --tdx /path/to/vipdoc [--t0002 DIR] --out DIR   (the two installs, for a run by hand)
 */
import { mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { dateAt } from '../src/ingest/tdx-folder.js';

const RECORD = 32;
const MARKETS = ['sh', 'sz', 'bj'];
const KINDS = [
  { dir: 'lday', minute: false },
  { dir: 'minline', minute: true },
];

export interface Evening {
  /** The install the evening before (its `vipdoc` cut) and after (the folder given). */
  before: string;
  after: string;
  /** The day cut off (YYYYMMDD): the one most `.day` files end on. */
  day: number;
  /** Records cut off, over the files. */
  cut: number;
}

const ls = (dir: string) => {
  try {
    return readdirSync(dir).sort();
  } catch {
    return [];
  }
};

/** The folder's last trading day: the date most `.day` files of `vipdoc` end on (a fund's weekend records after it are cut too). */
function lastDay(vipdoc: string): number {
  const n = new Map<number, number>();
  for (const m of MARKETS)
    for (const name of ls(join(vipdoc, m, 'lday'))) {
      const b = readFileSync(join(vipdoc, m, 'lday', name));
      const d = b.length >= RECORD ? dateAt(b, b.length - (b.length % RECORD) - RECORD, false) : 0;
      n.set(d, (n.get(d) ?? 0) + 1);
    }
  return [...n].reduce((a, b) => (b[1] > a[1] ? b : a), [0, 0])[0];
}

/** The two installs of `vipdoc`'s last evening under `dir` (`T0002`: the install's, linked into both, when there is one). */
export function evening(vipdoc: string, dir: string, t0002: string | null): Evening {
  vipdoc = resolve(vipdoc);
  const day = lastDay(vipdoc);
  const before = join(dir, 'before'),
    after = join(dir, 'after');
  let cut = 0;
  for (const m of MARKETS)
    for (const k of KINDS) {
      const from = join(vipdoc, m, k.dir);
      const names = ls(from);
      if (!names.length) continue;
      const to = join(before, 'vipdoc', m, k.dir);
      mkdirSync(to, { recursive: true });
      for (const name of names) {
        const p = join(from, name);
        if (!statSync(p).isFile()) continue;
        const b = readFileSync(p);
        let end = b.length - (b.length % RECORD);
        while (end >= RECORD && dateAt(b, end - RECORD, k.minute) >= day) end -= RECORD;
        cut += (b.length - end) / RECORD;
        writeFileSync(join(to, name), b.subarray(0, end));
      }
    }
  mkdirSync(after, { recursive: true });
  symlinkSync(vipdoc, join(after, 'vipdoc'));
  if (t0002) for (const x of [before, after]) symlinkSync(resolve(t0002), join(x, 'T0002'));
  return { before, after, day, cut: Math.round(cut) };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values: o } = parseArgs({ options: { tdx: { type: 'string' }, t0002: { type: 'string' }, out: { type: 'string' } } });
  if (!o.tdx || !o.out) throw new Error('usage: npx tsx bench/tdx-evening.ts --tdx VIPDOC [--t0002 DIR] --out DIR');
  const e = evening(o.tdx, o.out, o.t0002 ?? null);
  console.log(`${e.before}: ${e.cut} records of ${e.day} and after cut off; ${e.after}: the folder whole`);
}

/** What an evening's update measured on one store. */
export interface EveningFigures {
  store: string;
  /** The evening before loaded into a new store, seconds of the command. */
  before: number;
  /** The update (the whole folder again): seconds of the command (wall, with the process's start) and in its transaction. */
  update: number;
  inTransaction: number;
  rssMb: number;
  /** The update's first summary line (what it read). */
  read: string;
  /** The day loaded, and its limit-up pool at its first request on a new app (ms). */
  day: string;
  pool: number;
}

/** A command's run (bench/whole-market.ts `mds`). */
type Run = (url: string, ...args: string[]) => { stdout: string; wall: number; rssKb: number };

/**
 * The evening on each store of `urls` (new, empty): `mds migrate`, `mds ingest --tdx` of the
 * install the evening before, then of the install after (the update, timed), then the day's pool
 * asked at its first request (`pool`).
 */
export async function eveningRuns(
  e: Evening,
  urls: { name: string; url: string }[],
  run: Run,
  pool: (url: string, day: string) => Promise<number>,
): Promise<EveningFigures[]> {
  const out: EveningFigures[] = [];
  const day = `${String(e.day).slice(0, 4)}-${String(e.day).slice(4, 6)}-${String(e.day).slice(6)}`;
  for (const { name, url } of urls) {
    run(url, 'migrate');
    const before = run(url, 'ingest', '--tdx', e.before, '--no-progress');
    const update = run(url, 'ingest', '--tdx', e.after, '--no-progress');
    const inTx = Number(/^committed: \d+ rows in ([\d.]+) s/m.exec(update.stdout)?.[1]);
    out.push({
      store: name,
      before: before.wall,
      update: update.wall,
      inTransaction: inTx,
      rssMb: Math.round(update.rssKb / 1024),
      read: update.stdout.split('\n')[0],
      day,
      pool: await pool(url, day),
    });
  }
  return out;
}
