/**
 * Tongdaxin's security name tables, `T0002/hq_cache/{shm,szm,bjm}.tnf` (docs/ingest.md, "Whole
 * market: a Tongdaxin install"), of the 314-byte generation: a 50-byte header (the quote server's
 * address as text, then the table's date as u32 YYYYMMDD at offset 42), then 314-byte records:
 * code at 0 (6 ASCII digits, NUL), name at 23 (GBK, up to the first NUL), pinyin initials at 285
 * (ASCII, up to the NUL), the previous close as f32 at 276 (not read). Names are kept as
 * Tongdaxin writes them, full-width letters and padding spaces included (`万 科Ａ`). A file of
 * another size is of another layout (`tnfCount` null): not read.
 *
 * Pure functions over a Buffer and a record's byte offset (see tdx-gbbq.ts).
 */
import { isDate } from '../../lib/time.js';

export const TNF_HEADER = 50;
export const TNF_RECORD = 314;
/** The name field's bytes at most (names found are up to 8: 4 characters). */
const NAME_BYTES = 24;
const INITIALS_AT = 285;

export interface TnfRecord {
  code: string;
  /** As written (GBK decoded, outer spaces trimmed); null when the bytes are not GBK. */
  name: string | null;
  /** Upper-case ASCII as written (`GZMT`); empty when none. */
  initials: string;
}

/** The number of records, or null when the size is not a 50-byte header and whole 314-byte records. */
export function tnfCount(b: Buffer): number | null {
  return b.length >= TNF_HEADER && (b.length - TNF_HEADER) % TNF_RECORD === 0 ? (b.length - TNF_HEADER) / TNF_RECORD : null;
}

/** The table's date (YYYYMMDD) from its header, or null when it holds none. */
export function tnfDate(b: Buffer): number | null {
  if (b.length < TNF_HEADER) return null;
  const d = b.readUInt32LE(42);
  return isDate(d) ? d : null;
}

const GBK = new TextDecoder('gbk', { fatal: true });

/** Bytes from `from` up to the first NUL, at most `max`. */
function upToNul(b: Buffer, from: number, max: number): Buffer {
  const end = Math.min(from + max, b.length);
  const nul = b.indexOf(0, from);
  return b.subarray(from, nul >= 0 && nul < end ? nul : end);
}

/** The record at byte offset `o`. */
export function tnfRecordAt(b: Buffer, o: number): TnfRecord {
  let name: string | null;
  try {
    name = GBK.decode(upToNul(b, o + 23, NAME_BYTES)).trim();
  } catch {
    name = null;
  }
  return {
    code: upToNul(b, o, 7).toString('latin1'),
    name,
    initials: upToNul(b, o + INITIALS_AT, TNF_RECORD - INITIALS_AT)
      .toString('latin1')
      .replace(/[^A-Za-z0-9]/g, ''),
  };
}

/** Every record of a name table, or null when its size is of another layout. */
export function tnfRecords(b: Buffer): TnfRecord[] | null {
  const n = tnfCount(b);
  if (n === null) return null;
  const out: TnfRecord[] = new Array(n);
  for (let i = 0; i < n; i++) out[i] = tnfRecordAt(b, TNF_HEADER + i * TNF_RECORD);
  return out;
}
