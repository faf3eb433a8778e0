/**
 * Tongdaxin's ex-rights and share-change table, `T0002/hq_cache/gbbq` (股本变迁, docs/ingest.md
 * "Whole market: a Tongdaxin install"): a u32le record count, then 29-byte records whose first
 * 24 bytes are three 8-byte blocks enciphered with Blowfish (16 rounds, ECB) under a fixed,
 * already expanded key table (tdx-gbbq-key.ts). Deciphered, little-endian: u8 market (0 SZ, 1 SH,
 * 2 BJ), 6 ASCII digits of code and a NUL, u32 date YYYYMMDD, u8 category, four f32 fields.
 *
 * - Category 1 (除权除息, an ex-date): cash per 10 shares (CNY, pre-tax), rights price (CNY),
 *   bonus and transfer shares per 10 (送转, one figure), rights shares per 10 (配股).
 * - Share-change categories (2 送配股上市, 3 非流通股上市, 4 未知股本变动, 5 股本变化,
 *   7 股份回购, 8 增发新股上市, 9 转配股上市, 10 可转债上市): float shares before, total before,
 *   float after, total after, in 10,000 shares.
 * - 6 (增发新股: a placement's price and size), 11 and 12 (扩缩股: a ratio), 13 and 14
 *   (warrants) carry no share counts nor an ex-date's terms.
 *
 * The readers here are pure functions over a Buffer and a record's byte offset, so that a later
 * reader of only the changed part of a file can use them as they are.
 */
import { isDate } from '../../lib/time.js';
import type { MarketId } from '../../market/types.js';
import { GBBQ_KEY } from './tdx-gbbq-key.js';

/** Bytes of a record, and of the header (the record count). */
export const GBBQ_RECORD = 29;
export const GBBQ_HEADER = 4;

/** The market byte's markets. */
export const GBBQ_MARKETS: readonly (MarketId | undefined)[] = ['SZ', 'SH', 'BJ'];

/** The share-change categories (counts after the change in the last two fields). */
export const SHARE_CATEGORIES: ReadonlySet<number> = new Set([2, 3, 4, 5, 7, 8, 9, 10]);

export interface GbbqRecord {
  /** The market byte: 0 SZ, 1 SH, 2 BJ (GBBQ_MARKETS). */
  market: number;
  /** Six characters (digits in every real record). */
  code: string;
  /** YYYYMMDD as stored (not checked). */
  date: number;
  category: number;
  /** The four float32 fields, as the file holds them. */
  fields: [number, number, number, number];
}

const P = Uint32Array.from({ length: 18 }, (_, i) => GBBQ_KEY.readUInt32LE(4 * i));
const S = [0, 1, 2, 3].map((k) => Uint32Array.from({ length: 256 }, (_, i) => GBBQ_KEY.readUInt32LE(72 + 1024 * k + 4 * i)));
const [S0, S1, S2, S3] = S;

/** Blowfish's round function. */
const f = (x: number) => ((((S0[x >>> 24] + S1[(x >>> 16) & 0xff]) >>> 0) ^ S2[(x >>> 8) & 0xff]) + S3[x & 0xff]) >>> 0;

/** Deciphers the 8-byte block at `o` of `b` in place (Blowfish decryption: the P-array backwards, words little-endian). */
function decipherBlock(b: Buffer, o: number): void {
  let l = b.readUInt32LE(o),
    r = b.readUInt32LE(o + 4);
  for (let i = 17; i > 1; i -= 2) {
    l = (l ^ P[i]) >>> 0;
    r = (r ^ f(l)) >>> 0;
    r = (r ^ P[i - 1]) >>> 0;
    l = (l ^ f(r)) >>> 0;
  }
  b.writeUInt32LE((r ^ P[0]) >>> 0, o);
  b.writeUInt32LE((l ^ P[1]) >>> 0, o + 4);
}

/** The record count the header gives, or null when the file's size is not that many records (another layout). */
export function gbbqCount(b: Buffer): number | null {
  if (b.length < GBBQ_HEADER) return null;
  const n = b.readUInt32LE(0);
  return b.length === GBBQ_HEADER + n * GBBQ_RECORD ? n : null;
}

/** Deciphers the record at `o` of `b` in place and reads it. */
function decipherRecord(b: Buffer, o: number): GbbqRecord {
  for (let k = 0; k < 24; k += 8) decipherBlock(b, o + k);
  return {
    market: b[o],
    code: b.toString('latin1', o + 1, o + 7),
    date: b.readUInt32LE(o + 8),
    category: b[o + 12],
    fields: [b.readFloatLE(o + 13), b.readFloatLE(o + 17), b.readFloatLE(o + 21), b.readFloatLE(o + 25)],
  };
}

/** The record at byte offset `o` of the file `b`, deciphered (b is not modified). */
export function gbbqRecordAt(b: Buffer, o: number): GbbqRecord {
  return decipherRecord(Buffer.from(b.subarray(o, o + GBBQ_RECORD)), 0);
}

/** Every record of a gbbq file, in file order, or null when its size is not its header's count of records (b is not modified). */
export function gbbqRecords(b: Buffer): GbbqRecord[] | null {
  const n = gbbqCount(b);
  if (n === null) return null;
  const copy = Buffer.from(b);
  const out: GbbqRecord[] = new Array(n);
  for (let i = 0; i < n; i++) out[i] = decipherRecord(copy, GBBQ_HEADER + i * GBBQ_RECORD);
  return out;
}

/**
 * The shortest decimal text that reads back as the same float32 (`43.74` for the float nearest
 * 43.74, 43.7400016…): what the writer of the file typed, within the float's 7 significant digits.
 */
export function f32Text(v: number): string {
  if (!Number.isFinite(v)) return String(v);
  let n = v;
  for (let p = 1; p <= 9; p++) {
    const x = Number(v.toPrecision(p));
    if (Math.fround(x) === v) {
      n = x;
      break;
    }
  }
  const s = String(n);
  return /e/.test(s) ? n.toFixed(12).replace(/\.?0+$/, '') : s;
}

/** What a record says in a line (errors and notes): `SH 600519 2015-07-17 category 1`. */
export function gbbqWhere(r: GbbqRecord): string {
  const d = String(r.date);
  const date = isDate(r.date) ? `${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6)}` : d;
  return `${GBBQ_MARKETS[r.market] ?? `market ${r.market}`} ${r.code} ${date} category ${r.category}`;
}
