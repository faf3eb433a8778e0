/**
 * Reading a vendor's CSV file (vendor.ts's vendorCsv reads one, or an export's several), and the
 * conversion's errors.
 */
import { readRecords, type Encoding, type SourceRecord } from '../source.js';

/** One file of a several-file export (VendorOptions.parts). */
export interface FilePart {
  path: string;
  encoding?: Encoding;
}

/** A field a layout cannot convert: reported as `column: message` at the record's line. */
export class Bad extends Error {
  constructor(
    readonly column: string,
    message: string,
  ) {
    super(`${column}: ${message}`);
  }
}

/** A canonical record (field → text), several (one per market), or null for a skipped row. */
export type Converted = Record<string, string> | Record<string, string>[] | null;
export type Get = (column: string) => string;

/**
 * The records of a vendor CSV file: the header must name every column of `need`; each later
 * line is converted by `convert` (a Bad it throws is that line's error). Uses the canonical
 * streamed CSV reader.
 */
export async function* csvFile(
  part: FilePart,
  need: readonly string[],
  convert: (get: Get, line: number) => Converted,
  onBytes: (n: number) => void = () => {},
): AsyncGenerator<SourceRecord[]> {
  let ix: Map<string, number> | null = null;
  let width = 0;
  // A file refused before its header (bytes not valid in its encoding) is not an empty one.
  let refused = false;
  for await (const batch of readRecords(part.path, 'csv', onBytes, part.encoding)) {
    const out: SourceRecord[] = [];
    for (const rec of batch) {
      if (rec.error) {
        refused ||= ix === null;
        out.push(rec);
        continue;
      }
      const f = rec.fields!;
      if (ix === null) {
        ix = new Map(f.map((n, i) => [n.trim(), i]));
        width = f.length;
        const missing = need.filter((n) => !ix!.has(n));
        if (missing.length) {
          yield [
            {
              line: rec.line,
              error: `missing column${missing.length > 1 ? 's' : ''} ${missing.join(', ')}: expected a header with ${need.join(',')}`,
            },
          ];
          return;
        }
        continue;
      }
      if (f.length !== width) {
        out.push({ line: rec.line, error: `expected ${width} fields as in the header, got ${f.length}` });
        continue;
      }
      const map = ix;
      try {
        push(
          out,
          rec.line,
          convert((c) => {
            const i = map.get(c);
            return i === undefined ? '' : f[i].trim();
          }, rec.line),
        );
      } catch (e) {
        if (!(e instanceof Bad)) throw e;
        out.push({ line: rec.line, error: e.message });
      }
    }
    if (out.length) yield out;
  }
  if (ix === null && !refused) yield [{ line: 1, error: `empty file: expected a header row (${need.join(',')})` }];
}

/** Appends the converted record(s) of a line. */
export function push(out: SourceRecord[], line: number, c: Converted): void {
  if (c === null) return;
  if (Array.isArray(c)) for (const o of c) out.push({ line, object: o });
  else out.push({ line, object: c });
}
