/**
 * Reads an ingest file as batches of records, streamed: gzip is detected by its magic bytes,
 * the format by the extension (`.csv`, `.ndjson`/`.jsonl`, optionally `.gz`), else by the
 * first character (`{` is NDJSON). Never holds more than a chunk of the file in memory.
 * Text is decoded strictly in the file's encoding (UTF-8 unless told GBK or GB18030): bytes
 * that are not valid in it end the file with an error at their line, never with U+FFFD. A file
 * with a NUL byte is not text at all (binaryFile: a Tongdaxin file, UTF-16).
 */
import { closeSync, createReadStream, openSync, readSync, statSync } from 'node:fs';
import { createGunzip } from 'node:zlib';
import type { Readable } from 'node:stream';
import { CsvParser } from './csv.js';
import type { Format } from './registry.js';

/** A CSV record (fields) or an NDJSON record (object), with its line. */
export interface SourceRecord {
  line: number;
  /** The file the record is from when a layout reads several as one (VendorOptions.parts); else the command's file. */
  file?: string;
  fields?: string[];
  object?: Record<string, unknown>;
  error?: string;
  /**
   * The record's column values already parsed (the dataset's columns in order, stored units), from
   * a binary layout that made them exactly as parsing their text would and within the columns'
   * bounds: the row's checks and derived columns still apply (ingest/rows.ts).
   */
  values?: unknown[];
}

export interface SourceInfo {
  size: number;
  gzip: boolean;
}

/** The text encodings of ingest files (`mds ingest --encoding`). */
export const ENCODINGS = ['utf8', 'gbk', 'gb18030'] as const;
export type Encoding = (typeof ENCODINGS)[number];
const NAME: Record<Encoding, string> = { utf8: 'UTF-8', gbk: 'GBK', gb18030: 'GB18030' };

interface Decoder {
  decode(input?: Uint8Array, options?: { stream?: boolean }): string;
}

/**
 * The characters of GBK's one- and two-byte codes (ASCII, 0x80 €, lead 0x81–0xFE with trail
 * 0x40–0xFE but 0x7F), as the gb18030 decoder reads them (WHATWG's gbk decoder is its gb18030
 * decoder), by UTF-16 unit; made at the first use of GBK. The 23,940 pairs all decode, each to
 * one BMP character.
 */
let gbkChars: Uint8Array | null = null;
function gbkRepertoire(): Uint8Array {
  if (gbkChars) return gbkChars;
  const pairs: number[] = [];
  for (let lead = 0x81; lead <= 0xfe; lead++) for (let trail = 0x40; trail <= 0xfe; trail++) if (trail !== 0x7f) pairs.push(lead, trail);
  const text = new TextDecoder('gb18030', { fatal: true }).decode(Uint8Array.from(pairs));
  const set = new Uint8Array(0x10000).fill(1, 0, 0x80);
  for (let i = 0; i < text.length; i++) set[text.charCodeAt(i)] = 1;
  return (gbkChars = set);
}

/** A private-use code point (BMP, or planes 15–16 by their high surrogate): what a GBK/GB18030 decoder makes of unassigned and user-defined codes. */
const privateUse = (c: number) => (c >= 0xe000 && c <= 0xf8ff) || (c >= 0xdb80 && c <= 0xdbff);

/**
 * A GB18030 decoder that also refuses what is not a character of `encoding`: codes that are
 * unassigned or user-defined (decoded to the Private Use Area) and, for GBK, the four-byte codes
 * GBK lacks. Platform decoders let such bytes through: Node's `gbk` decodes 0xFF to U+F8F5.
 */
class ChineseDecoder implements Decoder {
  private readonly inner = new TextDecoder('gb18030', { fatal: true });
  private readonly gbk: Uint8Array | null;
  constructor(encoding: 'gbk' | 'gb18030') {
    this.gbk = encoding === 'gbk' ? gbkRepertoire() : null;
  }
  decode(input?: Uint8Array, options?: { stream?: boolean }): string {
    const s = this.inner.decode(input, options);
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c >= 0x80 && ((this.gbk !== null && this.gbk[c] === 0) || privateUse(c)))
        throw new TypeError(`not ${this.gbk ? 'GBK' : 'GB18030'} text`);
    }
    return s;
  }
}

/** A strict decoder of `encoding`: bytes that are not a character of it throw, never become U+FFFD (nor a private-use character). */
export const strictDecoder = (encoding: Encoding): Decoder =>
  encoding === 'utf8' ? new TextDecoder('utf-8', { fatal: true }) : new ChineseDecoder(encoding);

const CHUNK = 1 << 20;
/** Characters of a chunk parsed at a time (about). */
const PIECE = 1 << 16;

/** A file that cannot be read (missing, unreadable, corrupt gzip): a usage/IO problem, not a data one. */
export class IngestIOError extends Error {}

export async function sourceInfo(path: string): Promise<SourceInfo> {
  // Synchronous: four calls of microseconds, where each await of the thread pool is a turn of
  // the event loop (a whole market is thousands of files, each looked at twice).
  const { size } = statSync(path);
  const fd = openSync(path, 'r');
  try {
    const head = Buffer.alloc(2);
    const bytesRead = readSync(fd, head, 0, 2, 0);
    return { size, gzip: bytesRead === 2 && head[0] === 0x1f && head[1] === 0x8b };
  } finally {
    closeSync(fd);
  }
}

/** The format named by the extension, or null. */
export function formatOfName(path: string): Format | null {
  const m = /\.(csv|ndjson|jsonl)(\.gz)?$/i.exec(path);
  return m ? (m[1].toLowerCase() === 'csv' ? 'csv' : 'ndjson') : null;
}

/** The bytes of a file, gunzipped when it is gzip; `file` counts the bytes read from disk. */
export function byteStream(path: string, gzip: boolean): { file: ReturnType<typeof createReadStream>; stream: Readable } {
  const file = createReadStream(path, { highWaterMark: CHUNK });
  const stream: Readable = gzip ? file.pipe(createGunzip({ chunkSize: CHUNK })) : file;
  if (gzip) file.on('error', (e) => stream.destroy(e));
  return { file, stream };
}

/**
 * The character (counted from 1) of `line` whose bytes are not valid in `encoding`: the one
 * after the longest prefix that decodes (as a stream: a character cut off by the prefix's end is
 * not an error yet); one past the last character when the line only lacks the end of one.
 */
function badColumn(encoding: Encoding, line: Uint8Array): number {
  const decoded = (n: number): string | null => {
    try {
      return strictDecoder(encoding).decode(line.subarray(0, n), { stream: true });
    } catch {
      return null;
    }
  };
  let lo = 0,
    hi = line.length;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (decoded(mid) === null) hi = mid - 1;
    else lo = mid;
  }
  return [...decoded(lo)!].length + 1;
}

/**
 * Why a file is not text in `encoding`, read again from the start (only once decoding failed):
 * the first line (counted by LF bytes, which no character of these encodings contains) that is
 * not valid in it and the character of the line where it stops being so, and, for UTF-8,
 * whether the whole file is valid GB18030 (GBK is a subset).
 */
export async function encodingError(path: string, gzip: boolean, encoding: Encoding): Promise<SourceRecord> {
  const strict = strictDecoder(encoding);
  const gb = encoding === 'utf8' ? strictDecoder('gb18030') : null;
  let gbValid = gb !== null;
  let line = 1;
  let bad = 0;
  let badLine: Uint8Array | null = null;
  let rest: Buffer = Buffer.alloc(0);
  const valid = (d: Decoder, b: Uint8Array) => {
    try {
      d.decode(b);
      return true;
    } catch {
      return false;
    }
  };
  const { stream } = byteStream(path, gzip);
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      const b = rest.length ? Buffer.concat([rest, chunk]) : chunk;
      let p = 0;
      for (let nl = b.indexOf(10); nl !== -1; nl = b.indexOf(10, p)) {
        const text = b.subarray(p, nl + 1);
        if (bad === 0 && !valid(strict, text)) {
          bad = line;
          badLine = Uint8Array.from(text);
        }
        if (gbValid && !valid(gb!, text)) gbValid = false;
        if (bad !== 0 && !gbValid) break;
        line++;
        p = nl + 1;
      }
      if (bad !== 0 && !gbValid) break;
      rest = b.subarray(p);
    }
  } catch (e) {
    throw new IngestIOError(`${path}: ${(e as Error).message}`);
  } finally {
    stream.destroy();
  }
  if (bad === 0 && !valid(strict, rest)) {
    bad = line;
    badLine = rest;
  }
  if (gbValid && !valid(gb!, rest)) gbValid = false;
  const hint = gbValid
    ? ': the file decodes as GB18030 (GBK is a subset of it), give --encoding gbk (or gb18030)'
    : encoding === 'utf8'
      ? ' (give --encoding gbk or gb18030 for a file in those)'
      : '';
  const at = badLine ? ` at character ${badColumn(encoding, badLine)} of the line` : '';
  return { line: bad || line, error: `not valid ${NAME[encoding]} text${at}${hint}; nothing of the file is loaded` };
}

/**
 * Why a file holding a NUL byte (at `at`, counted from 0 in its decompressed bytes, whose first
 * bytes are `head`) is not loaded: no CSV or NDJSON text has one (PostgreSQL text cannot hold it
 * either). UTF-16 text (a byte-order mark, or NULs only at one parity: ASCII in UTF-16) is told to
 * be saved as UTF-8; anything else is binary, and the command that reads it is named (Tongdaxin's
 * `.day`/`.lc1` by name, else both).
 */
export function binaryFile(path: string, at: number, head: Uint8Array): IngestIOError {
  const n = Math.min(head.length, 4096);
  // NULs at even and at odd offsets.
  const nuls = [0, 0];
  for (let i = 0; i < n; i++) if (head[i] === 0) nuls[i & 1]++;
  const bom = n >= 2 && ((head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff));
  if (bom || (nuls[0] + nuls[1] >= n / 4 && (nuls[0] === 0 || nuls[1] === 0)))
    return new IngestIOError(`${path}: UTF-16 text (a NUL byte at byte ${at + 1}): save the file as UTF-8 (or GBK, with --encoding gbk)`);
  const ext = /\.(day|lc1|lc5)$/i.exec(path)?.[1].toLowerCase();
  const how =
    ext === 'day'
      ? 'a Tongdaxin daily file loads with --format tdx-day (mds ingest bars_1d FILE --format tdx-day)'
      : ext === 'lc1'
        ? 'a Tongdaxin 1-minute file loads with --format tdx-lc1 (mds ingest bars_1m FILE --format tdx-lc1)'
        : ext === 'lc5'
          ? 'a Tongdaxin 5-minute file is not loaded (5-minute bars are aggregated from 1-minute bars: load the .lc1 file with --format tdx-lc1)'
          : 'Tongdaxin files load with --format tdx-day (.day, bars_1d) or --format tdx-lc1 (.lc1, bars_1m)';
  return new IngestIOError(
    `${path}: a binary file, not CSV or NDJSON text (a NUL byte at byte ${at + 1}): ${how}, a whole Tongdaxin vipdoc folder with mds ingest --tdx VIPDOC; nothing was loaded`,
  );
}

/**
 * Yields record batches of `path`. `onBytes` reports the bytes of the file read so far
 * (compressed bytes for gzip), for progress. The text is decoded strictly in `encoding`
 * (across chunk boundaries): the first bytes not valid in it end the file with an error
 * record at their line (encodingError).
 */
export async function* readRecords(
  path: string,
  format: Format | null,
  onBytes: (n: number) => void = () => {},
  encoding: Encoding = 'utf8',
): AsyncGenerator<SourceRecord[]> {
  let info: SourceInfo;
  try {
    info = await sourceInfo(path);
  } catch (e) {
    throw new IngestIOError(`${path}: ${(e as Error).message}`);
  }
  const { file, stream } = byteStream(path, info.gzip);
  const decoder = strictDecoder(encoding);
  let fmt = format;
  let first = true;
  const csv = new CsvParser();
  const nd = new NdjsonParser();
  const pieces = stream[Symbol.asyncIterator]();
  let ended = false;
  // Bytes (decompressed) before the chunk, and the file's first ones (binaryFile).
  let seen = 0,
    head: Uint8Array = new Uint8Array(0);
  try {
    while (!ended) {
      let next: IteratorResult<Buffer>;
      try {
        next = await pieces.next();
      } catch (e) {
        throw new IngestIOError(`${path}: ${(e as Error).message}`);
      }
      if (!next.done) {
        const nul = next.value.indexOf(0);
        if (nul !== -1) throw binaryFile(path, seen + nul, seen === 0 ? next.value : head);
        if (seen === 0) head = Uint8Array.from(next.value.subarray(0, 4096));
        seen += next.value.length;
      }
      let chunk: string;
      try {
        // The last call flushes: a character cut off by the end of the file is an error too.
        chunk = next.done ? decoder.decode() : decoder.decode(next.value, { stream: true });
      } catch {
        stream.destroy();
        yield [await encodingError(path, info.gzip, encoding)];
        return;
      }
      ended = !!next.done;
      if (!next.done) onBytes(file.bytesRead);
      if (!chunk.length) continue;
      if (first) {
        if (chunk.charCodeAt(0) === 0xfeff) chunk = chunk.slice(1);
        fmt ??= /^\s*\{/.test(chunk) ? 'ndjson' : 'csv';
        first = false;
      }
      // Parsed and yielded in pieces of about PIECE characters cut after a line end: fewer
      // records are alive at once (a young-generation GC copies whatever is alive, and all of a
      // chunk's records are until the batch that takes the last of them is written). Once a
      // record is left incomplete over a whole piece (a long quoted field), the rest of the chunk
      // goes in whole, so that the record is not parsed again piece by piece.
      const parser = fmt === 'csv' ? csv : nd;
      for (let p = 0; p < chunk.length;) {
        let end = chunk.length;
        if (end - p > 2 * PIECE && parser.pending < PIECE) {
          const nl = chunk.indexOf('\n', p + PIECE);
          if (nl !== -1) end = nl + 1;
        }
        const out: SourceRecord[] = [];
        parser.push(p === 0 && end === chunk.length ? chunk : chunk.slice(p, end), out);
        if (out.length) yield out;
        p = end;
      }
    }
  } finally {
    stream.destroy();
    file.destroy();
  }
  const out: SourceRecord[] = [];
  if (fmt === 'ndjson') nd.end(out);
  else csv.end(out);
  if (out.length) yield out;
}

/** Newline-delimited JSON: one object per line, blank lines skipped. */
export class NdjsonParser {
  private rest = '';
  private line = 1;

  /** Characters of an incomplete line held for the next chunk. */
  get pending(): number {
    return this.rest.length;
  }

  push(chunk: string, out: SourceRecord[]): void {
    const buf = this.rest.length ? this.rest + chunk : chunk;
    let p = 0;
    for (let nl = buf.indexOf('\n'); nl !== -1; nl = buf.indexOf('\n', p)) {
      this.one(buf.slice(p, nl), out);
      p = nl + 1;
    }
    this.rest = buf.slice(p);
  }

  end(out: SourceRecord[]): void {
    if (this.rest.length) this.one(this.rest, out);
    this.rest = '';
  }

  private one(text: string, out: SourceRecord[]): void {
    const line = this.line++;
    if (!/\S/.test(text)) return;
    try {
      const v = JSON.parse(text);
      if (v === null || typeof v !== 'object' || Array.isArray(v)) out.push({ line, error: 'expected a JSON object on the line' });
      else out.push({ line, object: v });
    } catch (e) {
      out.push({ line, error: `invalid JSON (${(e as Error).message})` });
    }
  }
}
