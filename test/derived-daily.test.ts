/**
 * Daily bars derived from 1m bars at ingest (src/ingest/derived-daily.ts, docs/ingest.md), on
 * real minutes: 688001.SH (TDX 1-minute file, with amounts) against an independent computation
 * from the file and against the TDX 5-minute file; the SSE Composite (czsc 1-minute file)
 * against the TDX index daily file. Then the rules: partial days, loaded daily bars win, changed
 * minutes derive again, export writes loaded bars only; and derived bars feed weekly bars, daily
 * indicators and price limits. SQLite and PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HAVE_SHARED, SHARED, STORES, walk, type Harness } from './helpers.js';
import { emptyHarness, sleep, tmp } from './ingest-helpers.js';
import pg from 'pg';
import { openStore } from '../src/derived/open.js';
import type { Store } from '../src/store/types.js';
import { DerivedDaily } from '../src/derived/derived-daily.js';
import { marketEpoch } from '../src/lib/time.js';
import { ingest, type IngestResult } from '../src/ingest/load.js';
import { dataset, DATASETS } from '../src/datasets/registry.js';
import { fileDataset } from '../src/ingest/registry.js';
import { exportDatasets } from '../src/ingest/export.js';
import { summaryLines } from '../src/ingest/report.js';
import { checkBarPacks } from '../src/derived/bar-packs.js';
import { divRoundHalfUp, formatScaled, parseScaled } from '../src/lib/decimal.js';

if (!HAVE_SHARED) console.warn(`${SHARED} is absent: the tests of daily bars derived from real 1m bars are skipped.`);

type Src = Record<string, string>;
const rows = (file: string): Src[] => {
  const [head, ...lines] = readFileSync(join(SHARED, 'ohlcv', file), 'utf8')
    .trim()
    .split(/\r?\n/);
  const names = head.split(',');
  return lines.map((l) => Object.fromEntries(l.split(',').map((v, i) => [names[i], v])));
};
/** A source decimal in integer units of 10^-scale (exact, or the test fails). */
const units = (s: string, scale: number) => {
  const v = parseScaled(s, scale);
  if (v === null) throw new Error(`not exact at ${scale} decimals: ${s}`);
  return v;
};
const px = (milli: number) => formatScaled(milli, 3, 2);
const money = (fen: number) => formatScaled(fen, 2, 2);
/** czsc volumes are written as floats ("720858300.0"): the integer, when the fraction is zero. */
const wholeShares = (s: string) => {
  const m = /^(\d+)(\.0+)?$/.exec(s);
  if (!m) throw new Error(`not a whole number of shares: ${s}`);
  return m[1];
};

/** A day's bar computed here from source minutes (in file order): the oracle. */
interface DayBar {
  date: string;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
  amount: number;
}
function dayBars(
  mins: { date: string; open: number; high: number; low: number; close: number; volume: number; amount: number }[],
): DayBar[] {
  const out: DayBar[] = [];
  for (const m of mins) {
    const d = out.at(-1);
    if (d && d.date === m.date) {
      d.high = Math.max(d.high, m.high);
      d.low = Math.min(d.low, m.low);
      d.close = m.close;
      d.volume += m.volume;
      d.amount += m.amount;
    } else out.push({ ...m });
  }
  return out;
}
const apiDay = (b: DayBar) => [b.date, px(b.open), px(b.high), px(b.low), px(b.close), b.volume, money(b.amount)];
const served = (b: any) => [b.trade_date, b.open, b.high, b.low, b.close, b.volume, b.amount];

/** 688001.SH minutes (TDX .lc1): prices in 1/1000 CNY, amounts in fen. */
const star = () =>
  rows('tdx_sh688001_1min.csv').map((r) => ({
    date: r.date,
    time: r.time,
    open: units(r.open, 3),
    high: units(r.high, 3),
    low: units(r.low, 3),
    close: units(r.close, 3),
    volume: Number(r.volume_shares),
    amount: units(r.amount_cny, 2),
  }));
type Minute = ReturnType<typeof star>[number];
const MINUTE_HEADER = 'instrument_id,timestamp,open,high,low,close,volume,amount';
const minuteLine = (id: string, m: Minute) =>
  `${id},${m.date}T${m.time}:00+08:00,${px(m.open)},${px(m.high)},${px(m.low)},${px(m.close)},${m.volume},${money(m.amount)}`;

const INSTRUMENTS = [
  'instrument_id,kind,board,name,name_en,list_date,base_date,base_value',
  '000001.SH,index,,上证指数,SSE Composite Index,1991-07-15,1990-12-19,100.00',
  '688001.SH,equity,star,华兴源创,Suzhou HYC Technology,2019-07-22,,',
];
const MARKETS = [
  'id,name,name_local,mic,timezone,currency,opened',
  'SH,Shanghai Stock Exchange,上海证券交易所,XSHG,Asia/Shanghai,CNY,1990-12-19',
];

for (const kind of STORES) {
  describe.skipIf(!HAVE_SHARED)(`daily bars derived from 1m bars at ingest (${kind.name})`, () => {
    let h: Harness;
    let dir: string;
    let minutes: Minute[];
    const load = async (files: Record<string, string[]>): Promise<IngestResult> => {
      const names = Object.keys(files);
      for (const n of names) writeFileSync(join(dir, `${n}.csv`), files[n].join('\n') + '\n');
      const r = await ingest(
        h.store,
        names.map((n) => ({ path: join(dir, `${n}.csv`), dataset: dataset(n)! })),
      );
      expect(r.errors).toEqual([]);
      return r;
    };
    const days = async () => walk(h, '/api/v1/equities/688001.SH/bars?interval=1d&from=2021-01-01', 1000);
    /** The last minute of a day as a vendor's correction: close and high moved up by 0.50. */
    const corrected = (date: string) => {
      const m = { ...minutes.filter((x) => x.date === date).at(-1)! };
      m.close += 500;
      m.high = Math.max(m.high, m.close);
      return m;
    };

    /** Another empty store with the market and the instruments, and 688001.SH's internal key. */
    const referenceStore = async () => {
      const other = await emptyHarness(await kind.url());
      for (const [n, lines] of Object.entries({ markets: MARKETS, instruments: INSTRUMENTS }))
        writeFileSync(join(dir, `${n}.csv`), lines.join('\n') + '\n');
      expect(
        (
          await ingest(
            other.store,
            ['markets', 'instruments'].map((n) => ({ path: join(dir, `${n}.csv`), dataset: dataset(n)! })),
          )
        ).errors,
      ).toEqual([]);
      const [[inst]] = await other.store.selectRows('select inst from instruments where id = ?', ['688001.SH']);
      return { other, inst };
    };
    /** A minute as a row of bars_1m's upsert target (what ingest writes). */
    const minuteRow = (inst: unknown, m: Minute) => {
      const date = Number(m.date.replaceAll('-', ''));
      const v: Record<string, unknown> = {
        ...m,
        inst,
        date,
        ts: marketEpoch(date, Number(m.time.slice(0, 2)) * 60 + Number(m.time.slice(3))),
      };
      return dataset('bars_1m')!.target.columns.map((c) => v[c]);
    };

    beforeAll(async () => {
      dir = tmp();
      h = await emptyHarness(await kind.url());
      minutes = star();
      // Every minute but the afternoon of the last day: that day is partial for now.
      const last = minutes.at(-1)!.date;
      const first = minutes.filter((m) => m.date !== last || m.time <= '11:30');
      await load({ markets: MARKETS, instruments: INSTRUMENTS, bars_1m: [MINUTE_HEADER, ...first.map((m) => minuteLine('688001.SH', m))] });
    });
    afterAll(async () => {
      await h?.close();
    });

    it('a day with some of its minutes gets the bar of the minutes loaded', async () => {
      const last = minutes.at(-1)!.date;
      const morning = dayBars(minutes.filter((m) => m.date === last && m.time <= '11:30'));
      expect(morning).toHaveLength(1);
      expect(served((await days()).at(-1))).toEqual(apiDay(morning[0]));
    });

    it("688001.SH: every day's open, high, low, close, volume and amount are those of its minutes (12 days)", async () => {
      const last = minutes.at(-1)!.date;
      const r = await load({
        bars_1m: [MINUTE_HEADER, ...minutes.filter((m) => m.date === last && m.time > '11:30').map((m) => minuteLine('688001.SH', m))],
      });
      // The partial day is derived again from all its stored minutes (the morning read back).
      expect(r.derived).toEqual({ inserted: 0, updated: 1, unchanged: 0 });
      expect(summaryLines(r)).toContain('bars_1d derived from bars_1m: 0 inserted, 1 updated, 0 unchanged');
      const want = dayBars(minutes);
      expect(want).toHaveLength(12);
      expect((await days()).map(served)).toEqual(want.map(apiDay));
      // Derived bars carry the close time as their timestamp, like loaded ones.
      expect((await days())[0].timestamp).toBe('2021-04-23T15:00:00+08:00');
    });

    it('688001.SH: the TDX 5-minute file aggregated to days gives the same daily bars', async () => {
      const five = dayBars(
        rows('tdx_sh688001_5min.csv').map((r) => ({
          date: r.date,
          open: units(r.open, 3),
          high: units(r.high, 3),
          low: units(r.low, 3),
          close: units(r.close, 3),
          volume: Number(r.volume_shares),
          amount: units(r.amount_cny, 2),
        })),
      );
      expect(five.map((b) => b.date)).toEqual(['2021-06-01', '2021-06-02', '2021-06-03']);
      const api = await walk(h, '/api/v1/equities/688001.SH/bars?interval=1d&from=2021-06-01&to=2021-06-03', 10);
      expect(api.map(served)).toEqual(five.map(apiDay));
    });

    it('derived bars feed weekly bars, daily indicators and price limits', async () => {
      const want = dayBars(minutes);
      // Weekly: ISO weeks of the days, each labelled by its last day.
      const monday = (d: string) => {
        const t = new Date(`${d}T00:00:00Z`);
        t.setUTCDate(t.getUTCDate() - ((t.getUTCDay() + 6) % 7));
        return t.getTime();
      };
      const weeks = dayBars(want.map((b) => ({ ...b, date: String(monday(b.date)) }))).map((w) => ({
        ...w,
        date: want.filter((b) => String(monday(b.date)) === w.date).at(-1)!.date,
      }));
      expect(weeks.map((w) => w.date)).toEqual(['2021-04-23', '2021-04-30', '2021-05-07', '2021-05-10', '2021-06-03']);
      expect((await walk(h, '/api/v1/equities/688001.SH/bars?interval=1w&from=2021-01-01', 100)).map(served)).toEqual(weeks.map(apiDay));

      // MA5 of the derived closes, from the fifth day.
      const ma = await walk(h, '/api/v1/equities/688001.SH/technical-indicators/ma?interval=1d&from=2021-01-01', 100);
      expect(ma.map((p) => p.trade_date ?? p.timestamp.slice(0, 10))).toEqual(want.map((b) => b.date));
      expect(ma[3].values.ma5).toBeUndefined();
      for (let i = 4; i < want.length; i++) {
        const sum = want.slice(i - 4, i + 1).reduce((s, b) => s + b.close, 0); // milli CNY
        expect(ma[i].values.ma5, want[i].date).toBe(formatScaled(sum * 2, 4, 4)); // sum / 5 in CNY = sum * 2 / 10^4
      }

      // STAR 20%: each traded day's limits from the previous derived close.
      const limits = new Map(
        (await walk(h, '/api/v1/equities/688001.SH/price-limits?from=2021-04-01&to=2021-06-30', 1000)).map((l) => [l.trade_date, l]),
      );
      expect(limits.has('2021-04-23')).toBe(false); // no previous close stored
      for (let i = 1; i < want.length; i++) {
        const l = limits.get(want[i].date);
        const pc = want[i - 1].close;
        const up = Math.max(Number(divRoundHalfUp(BigInt(pc) * 120n, 1000n)) * 10, pc + 10);
        const down = Math.min(Number(divRoundHalfUp(BigInt(pc) * 80n, 1000n)) * 10, pc - 10);
        expect([l?.suspended, l?.pre_close, l?.limit_up, l?.limit_down], want[i].date).toEqual([false, px(pc), px(up), px(down)]);
      }
      expect(limits.get('2021-05-31')?.suspended).toBe(true);
    });

    it('loading the same minutes again changes nothing', async () => {
      const r = await load({ bars_1m: [MINUTE_HEADER, ...minutes.map((m) => minuteLine('688001.SH', m))] });
      expect(r.derived).toEqual({ inserted: 0, updated: 0, unchanged: 12 });
      expect(r.dataVersion).toBeNull();
    });

    it("minutes stored without their day's bar (before derivation existed) get it when loaded again", async () => {
      const { other, inst } = await referenceStore();
      try {
        const day = minutes.filter((m) => m.date === '2021-06-02');
        // Written as ingest wrote them before this change: the minutes only.
        await other.store.bulkTransaction((s) =>
          s.upsert(
            dataset('bars_1m')!.target,
            day.map((m) => minuteRow(inst, m)),
          ),
        );
        const daily = () => walk(other, '/api/v1/equities/688001.SH/bars?interval=1d&from=2021-01-01', 10);
        expect(await daily()).toEqual([]);
        writeFileSync(join(dir, 'bars_1m.csv'), [MINUTE_HEADER, ...day.map((m) => minuteLine('688001.SH', m))].join('\n') + '\n');
        const r = await ingest(other.store, [{ path: join(dir, 'bars_1m.csv'), dataset: dataset('bars_1m')! }]);
        expect([r.datasets[0].unchanged, r.derived]).toEqual([240, { inserted: 1, updated: 0, unchanged: 0 }]);
        expect(r.dataVersion).not.toBeNull();

        expect((await daily()).map(served)).toEqual(dayBars(day).map(apiDay));
      } finally {
        await other.close();
      }
    });

    it('a changed minute of a derived day derives the day again', async () => {
      const m = corrected('2021-04-27');
      const r = await load({ bars_1m: [MINUTE_HEADER, minuteLine('688001.SH', m)] });
      expect(r.derived).toEqual({ inserted: 0, updated: 1, unchanged: 0 });
      const want = dayBars(minutes.map((x) => (x.date === m.date && x.time === m.time ? m : x))).find((b) => b.date === m.date)!;
      expect(want.close).toBe(m.close);
      const api = await walk(h, `/api/v1/equities/688001.SH/bars?interval=1d&date=${m.date}`, 10);
      expect(api.map(served)).toEqual([apiDay(want)]);
    });

    it('minutes written out of order, or twice, in one command: the last row of each minute counts', async () => {
      const fix = corrected('2021-05-06');
      const a = minutes
        .filter((m) => m.date === fix.date)
        .map((m) => (m.time === fix.time ? fix : m))
        .reverse();
      const b = minutes.filter((m) => m.date === '2021-05-07');
      // 2021-05-07: its 15:00 minute corrected, then the original again (which stays).
      const r = await load({
        bars_1m: [MINUTE_HEADER, ...[...a, ...b.slice(0, -1), corrected('2021-05-07'), b.at(-1)!].map((m) => minuteLine('688001.SH', m))],
      });
      expect(r.derived).toEqual({ inserted: 0, updated: 1, unchanged: 1 });
      const want = dayBars([...a].reverse().concat(b));
      expect(want[0].close).toBe(fix.close);
      const api = await walk(h, '/api/v1/equities/688001.SH/bars?interval=1d&from=2021-05-06&to=2021-05-07', 10);
      expect(api.map(served)).toEqual(want.map(apiDay));
    });

    it('a loaded daily bar wins: it replaces the derived one, later minutes leave it alone, export writes loaded bars only', async () => {
      const derived = Object.fromEntries((await days()).map((b) => [b.trade_date, b]));
      // Test values: the derived bars with 100 more shares, as another vendor's daily bar could be.
      const daily = (d: string) => {
        const b = derived[d];
        return `688001.SH,${d},${b.open},${b.high},${b.low},${b.close},${b.volume + 100},${b.amount}`;
      };
      const HEADER = 'instrument_id,trade_date,open,high,low,close,volume,amount';
      // Alone: the loaded bar replaces the derived one; then a changed minute of that day leaves it.
      let r = await load({ bars_1d: [HEADER, daily('2021-04-28')] });
      expect(r.datasets[0].updated).toBe(1);
      r = await load({ bars_1m: [MINUTE_HEADER, minuteLine('688001.SH', corrected('2021-04-28'))] });
      expect(r.derived).toEqual({ inserted: 0, updated: 0, unchanged: 0 });
      // In one command with changed minutes of the same day: the daily file loads first and wins.
      r = await load({
        bars_1m: [MINUTE_HEADER, minuteLine('688001.SH', corrected('2021-04-29'))],
        bars_1d: [HEADER, daily('2021-04-29')],
      });
      expect(r.derived).toEqual({ inserted: 0, updated: 0, unchanged: 0 });
      const after = Object.fromEntries((await days()).map((b) => [b.trade_date, b]));
      for (const d of ['2021-04-28', '2021-04-29']) expect(after[d], d).toEqual({ ...derived[d], volume: derived[d].volume + 100 });
      for (const d of Object.keys(derived).filter((x) => x !== '2021-04-28' && x !== '2021-04-29')) expect(after[d], d).toEqual(derived[d]);

      const path = join(dir, 'export.csv');
      await exportDatasets(h.store, [dataset('bars_1d')!], { path });
      expect(readFileSync(path, 'utf8').trim().split('\n')).toEqual([HEADER, daily('2021-04-28'), daily('2021-04-29')]);
      expect((await checkBarPacks(h.store)).problems).toEqual([]);
    });

    it("SSE Composite: minutes give the index daily file's open, close and volume on all 11 days; high and low within 0.64", async () => {
      const src = rows('czsc_000001.XSHG_1MIN.csv');
      // The czsc file has no amount: the column is left out (unknown, served as null).
      const lines = [
        MINUTE_HEADER.replace(',amount', ''),
        ...src.map((r) => `000001.SH,${r.dt.replace(' ', 'T')}+08:00,${r.open},${r.high},${r.low},${r.close},${wholeShares(r.vol)}`),
      ];
      const r = await load({ bars_1m: lines });
      expect(r.derived.inserted).toBe(11);
      const official = new Map(rows('tdx_sh000001_index_daily.csv').map((d) => [d.date, d]));
      const mins = dayBars(
        src.map((m) => ({
          date: m.dt.slice(0, 10),
          open: units(m.open, 3),
          high: units(m.high, 3),
          low: units(m.low, 3),
          close: units(m.close, 3),
          volume: Number(wholeShares(m.vol)),
          amount: 0,
        })),
      );
      const api = await walk(h, '/api/v1/indices/000001.SH/bars?interval=1d&from=2020-07-01&to=2020-07-15', 100);
      expect(api.map((b) => b.trade_date)).toEqual([...official.keys()].filter((d) => d >= '2020-07-01' && d <= '2020-07-15'));
      expect(api).toHaveLength(11);
      api.forEach((b, i) => {
        const d = official.get(b.trade_date)!;
        expect([b.open, b.close, b.volume, b.amount], b.trade_date).toEqual([
          px(units(d.open, 3)),
          px(units(d.close, 3)),
          Number(d.volume_lots) * 100,
          null,
        ]);
        // High and low are the minutes' extremes, within 0.64 points of the official ones (README).
        expect([b.high, b.low], b.trade_date).toEqual([px(mins[i].high), px(mins[i].low)]);
        expect(Math.abs(mins[i].high - units(d.high, 3)), b.trade_date).toBeLessThanOrEqual(640);
        expect(Math.abs(mins[i].low - units(d.low, 3)), b.trade_date).toBeLessThanOrEqual(640);
      });
      expect((await checkBarPacks(h.store)).problems).toEqual([]);
    });

    it('a large load derives as it goes (every N rows kept): days cut between derivations are derived again from all their minutes', async () => {
      const other = await emptyHarness(await kind.url());
      try {
        const files = {
          markets: MARKETS,
          instruments: INSTRUMENTS,
          bars_1m: [MINUTE_HEADER, ...minutes.map((m) => minuteLine('688001.SH', m))],
        };
        for (const [n, lines] of Object.entries(files)) writeFileSync(join(dir, `${n}.csv`), lines.join('\n') + '\n');
        const r = await ingest(
          other.store,
          Object.keys(files).map((n) => ({ path: join(dir, `${n}.csv`), dataset: dataset(n)! })),
          { batchSize: 50, deriveEvery: 100 },
        );
        expect(r.errors).toEqual([]);
        // Every day was first derived from part of its minutes, then again (240 minutes a day, 100 at a time).
        expect(r.derived.inserted).toBe(12);
        expect(r.derived.updated).toBeGreaterThanOrEqual(12);
        expect((await walk(other, '/api/v1/equities/688001.SH/bars?interval=1d&from=2021-01-01', 1000)).map(served)).toEqual(
          dayBars(minutes).map(apiDay),
        );
        expect((await checkBarPacks(other.store)).problems).toEqual([]);
      } finally {
        await other.close();
      }
    });

    it.skipIf(kind.name !== 'postgres')(
      'two commands deriving one day at once from different minutes: the bar has all of them (PostgreSQL)',
      async () => {
        const { other, inst } = await referenceStore();
        const second = openStore(other.url);
        const watcher = new pg.Client({ connectionString: other.url });
        await watcher.connect();
        try {
          const day = minutes.filter((m) => m.date === '2021-06-01');
          const target = dataset('bars_1m')!.target;
          /** One command's transaction: writes `mins`, derives, then waits for `hold` before committing. */
          const command = (store: Store, mins: Minute[], derived: () => void, hold: Promise<void>) =>
            store.bulkTransaction(async (s) => {
              const d = await DerivedDaily.load(s, dataset('bars_1d')!.target);
              const rows = mins.map((m) => minuteRow(inst, m));
              await s.upsert(target, rows);
              await d.written(s, target, rows);
              await d.derive(s);
              derived();
              await hold;
            });
          let release!: () => void, firstDerived!: () => void;
          const hold = new Promise<void>((r) => {
            release = r;
          });
          const first = new Promise<void>((r) => {
            firstDerived = r;
          });
          const morning = command(
            other.store,
            day.filter((m) => m.time <= '11:30'),
            firstDerived,
            hold,
          );
          await first;
          const afternoon = command(
            second,
            day.filter((m) => m.time > '11:30'),
            () => {},
            Promise.resolve(),
          );
          // The afternoon's command waits on a lock of the uncommitted morning's before it finishes.
          const waiting = async () =>
            (
              await watcher.query(
                "select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'",
              )
            ).rows[0].n;
          for (let t = 0; t < 100 && (await waiting()) === 0; t++) await sleep(50);
          expect(await waiting()).toBe(1);
          release();
          await Promise.all([morning, afternoon]);
          const [want] = dayBars(day);
          const [got] = await other.store.selectRows(
            'select open, high, low, close, volume, amount from bars_1d where inst = ? and date = ?',
            [inst, 20210601],
          );
          expect(got.map(Number)).toEqual([want.open, want.high, want.low, want.close, want.volume, want.amount]);
          expect((await checkBarPacks(other.store)).problems).toEqual([]);
        } finally {
          await watcher.end();
          await second.close();
          await other.close();
        }
      },
    );

    it('export --all, then ingest --dir into an empty store: the same daily bars, derived again where they were derived', async () => {
      const out = tmp('mds-derived-move-');
      await exportDatasets(h.store, DATASETS, { dir: out });
      const files = readdirSync(out).map((f) => ({ path: join(out, f), dataset: fileDataset(f)!.dataset }));
      const other = await emptyHarness(await kind.url());
      try {
        const r = await ingest(other.store, files);
        expect(r.errors).toEqual([]);
        // 12 days of 688001.SH, two of them loaded; 11 of the index.
        expect(r.derived).toEqual({ inserted: 10 + 11, updated: 0, unchanged: 0 });
        for (const path of [
          '/api/v1/equities/688001.SH/bars?interval=1d&from=2021-01-01',
          '/api/v1/indices/000001.SH/bars?interval=1d&from=2020-01-01',
        ]) {
          expect(await walk(other, path, 1000)).toEqual(await walk(h, path, 1000));
        }
        const marks = (x: Harness) => x.store.selectRows('select count(*) from bars_1d_derived', []).then((v) => Number(v[0][0]));
        expect(await marks(other)).toBe(await marks(h));
        expect((await checkBarPacks(other.store)).problems).toEqual([]);
      } finally {
        await other.close();
      }
    });
  });
}
