/**
 * Recorded response corpus: every operation of the OpenAPI document, with each value of each
 * enumerated parameter, date windows, a small page and the page after it, and a few refusals,
 * answered by the small demo. The status, content type, size and a SHA-256 of the body bytes of
 * each response are compared with `test/corpus/responses.tsv.gz`, on every store: a refactoring must
 * leave every byte of every answer as it was. After an intended change of output, record again
 * with `RECORD_CORPUS=1 npx vitest run test/corpus.test.ts` (SQLite records; every store is
 * compared) and say in the commit why the bytes changed.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { gunzipSync, gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get, harness, SMALL_DEMO, STORES, type Harness } from './helpers.js';

const FILE = fileURLToPath(new URL('./corpus/responses.tsv.gz', import.meta.url));
const RECORD = process.env.RECORD_CORPUS === '1';
/** Dates of the small demo: a window with 1m bars and ticks at its end, one in the middle. */
const WINDOWS = [
  ['2025-03-03', '2025-04-30'],
  ['2025-11-18', '2025-11-20'],
];

interface Param {
  name: string;
  in: 'path' | 'query';
  required?: boolean;
  schema: { type?: string; format?: string; enum?: string[] };
}
/**
 * A response as compared: status, body bytes, the first 16 hex digits of its SHA-256, content
 * type. The file has a line `status bytes sha path [type]` per request (the type when not JSON).
 */
const JSON_TYPE = 'application/json; charset=utf-8';
const line = (status: number, bytes: number, sha: string, type: string) => `${status}\t${bytes}\t${sha}\t${type}`;

/** The requests of the corpus, built from the document and the demo's ids (in a fixed order). */
async function requests(h: Harness): Promise<string[]> {
  const doc = (await get(h, '/openapi.json', {})).body;
  const ids = async (path: string) => (await get(h, `${path}?page[size]=1000`)).body.data.map((x: { id: string }) => x.id) as string[];
  const pick = (xs: string[]) => [...new Set([xs[0], xs[Math.floor(xs.length / 2)], xs[xs.length - 1]])];
  const known = new Map<string, string[]>();
  for (const tag of ['equities', 'indices', 'funds']) known.set(`instrument_id:${tag}`, pick(await ids(`/api/v1/${tag}`)));
  known.set('market', await ids('/api/v1/markets'));
  known.set('pool_type', await ids('/api/v1/equities/pools'));
  const out: string[] = [];
  for (const [template, item] of Object.entries<Record<string, any>>(doc.paths)) {
    const op = item.get;
    // A stream does not end (test/events.test.ts covers it).
    if (op.operationId === 'streamEvents') continue;
    const params: Param[] = op.parameters ?? [];
    const tag = op.tags?.[0] ?? '';
    let paths = [template];
    for (const p of params.filter((q) => q.in === 'path')) {
      const values = p.schema.enum ?? known.get(`${p.name}:${tag}`) ?? known.get(p.name) ?? [];
      paths = paths.flatMap((t) => values.map((v) => t.replace(`{${p.name}}`, encodeURIComponent(v))));
    }
    const query = params.filter((q) => q.in === 'query');
    // Required parameters take their first value in every variant; each variant changes one thing.
    const base = query.filter((q) => q.required).map((q) => [q.name, q.schema.enum?.[0] ?? '1d']);
    const variant = (extra: string[][]) => {
      const m = new Map([...base, ...extra].map(([k, v]) => [k, v]));
      return [...m].map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&');
    };
    const variants: string[] = [variant([])];
    for (const q of query) for (const v of q.schema.enum ?? []) variants.push(variant([[q.name, v]]));
    const names = new Set(query.map((q) => q.name));
    const intervals = query.find((q) => q.name === 'interval')?.schema.enum ?? [undefined];
    for (const [a, b] of WINDOWS)
      for (const iv of intervals) {
        const with_ = (xs: string[][]) => variant(iv ? [['interval', iv], ...xs] : xs);
        if (names.has('from') && names.has('to')) {
          variants.push(
            with_([
              ['from', a],
              ['to', b],
            ]),
          );
          // Intraday bounds on intraday series (quotes, trades, minute bars).
          variants.push(
            with_([
              ['from', `${b}T09:45:00+08:00`],
              ['to', `${b}T14:00:00+08:00`],
            ]),
          );
        }
        if (names.has('date')) variants.push(with_([['date', b]]));
      }
    if (names.has('page[size]'))
      for (const iv of intervals) variants.push(variant([...(iv ? [['interval', iv]] : []), ['page[size]', '7']]));
    for (const path of paths) for (const v of new Set(variants)) out.push(v ? `${path}?${v}` : path);
  }
  // Refusals: an unknown id, a malformed value, a tampered cursor.
  out.push('/api/v1/equities/999999.SH', '/api/v1/equities/pools/limit_up?date=2025-13-01', '/api/v1/markets/SH/trading-days?page[size]=0');
  return out;
}

describe.each(STORES)('recorded response corpus on $name', ({ name, url }) => {
  let h: Harness;
  beforeAll(async () => {
    h = await harness(await url(), SMALL_DEMO);
  }, 300_000);
  afterAll(async () => h?.close());

  it('answers every request of the corpus with the recorded bytes', async () => {
    const seen: Record<string, string> = {};
    const list = await requests(h);
    for (const path of list) {
      const r = await get(h, path);
      const record = (p: string, res: typeof r) => {
        // An error names its request by a random id: the only bytes that may differ, with when the demo was built.
        // The change log's records say when their version was committed: when the demo was built.
        const body = (res.status >= 400 ? res.payload.replace(/"request_id":"[^"]*"/, '"request_id":""') : res.payload).replace(
          /"committed_at":"[^"]*"/g,
          '"committed_at":""',
        );
        seen[p] = line(
          res.status,
          Buffer.byteLength(body),
          createHash('sha256').update(body).digest('hex').slice(0, 16),
          String(res.headers['content-type'] ?? ''),
        );
      };
      record(path, r);
      const next = r.status === 200 ? r.body?.links?.next : null;
      if (next && path.includes('page[size]=7')) record(next, await get(h, next));
    }
    if (RECORD && name === 'sqlite') {
      writeFileSync(
        FILE,
        gzipSync(
          Object.entries(seen)
            .map(([p, l]) => {
              const [status, bytes, sha, type] = l.split('\t');
              return `${status}\t${bytes}\t${sha}\t${p}${type === JSON_TYPE ? '' : `\t${type}`}\n`;
            })
            .join(''),
          { level: 9 },
        ),
      );
      return;
    }
    if (!existsSync(FILE)) throw new Error(`${FILE} is missing: record it with RECORD_CORPUS=1`);
    const recorded: Record<string, string> = Object.fromEntries(
      gunzipSync(readFileSync(FILE))
        .toString('utf8')
        .trimEnd()
        .split('\n')
        .map((l) => {
          const f = l.split('\t');
          return [f[3], line(Number(f[0]), Number(f[1]), f[2], f[4] ?? JSON_TYPE)];
        }),
    );
    expect(Object.keys(seen).length).toBeGreaterThan(200);
    const differ = Object.keys({ ...recorded, ...seen }).filter((p) => recorded[p] !== seen[p]);
    expect(differ.slice(0, 20).map((p) => ({ path: p, recorded: recorded[p], now: seen[p] }))).toEqual([]);
  }, 600_000);
});
