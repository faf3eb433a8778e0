/**
 * Reads an ingest file as batches of records, streamed: gzip is detected by its magic bytes,
 * the format by the extension (`.csv`, `.ndjson`/`.jsonl`, optionally `.gz`), else by the
 * first character (`{` is NDJSON). Never holds more than a chunk of the file in memory.
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

/**
 * Yields record batches of `path`. `onBytes` reports the bytes of the file read so far
 * (compressed bytes for gzip), for progress.
 */
export async function* readRecords(path: string, format: Format | null, onBytes: (n: number) => void = () => {}): AsyncGenerator<SourceRecord[]> {
  let info: SourceInfo;
  try { info = await sourceInfo(path); } catch (e) { throw new IngestIOError(`${path}: ${(e as Error).message}`); }
  const file = createReadStream(path, { highWaterMark: CHUNK });
  const stream: Readable = info.gzip ? file.pipe(createGunzip({ chunkSize: CHUNK })) : file;
  if (info.gzip) file.on('error', (e) => stream.destroy(e));
  stream.setEncoding('utf8');
  let fmt = format;
  let first = true;
  const csv = new CsvParser();
  const nd = new NdjsonParser();
  const pieces = stream[Symbol.asyncIterator]();
  try {
    for (;;) {
      let next: IteratorResult<string>;
      try { next = await pieces.next(); } catch (e) { throw new IngestIOError(`${path}: ${(e as Error).message}`); }
      if (next.done) break;
      let chunk = next.value;
      onBytes(file.bytesRead);
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
