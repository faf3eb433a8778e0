/**
 * Streaming RFC 4180 CSV: comma-separated, `"`-quoted fields (quotes doubled inside, line
 * breaks allowed), LF or CRLF line ends, blank lines skipped. Records carry the line they start
 * on. Lines without a quote take a fast path (split on commas).
 */
export interface CsvRecord {
  line: number;
  fields: string[];
  error?: string;
}
type Sink = { push(r: CsvRecord): unknown };

export class CsvParser {
  private rest = '';
  private line = 1;

  /** Characters of an incomplete record held for the next chunk. */
  get pending(): number {
    return this.rest.length;
  }

  /** Parses the complete records of `chunk` (plus what an earlier chunk left) into `out`. */
  push(chunk: string, out: Sink): void {
    this.parse(this.rest.length ? this.rest + chunk : chunk, false, out);
  }

  /** Parses what is left at the end of input. */
  end(out: Sink): void {
    if (this.rest.length) this.parse(this.rest, true, out);
    this.rest = '';
  }

  private parse(buf: string, final: boolean, out: Sink): void {
    const n = buf.length;
    let p = 0;
    let q = buf.indexOf('"');
    if (q === -1) {
      // No quote at all in the buffer: split it whole (the last piece is an incomplete line).
      const lines = buf.split('\n');
      const last = final ? lines.length : lines.length - 1;
      for (let i = 0; i < last; i++) {
        let l = lines[i];
        if (l.length && l.charCodeAt(l.length - 1) === 13) l = l.slice(0, -1);
        if (l.length) out.push({ line: this.line, fields: l.split(',') });
        this.line++;
      }
      this.rest = final ? '' : lines[lines.length - 1];
      return;
    }
    while (p < n) {
      let nl = buf.indexOf('\n', p);
      if (nl === -1) {
        if (!final) break;
        nl = n;
      }
      if (q !== -1 && q < p) q = buf.indexOf('"', p);
      if (q === -1 || q > nl) {
        let end = nl;
        if (end > p && buf.charCodeAt(end - 1) === 13) end--;
        if (end > p) out.push({ line: this.line, fields: buf.slice(p, end).split(',') });
        this.line++;
        p = nl + 1;
        continue;
      }
      const r = quoted(buf, p, final);
      if (r === null) break;
      out.push({ line: this.line, fields: r.fields, ...(r.error ? { error: r.error } : {}) });
      for (let i = p; i < r.next; i++) if (buf.charCodeAt(i) === 10) this.line++;
      if (r.next >= n && buf.charCodeAt(n - 1) !== 10) this.line++;
      p = r.next;
    }
    this.rest = p < n ? buf.slice(p) : '';
  }
}

/** One record with quoted fields from `p`; null when the buffer ends inside it (more input needed). */
function quoted(buf: string, p: number, final: boolean): { fields: string[]; next: number; error?: string } | null {
  const n = buf.length;
  const fields: string[] = [];
  const fail = (at: number, error: string) => {
    const nl = buf.indexOf('\n', at);
    return { fields, next: nl === -1 ? n : nl + 1, error };
  };
  let i = p;
  for (;;) {
    if (buf.charCodeAt(i) === 34) {
      let s = '';
      i++;
      for (;;) {
        const j = buf.indexOf('"', i);
        if (j === -1) return final ? fail(n, 'unterminated quoted field') : null;
        s += buf.slice(i, j);
        if (j + 1 >= n && !final) return null;
        if (buf.charCodeAt(j + 1) === 34) {
          s += '"';
          i = j + 2;
          continue;
        }
        i = j + 1;
        break;
      }
      fields.push(s);
    } else {
      let j = i;
      while (j < n) {
        const c = buf.charCodeAt(j);
        if (c === 44 || c === 10) break;
        if (c === 34) return fail(j, 'a quote inside an unquoted field (quote the whole field and double the quote)');
        j++;
      }
      if (j >= n && !final) return null;
      let end = j;
      if (end > i && buf.charCodeAt(end - 1) === 13 && (j >= n || buf.charCodeAt(j) === 10)) end--;
      fields.push(buf.slice(i, end));
      i = j;
    }
    if (i >= n) return final ? { fields, next: n } : null;
    const c = buf.charCodeAt(i);
    if (c === 44) {
      i++;
      if (i >= n && !final) return null;
      continue;
    }
    if (c === 10) return { fields, next: i + 1 };
    if (c === 13) {
      if (i + 1 >= n) return final ? { fields, next: n } : null;
      if (buf.charCodeAt(i + 1) === 10) return { fields, next: i + 2 };
    }
    return fail(i, 'unexpected text after a closing quote');
  }
}

/** How export writes a field (lib/csv.ts: the API's files write theirs alike). */
export { csvField } from '../lib/csv.js';
