import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get, harness, STORES, walk, type Harness } from './helpers.js';
import { tmp } from './ingest-helpers.js';
import { checkBarPacks } from '../src/derived/bar-packs.js';
import { ingest } from '../src/ingest/load.js';
import { dataset } from '../src/datasets/registry.js';
import { decodeDay, encodeDay, type DayRecord } from '../src/store/day-records.js';
import { makeDays } from '../src/derived/market-days.js';
import type { BulkSession } from '../src/store/types.js';

/**
 * The days of a market (derived/market-days.ts) checked against the per-instrument operations,
 * which compute limits on request from the bars (query/equity-days.ts): every instrument's bar,
 * reference price and limits of a day, the breadth counts and the pools; and kept whole by
 * ingests that add a day, correct history, or mark ST periods (mds check finds nothing).
 */
describe('day records', () => {
  it('decode to the records encoded, nulls and unknown amounts included', () => {
    const records: DayRecord[] = [
      {
        inst: 7,
        open: 10_000,
        high: 11_000,
        low: 9_900,
        close: 11_000,
        preClose: 10_000,
        up: 11_000,
        down: 9_000,
        volume: 2 ** 40 + 3,
        amount: 2 ** 50 + 1,
        streak: 3,
        previousStreak: 2,
        flags: 515,
      },
      {
        inst: 9,
        open: 0,
        high: 0,
        low: 0,
        close: 0,
        preClose: null,
        up: null,
        down: null,
        volume: 0,
        amount: -1,
        streak: 0,
        previousStreak: 0,
        flags: 512,
      },
    ];
    const day = decodeDay(encodeDay(records));
    expect(day.n).toBe(2);
    expect([day.record(0), day.record(1)]).toEqual(records);
    expect(decodeDay(encodeDay([])).n).toBe(0);
  });
});

describe.each(STORES)('the days of a market on $name', ({ url }) => {
  let h: Harness;
  let days: string[];
  beforeAll(async () => {
    h = await harness(await url());
    days = (await walk(h, '/api/v1/markets/SH/trading-days?from=2025-01-02&to=2025-11-20', 1000)).map((d) => d.date);
  });
  afterAll(async () => {
    await h?.close();
  });

  it("hold every instrument's bar and each equity's limits of a day, and its breadth, as the per-instrument operations give them", async () => {
    const instruments = [
      ...(await walk(h, '/api/v1/equities', 1000)),
      ...(await walk(h, '/api/v1/indices', 1000)),
      ...(await walk(h, '/api/v1/funds', 1000)),
    ];
    // The first days (listing days, no reference yet), an ordinary one, and the last.
    for (const date of [days[0], days[1], days[100], days[days.length - 1]]) {
      let bars = 0;
      for (const market of ['SH', 'SZ', 'BJ']) {
        const cross = new Map((await walk(h, `/api/v1/markets/${market}/bars?date=${date}`, 1000)).map((b) => [b.instrument_id, b]));
        const breadth = { listed: 0, advancers: 0, decliners: 0, unchanged: 0, limit_up: 0, limit_down: 0, suspended: 0 };
        for (const x of instruments.filter((i) => i.market === market)) {
          const kind = x.kind as string;
          const c = cross.get(x.id);
          // Funds have no bars operation of their own yet: their bar is in the cross-section, with the fund's 3 decimals.
          if (kind === 'fund') {
            if (c) expect(c.close, x.id).toMatch(/^\d+\.\d{3}$/);
            continue;
          }
          const own = (await get(h, `/api/v1/${kind === 'equity' ? 'equities' : 'indices'}/${x.id}/bars?interval=1d&date=${date}`)).body
            .data[0];
          expect(c === undefined, `${x.id} ${date} in the cross-section`).toBe(own === undefined);
          if (own) {
            bars++;
            for (const k of ['open', 'high', 'low', 'close', 'volume', 'amount', 'trade_date', 'timestamp'] as const)
              expect(c[k], `${x.id} ${date} ${k}`).toBe(own[k]);
          }
          if (kind !== 'equity') continue;
          const limit = (await get(h, `/api/v1/equities/${x.id}/price-limits?date=${date}`)).body.data[0];
          if (!limit) continue;
          breadth.listed++;
          if (limit.suspended) {
            breadth.suspended++;
            continue;
          }
          expect([c.pre_close, c.limit_up, c.limit_down], `${x.id} ${date} limits`).toEqual([
            limit.pre_close,
            limit.limit_up,
            limit.limit_down,
          ]);
          if (limit.pre_close !== null) {
            const [close, pre] = [Number(own.close), Number(limit.pre_close)];
            if (close > pre) breadth.advancers++;
            else if (close < pre) breadth.decliners++;
            else breadth.unchanged++;
          }
          if (limit.limit_up !== null && own.close === limit.limit_up) breadth.limit_up++;
          if (limit.limit_down !== null && own.close === limit.limit_down) breadth.limit_down++;
        }
        const [stored] = (await get(h, `/api/v1/markets/${market}/breadth?date=${date}`)).body.data;
        if (breadth.listed === 0) continue;
        expect(stored, `${market} ${date}`).toMatchObject(breadth);
      }
      expect(bars, date).toBeGreaterThan(0);
    }
  });

  it('keep an equity whose announced suspension is still open suspended to the last day, in its price limits and the breadth', async () => {
    const last = days[days.length - 1];
    const open: { id: string; market: string; start: string }[] = [];
    for (const e of await walk(h, '/api/v1/equities', 1000)) {
      const s = (await walk(h, `/api/v1/equities/${e.id}/suspensions`, 1000)).find((x) => x.end_date === null && x.halt_from === null);
      if (s) open.push({ id: e.id, market: e.market, start: s.start_date });
    }
    expect(open.length).toBeGreaterThan(0);
    for (const o of open) {
      const rows = await walk(h, `/api/v1/equities/${o.id}/price-limits?from=${o.start}`, 1000);
      expect(rows.length, o.id).toBeGreaterThan(0);
      expect(rows.every((r) => r.suspended) && rows[0].trade_date === o.start && rows.at(-1).trade_date === last, o.id).toBe(true);
    }
    // The last day's breadth counts them (the per-equity comparison above checks every count).
    for (const market of new Set(open.map((o) => o.market))) {
      const [b] = (await get(h, `/api/v1/markets/${market}/breadth?date=${last}`)).body.data;
      expect(b.suspended).toBeGreaterThanOrEqual(open.filter((o) => o.market === market).length);
    }
  });

  it('walk a cross-section by pages, filtered, and give the whole day as a bars_1d file that loads back unchanged', async () => {
    const date = days[days.length - 1];
    const all = await walk(h, `/api/v1/markets/SZ/bars?date=${date}`, 1000);
    const paged = await walk(h, `/api/v1/markets/SZ/bars?date=${date}`, 7);
    expect(paged).toEqual(all);
    expect(all.map((b) => b.instrument_id)).toEqual([...all.map((b) => b.instrument_id)].sort());
    const chinext = await walk(h, `/api/v1/markets/SZ/bars?date=${date}&board=chinext`, 1000);
    expect(chinext.length).toBeGreaterThan(0);
    expect(chinext).toEqual(all.filter((b) => b.board === 'chinext'));
    expect(await walk(h, `/api/v1/markets/SZ/bars?date=${date}&kind=index`, 1000)).toEqual(all.filter((b) => b.kind === 'index'));

    const csv = await h.app.inject({ url: `/api/v1/markets/SZ/bars?date=${date}`, headers: { 'x-api-key': h.key, accept: 'text/csv' } });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    const lines = csv.body.trimEnd().split('\n');
    expect(lines[0]).toBe('instrument_id,trade_date,open,high,low,close,volume,amount');
    expect(lines.slice(1)).toEqual(
      all.map((b) => [b.instrument_id, b.trade_date, b.open, b.high, b.low, b.close, b.volume, b.amount ?? ''].join(',')),
    );
    const json = await h.app.inject({ url: `/api/v1/markets/SZ/bars?date=${date}`, headers: { 'x-api-key': h.key } });
    expect(csv.headers.etag).not.toBe(json.headers.etag);
    const again = await h.app.inject({
      url: `/api/v1/markets/SZ/bars?date=${date}`,
      headers: { 'x-api-key': h.key, accept: 'text/csv', 'if-none-match': csv.headers.etag as string },
    });
    expect(again.statusCode).toBe(304);
    const nd = await h.app.inject({
      url: `/api/v1/markets/SZ/bars?date=${date}&kind=fund`,
      headers: { 'x-api-key': h.key, accept: 'application/x-ndjson' },
    });
    expect(
      nd.body
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l)),
    ).toEqual(
      all
        .filter((b) => b.kind === 'fund')
        .map((b) => ({
          instrument_id: b.instrument_id,
          trade_date: b.trade_date,
          open: b.open,
          high: b.high,
          low: b.low,
          close: b.close,
          volume: b.volume,
          amount: b.amount,
        })),
    );

    const dir = tmp('mds-market-days-');
    writeFileSync(join(dir, 'bars_1d.csv'), csv.body);
    const r = await ingest(h.store, [{ path: join(dir, 'bars_1d.csv'), dataset: dataset('bars_1d')! }]);
    expect(r.ok).toBe(true);
    expect(r.datasets[0]).toMatchObject({ rows: all.length, inserted: 0, updated: 0, unchanged: all.length });
  });

  it("make no write after a sweep that failed: a month's write still in flight is awaited before the transaction rolls back", async () => {
    const before = await h.store.selectRows('select count(*), sum(n) from market_days', []);
    let reads = 0,
      failed = false,
      late = 0;
    const rollback = new Error('roll back');
    await expect(
      h.store.bulkTransaction(async (s) => {
        const session: BulkSession = {
          ...s,
          // The third month's read fails, while the second month's write waits on a timer.
          queryRows: async (sql, params) => {
            if (sql.includes('from bars_1d_packs where month = ?') && ++reads === 3) throw new Error('read failed');
            return s.queryRows(sql, params);
          },
          query: async <T>(sql: string, params?: unknown[]) => {
            if (sql.startsWith('insert into market_days')) {
              await new Promise((r) => setTimeout(r, 30));
              if (failed) late++;
            }
            return s.query<T>(sql, params);
          },
        };
        await expect(makeDays(session, 0)).rejects.toThrow('read failed');
        failed = true;
        await new Promise((r) => setTimeout(r, 100));
        throw rollback;
      }),
    ).rejects.toBe(rollback);
    expect(late).toBe(0);
    expect(await h.store.selectRows('select count(*), sum(n) from market_days', [])).toEqual(before);
  });

  it('refuse an unknown market, a day that is not a trading day, and date with from', async () => {
    expect((await get(h, '/api/v1/markets/XX/bars')).status).toBe(404);
    expect((await get(h, '/api/v1/markets/XX/breadth')).status).toBe(404);
    const weekend = await get(h, '/api/v1/markets/SH/bars?date=2025-11-22');
    expect([weekend.status, weekend.body.errors[0].source.parameter]).toEqual([400, 'date']);
    const both = await get(h, '/api/v1/markets/SH/breadth?date=2025-11-20&from=2025-11-01');
    expect([both.status, both.body.errors[0].code]).toEqual([400, 'conflicting_parameters']);
  });

  it('follow ingests: a new day, a corrected bar in the past, an ST period; the stored days stay what the packs make', async () => {
    const dir = tmp('mds-market-days-');
    const last = days[days.length - 1];
    const sh = await walk(h, `/api/v1/markets/SH/bars?date=${last}&kind=equity`, 1000);
    // A next day: a main-board equity under a 10% limit closes at its up limit, another is absent (suspended).
    const limits = await Promise.all(
      sh.map(async (x) => (await get(h, `/api/v1/equities/${x.instrument_id}/price-limits?date=${last}`)).body.data[0]),
    );
    const [a, b] = sh.filter((x, i) => x.board === 'main' && limits[i].limit_pct === '10');
    const next = '2025-11-21',
      after = '2025-11-24';
    const cents = Math.round(Number(a.close) * 100);
    const upCents = Math.floor((cents * 11 + 5) / 10);
    const up = `${Math.floor(upCents / 100)}.${String(upCents % 100).padStart(2, '0')}`;
    const rows = sh
      .filter((x) => x.instrument_id !== b.instrument_id)
      .map((x) =>
        (x === a
          ? [x.instrument_id, next, x.close, up, x.close, up, 1000, '']
          : [x.instrument_id, next, x.close, x.close, x.close, x.close, 100, '1.00']
        ).join(','),
      );
    // The suspended one trades again the day after: its day without a bar is a suspension between bars.
    rows.push([b.instrument_id, after, b.close, b.close, b.close, b.close, 100, '1.00'].join(','));
    writeFileSync(join(dir, 'bars_1d.csv'), ['instrument_id,trade_date,open,high,low,close,volume,amount', ...rows].join('\n') + '\n');
    // A bar of the first days, corrected, and an ST period from the middle of the year.
    const early = (await walk(h, `/api/v1/markets/SH/bars?date=${days[3]}&kind=equity`, 1))[0];
    writeFileSync(
      join(dir, 'fix.csv'),
      `instrument_id,trade_date,open,high,low,close,volume,amount\n${early.instrument_id},${days[3]},${early.open},${early.high},${early.low},${early.low},${early.volume},${early.amount}\n`,
    );
    writeFileSync(join(dir, 'st.csv'), `instrument_id,start_date\n${b.instrument_id},${days[150]}\n`);
    const r = await ingest(h.store, [
      { path: join(dir, 'bars_1d.csv'), dataset: dataset('bars_1d')! },
      { path: join(dir, 'fix.csv'), dataset: dataset('bars_1d')! },
      { path: join(dir, 'st.csv'), dataset: dataset('st_periods')! },
    ]);
    expect(r.errors).toEqual([]);
    expect((await checkBarPacks(h.store)).problems).toEqual([]);
    const limitUps = (await walk(h, `/api/v1/equities/pools/limit_up?date=${next}`, 1000)).map((m) => m.instrument_id);
    expect(limitUps).toContain(a.instrument_id);
    const [breadth] = (await get(h, `/api/v1/markets/SH/breadth?date=${next}`)).body.data;
    expect(breadth.suspended).toBeGreaterThanOrEqual(1);
    expect(breadth.unknown_amounts).toBe(1);
    const suspended = (await get(h, `/api/v1/equities/${b.instrument_id}/price-limits?date=${next}`)).body.data[0];
    expect(suspended).toMatchObject({ suspended: true, is_st: true, limit_pct: '5' });
    expect((await walk(h, `/api/v1/markets/SH/bars?date=${next}`, 1000)).map((x) => x.instrument_id)).not.toContain(b.instrument_id);

    // Instruments: a new name changes no day; a listing date moved into the history changes that equity's days from then on.
    const c = sh[sh.length - 1];
    writeFileSync(join(dir, 'renamed.csv'), `instrument_id,kind,board,name\n${c.instrument_id},equity,${c.board},改名后\n`);
    writeFileSync(
      join(dir, 'relisted.csv'),
      `instrument_id,kind,board,name,list_date\n${c.instrument_id},equity,${c.board},改名后,${days[120]}\n`,
    );
    const subNew = async () => (await walk(h, `/api/v1/equities/pools/sub_new?date=${days[130]}`, 1000)).map((m) => m.instrument_id);
    const before = await subNew();
    for (const f of ['renamed.csv', 'relisted.csv']) {
      const x = await ingest(h.store, [{ path: join(dir, f), dataset: dataset('instruments')! }]);
      expect(x.errors, f).toEqual([]);
      expect((await checkBarPacks(h.store)).problems, f).toEqual([]);
      // Listed on days[120], it is sub-new ten days later (when it trades that day).
      if (
        f === 'relisted.csv' &&
        (await get(h, `/api/v1/equities/${c.instrument_id}/bars?interval=1d&date=${days[130]}`)).body.data.length
      ) {
        expect(await subNew()).toContain(c.instrument_id);
      } else if (f === 'renamed.csv') expect(await subNew()).toEqual(before);
    }
  });
});
