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
