/**
 * Reads an ingest file as batches of records, streamed: gzip is detected by its magic bytes,
 * the format by the extension (`.csv`, `.ndjson`/`.jsonl`, optionally `.gz`), else by the
 * first character (`{` is NDJSON). Never holds more than a chunk of the file in memory.
 * Text is decoded strictly in the file's encoding (UTF-8 unless told GBK or GB18030): bytes
 * that are not valid in it end the file with an error at their line, never with U+FFFD.
 */
import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { createGunzip } from 'node:zlib';
import type { Readable } from 'node:stream';
import { CsvParser } from './csv.js';
import type { Format } from './registry.js';

/** A CSV record (fields) or an NDJSON record (object), with its line. */
export interface SourceRecord { line: number; fields?: string[]; object?: Record<string, unknown>; error?: string }

export interface SourceInfo { size: number; gzip: boolean }

/** The text encodings of ingest files (`mds ingest --encoding`). */
export const ENCODINGS = ['utf8', 'gbk', 'gb18030'] as const;
export type Encoding = (typeof ENCODINGS)[number];
const LABEL: Record<Encoding, string> = { utf8: 'utf-8', gbk: 'gbk', gb18030: 'gb18030' };
const NAME: Record<Encoding, string> = { utf8: 'UTF-8', gbk: 'GBK', gb18030: 'GB18030' };
/** A strict decoder of `encoding`: invalid bytes throw, never become U+FFFD. */
export const strictDecoder = (encoding: Encoding) => new TextDecoder(LABEL[encoding], { fatal: true });

const CHUNK = 1 << 20;
/** Characters of a chunk parsed at a time (about). */
const PIECE = 1 << 16;

/** A file that cannot be read (missing, unreadable, corrupt gzip): a usage/IO problem, not a data one. */
export class IngestIOError extends Error {}

export async function sourceInfo(path: string): Promise<SourceInfo> {
  const { size } = await stat(path);
  const fh = await open(path, 'r');
  try {
    const head = Buffer.alloc(2);
    const { bytesRead } = await fh.read(head, 0, 2, 0);
    return { size, gzip: bytesRead === 2 && head[0] === 0x1f && head[1] === 0x8b };
  } finally {
    await fh.close();
  }
}

/** The format named by the extension, or null. */
export function formatOfName(path: string): Format | null {
  const m = /\.(csv|ndjson|jsonl)(\.gz)?$/i.exec(path);
  return m ? (m[1].toLowerCase() === 'csv' ? 'csv' : 'ndjson') : null;
}

/** The bytes of a file, gunzipped when it is gzip; `file` counts the bytes read from disk. */
function byteStream(path: string, gzip: boolean): { file: ReturnType<typeof createReadStream>; stream: Readable } {
  const file = createReadStream(path, { highWaterMark: CHUNK });
  const stream: Readable = gzip ? file.pipe(createGunzip({ chunkSize: CHUNK })) : file;
  if (gzip) file.on('error', (e) => stream.destroy(e));
  return { file, stream };
}

/**
 * Why a file is not text in `encoding`, read again from the start (only once decoding failed):
 * the first line (counted by LF bytes, which no character of these encodings contains) that is
 * not valid in it, and, for UTF-8, whether the whole file is valid GB18030 (GBK is a subset).
 */
export async function encodingError(path: string, gzip: boolean, encoding: Encoding): Promise<SourceRecord> {
  const strict = strictDecoder(encoding);
  const gb = encoding === 'utf8' ? strictDecoder('gb18030') : null;
  let gbValid = gb !== null;
  let line = 1;
  let bad = 0;
  let rest: Buffer = Buffer.alloc(0);
  const valid = (d: { decode(b: Uint8Array): string }, b: Uint8Array) => { try { d.decode(b); return true; } catch { return false; } };
  const { stream } = byteStream(path, gzip);
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      const b = rest.length ? Buffer.concat([rest, chunk]) : chunk;
      let p = 0;
      for (let nl = b.indexOf(10); nl !== -1; nl = b.indexOf(10, p)) {
        const text = b.subarray(p, nl + 1);
        if (bad === 0 && !valid(strict, text)) bad = line;
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
  if (bad === 0 && !valid(strict, rest)) bad = line;
  if (gbValid && !valid(gb!, rest)) gbValid = false;
  const hint = gbValid ? ': the file decodes as GB18030 (GBK is a subset of it), give --encoding gbk (or gb18030)'
    : encoding === 'utf8' ? ' (give --encoding gbk or gb18030 for a file in those)' : '';
  return { line: bad || line, error: `not valid ${NAME[encoding]} text${hint}; nothing of the file is loaded` };
}

/**
 * Yields record batches of `path`. `onBytes` reports the bytes of the file read so far
 * (compressed bytes for gzip), for progress. The text is decoded strictly in `encoding`
 * (across chunk boundaries): the first bytes not valid in it end the file with an error
 * record at their line (encodingError).
 */
export async function* readRecords(path: string, format: Format | null, onBytes: (n: number) => void = () => {},
  encoding: Encoding = 'utf8'): AsyncGenerator<SourceRecord[]> {
  let info: SourceInfo;
  try { info = await sourceInfo(path); } catch (e) { throw new IngestIOError(`${path}: ${(e as Error).message}`); }
  const { file, stream } = byteStream(path, info.gzip);
  const decoder = strictDecoder(encoding);
  let fmt = format;
  let first = true;
  const csv = new CsvParser();
  const nd = new NdjsonParser();
  const pieces = stream[Symbol.asyncIterator]();
  let ended = false;
  try {
    while (!ended) {
      let next: IteratorResult<Buffer>;
      try { next = await pieces.next(); } catch (e) { throw new IngestIOError(`${path}: ${(e as Error).message}`); }
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
  if (fmt === 'ndjson') nd.end(out); else csv.end(out);
  if (out.length) yield out;
}

/** Newline-delimited JSON: one object per line, blank lines skipped. */
export class NdjsonParser {
  private rest = '';
  private line = 1;

  /** Characters of an incomplete line held for the next chunk. */
  get pending(): number { return this.rest.length; }

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
