/**
 * Arrow against JSON (issue 40): the whole market's daily bars of a year, fetched in process
 * (app.inject: no network) as JSON pages of 1,000 and as Arrow streams: `--by instrument` (the
 * default) asks each instrument of the store (equities, indices, funds: the instrument list) for
 * its daily bars of the last 244 trading days, one request each; `--by day` asks each market's
 * cross-section (listMarketBars) of each of those days, an Arrow stream the whole day. Reported: the bytes of each (and gzipped, as a client accepting gzip gets them), and the
 * client's decode time, median of paired rounds: JSON.parse and each decimal turned into an
 * exact scaled integer (what a client needs before arithmetic), against apache-arrow's
 * tableFromIPC and every column materialised (`toArray()`: typed arrays).
 *
 *   npx tsx bench/arrow.ts [--database PATH_OR_URL] [--by instrument|day] [--days 244] [--rounds 5]
 *
 * Without --database it makes the default demo store (220 equities) in a temporary file.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { tableFromIPC } from 'apache-arrow';
import { migrate, openStore } from '../src/derived/open.js';
import { generateDemo } from '../src/demo/generate.js';
import { buildApp } from '../src/app/app.js';
import { loadConfig } from '../src/app/config.js';
import { KeyStore } from '../src/auth/keys.js';

const ARROW = 'application/vnd.apache.arrow.stream';
/** The decimal fields of a bar (Bar, MarketBar) and their scales. */
const DECIMALS: Record<string, number> = {
  open: 3,
  high: 3,
  low: 3,
  close: 3,
  pre_close: 3,
  change: 3,
  limit_up: 3,
  limit_down: 3,
  pct_change: 2,
  amount: 2,
};

/** An exact decimal string as an integer scaled by 10^scale (a safe integer for these fields): no float in between. */
function scaled(s: string, scale: number): number {
  const dot = s.indexOf('.');
  const int = dot < 0 ? s : s.slice(0, dot);
  const frac = dot < 0 ? '' : s.slice(dot + 1);
  const v = Number(int.replace('-', '') + frac.padEnd(scale, '0'));
  return s.charCodeAt(0) === 45 ? -v : v;
}

function decodeJson(bodies: readonly Buffer[]): number {
  let rows = 0;
  for (const body of bodies) {
    const records = (JSON.parse(body.toString('utf8')) as { data: Record<string, unknown>[] }).data;
    for (const r of records) {
      for (const k in DECIMALS) {
        const v = r[k];
        if (typeof v === 'string') r[k] = scaled(v, DECIMALS[k]);
      }
      r.trade_date = Date.parse(r.trade_date as string);
    }
    rows += records.length;
  }
  return rows;
}

function decodeArrow(bodies: readonly Buffer[]): number {
  let rows = 0;
  for (const body of bodies) {
    const t = tableFromIPC(body);
    for (const f of t.schema.fields) t.getChild(f.name)!.toArray();
    rows += t.numRows;
  }
  return rows;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const mb = (n: number) => `${(n / 1e6).toFixed(2)} MB`;

async function main(): Promise<void> {
  const { values: o } = parseArgs({
    options: {
      database: { type: 'string' },
      by: { type: 'string', default: 'instrument' },
      days: { type: 'string', default: '244' },
      rounds: { type: 'string', default: '5' },
    },
  });
  const dir = o.database ? null : mkdtempSync(join(tmpdir(), 'mds-bench-arrow-'));
  const url = o.database ?? join(dir!, 'demo.sqlite');
  const store = openStore(url);
  await migrate(store);
  if (dir) await generateDemo(store);
  const { key } = await new KeyStore(store.db).create('bench-arrow');
  const app = await buildApp({ config: { ...loadConfig({}), databaseUrl: url }, store });
  await app.ready();
  try {
    const ask = async (path: string, accept: string) => {
      const r = await app.inject({ url: path, headers: { 'x-api-key': key, accept } });
      if (r.statusCode !== 200) throw new Error(`${path}: ${r.statusCode} ${r.body}`);
      return r;
    };
    const breadth = JSON.parse((await ask('/api/v1/markets/SH/breadth?order=desc&page[size]=1000', 'application/json')).body) as {
      data: { trade_date: string }[];
    };
    const days = breadth.data.map((d) => d.trade_date).slice(0, Number(o.days));
    const json: Buffer[] = [],
      arrow: Buffer[] = [];
    /** Every page of `path` as JSON (along links.next), and as Arrow (along Link). */
    const fetch = async (path: string) => {
      for (let next: string | null = `${path}&page[size]=1000`; next !== null;) {
        const body: Buffer = (await ask(next, 'application/json')).rawPayload;
        json.push(body);
        next = (JSON.parse(body.toString('utf8')) as { links: { next: string | null } }).links.next;
      }
      for (let next: string | null = `${path}&page[size]=1000`; next !== null;) {
        const r = await ask(next, ARROW);
        arrow.push(r.rawPayload);
        next = (r.headers.link as string | undefined)?.match(/^<([^>]+)>/)?.[1] ?? null;
      }
    };
    let instruments = 0;
    if (o.by === 'day') {
      for (const day of days) for (const market of ['SH', 'SZ', 'BJ']) await fetch(`/api/v1/markets/${market}/bars?date=${day}`);
    } else
      for (const kind of ['equities', 'indices', 'funds']) {
        const list = JSON.parse((await ask(`/api/v1/${kind}?page[size]=1000`, 'application/json')).body) as { data: { id: string }[] };
        for (const { id } of list.data) {
          instruments++;
          await fetch(`/api/v1/${kind}/${id}/bars?interval=1d&from=${days.at(-1)}&to=${days[0]}`);
        }
      }
    const bytes = (bs: Buffer[]) => bs.reduce((n, b) => n + b.length, 0);
    const gz = (bs: Buffer[]) => bs.reduce((n, b) => n + gzipSync(b, { level: 5 }).length, 0);
    const times: { json: number[]; arrow: number[] } = { json: [], arrow: [] };
    let rows = 0;
    for (let i = 0; i < Number(o.rounds); i++) {
      // Paired: both decoders in each round, their order alternating.
      for (const which of i % 2 ? (['arrow', 'json'] as const) : (['json', 'arrow'] as const)) {
        const t = process.hrtime.bigint();
        const n = which === 'json' ? decodeJson(json) : decodeArrow(arrow);
        times[which].push(Number(process.hrtime.bigint() - t) / 1e6);
        if (rows !== 0 && n !== rows) throw new Error(`JSON and Arrow hold different rows: ${rows} and ${n}`);
        rows = n;
      }
    }
    const asked = o.by === 'day' ? `each market's day: ${arrow.length} streams` : `${instruments} instruments, a request each`;
    console.log(`${days.length} days (${days.at(-1)}..${days[0]}), ${rows.toLocaleString('en-US')} bars of the whole market; ${asked}`);
    console.log(`| | JSON | Arrow | Arrow / JSON |`);
    console.log(`| --- | --- | --- | --- |`);
    console.log(`| bytes | ${mb(bytes(json))} | ${mb(bytes(arrow))} | ${(bytes(arrow) / bytes(json)).toFixed(2)} |`);
    console.log(`| gzipped | ${mb(gz(json))} | ${mb(gz(arrow))} | ${(gz(arrow) / gz(json)).toFixed(2)} |`);
    const [j, a] = [median(times.json), median(times.arrow)];
    console.log(`| decode (median of ${o.rounds}) | ${j.toFixed(0)} ms | ${a.toFixed(0)} ms | ${(a / j).toFixed(2)} |`);
  } finally {
    await app.close();
    await store.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
}

await main();
