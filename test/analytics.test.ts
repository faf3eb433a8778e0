import { recordVersion } from '../src/store/versions.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectPointDatesOfBars, get, harness, STORES, walk, type Harness } from './helpers.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PriceLimit } from '../src/http/schemas/analytics.js';
import { emptyHarness, tmp } from './ingest-helpers.js';
import { ingest } from '../src/ingest/load.js';
import { dataset } from '../src/datasets/registry.js';

/**
 * Analytics checked by independent recomputation in this file: adjusted prices from the raw
 * bars and corporate actions, limits from the board rules, pools from bars and limits.
 */
const milli = (s: string) => Math.round(Number(s) * 1000);
/** round half-up of n/d (both positive BigInt). */
const rdiv = (n: bigint, d: bigint) => (2n * n + d) / (2n * d);

describe.each(STORES)('analytics on $name', ({ url }) => {
  let h: Harness;
  let actions: any[];
  let byId: Map<string, any>;
  beforeAll(async () => {
    h = await harness(await url());
    actions = await h.store.db
      .selectFrom('corporate_actions as c')
      .innerJoin('instruments as i', 'i.inst', 'c.inst')
      .select(['i.id', 'c.ex_date', 'c.cash_per_share', 'c.bonus_ratio', 'c.transfer_ratio', 'c.rights_ratio', 'c.rights_price'])
      .execute();
    byId = new Map((await walk(h, '/api/v1/equities', 1000)).map((e) => [e.id, e]));
  });
  afterAll(async () => {
    await h?.close();
  });

  /** Backward factor steps (num/den per ex-date, milli prices) from the raw daily closes. */
  function steps(id: string, raw: any[]) {
    const out: { date: string; num: bigint; den: bigint }[] = [];
    for (const a of actions.filter((x) => x.id === id).sort((x, y) => x.ex_date - y.ex_date)) {
      const d = `${String(a.ex_date).slice(0, 4)}-${String(a.ex_date).slice(4, 6)}-${String(a.ex_date).slice(6)}`;
      const prev = [...raw].reverse().find((b) => b.trade_date < d);
      if (!prev) continue;
      const P = BigInt(milli(prev.close));
      // ref = (P - cash + rp*rr) / (1 + bonus + transfer + rr); cash in 1e-5 CNY, ratios in 1e-6, prices in 1e-3
      const refNum = (P * 100n - BigInt(a.cash_per_share)) * 1_000_000n + BigInt(a.rights_price) * 100n * BigInt(a.rights_ratio);
      const refDen = (1_000_000n + BigInt(a.bonus_ratio) + BigInt(a.transfer_ratio) + BigInt(a.rights_ratio)) * 100n;
      out.push({ date: d, num: P * refDen, den: refNum }); // factor step = P / ref
    }
    return out;
  }

  it('adjusts prices backward and forward by the ex-rights reference price rule', async () => {
    const ids = [...new Set(actions.map((a) => a.id))].slice(0, 6);
    expect(ids.length).toBeGreaterThan(0);
    for (const id of ids) {
      const raw = await walk(h, `/api/v1/equities/${id}/bars?interval=1d`, 1000);
      const back = await walk(h, `/api/v1/equities/${id}/bars?interval=1d&adjustment=backward`, 1000);
      const fwd = await walk(h, `/api/v1/equities/${id}/bars?interval=1d&adjustment=forward`, 1000);
      const st = steps(id, raw);
      let total = { num: 1n, den: 1n };
      for (const s of st) total = { num: total.num * s.num, den: total.den * s.den };
      raw.forEach((b, i) => {
        let f = { num: 1n, den: 1n };
        for (const s of st) if (s.date <= b.trade_date) f = { num: f.num * s.num, den: f.den * s.den };
        for (const k of ['open', 'high', 'low', 'close'] as const) {
          const p = BigInt(milli(b[k]));
          expect(milli(back[i][k]), `${id} ${b.trade_date} ${k} backward`).toBe(Number(rdiv(p * f.num, f.den * 10n) * 10n));
          expect(milli(fwd[i][k]), `${id} ${b.trade_date} ${k} forward`).toBe(
            Number(rdiv(p * f.num * total.den, f.den * total.num * 10n) * 10n),
          );
        }
        expect(back[i].amount).toBe(b.amount);
      });
      expect(fwd[fwd.length - 1].close).toBe(raw[raw.length - 1].close);
    }
  });

  it('keeps a forward walk on its basis when corporate actions arrive mid-walk', async () => {
    const id = [...new Set(actions.map((a) => a.id))][0];
    const path = `/api/v1/equities/${id}/bars?interval=1d&adjustment=forward`;
    const before = await walk(h, path, 1000);
    const first = await get(h, `${path}&page[size]=50`);
    const inst = (await h.store.db.selectFrom('instruments').select('inst').where('id', '=', id).executeTakeFirstOrThrow()).inst;
    const last = before[before.length - 1].trade_date.replaceAll('-', '');
    await h.store.db
      .insertInto('corporate_actions')
      .values({
        inst,
        ex_date: Number(last),
        record_date: Number(last) - 1,
        pay_date: Number(last),
        announce_date: Number(last) - 10,
        cash_per_share: 50_000,
        bonus_ratio: 0,
        transfer_ratio: 0,
        rights_ratio: 0,
        rights_price: 0,
      })
      .execute();
    const change = [{ dataset: 'corporate_actions', rows: 1, instruments: [id], from: Number(last), to: Number(last) }];
    await h.store.bulkTransaction((s) => recordVersion(s, 'test: an action mid-walk', change));
    let rows = [...first.body.data];
    let next = first.body.links.next;
    while (next) {
      const r = await get(h, next);
      rows = rows.concat(r.body.data);
      next = r.body.links.next;
    }
    expect(rows).toEqual(before);
    const fresh = await walk(h, path, 1000);
    expect(fresh[0].close).not.toBe(before[0].close);
    await h.store.db.deleteFrom('corporate_actions').where('inst', '=', inst).where('ex_date', '=', Number(last)).execute();
    await h.store.bulkTransaction((s) => recordVersion(s, 'test: the action removed', change));
  });

  it('gives each indicator point the trade_date of its bar, for every interval kind', async () => {
    const id = [...byId.keys()][5];
    for (const [base, ind] of [
      [`/api/v1/equities/${id}`, 'macd'],
      [`/api/v1/equities/${id}`, 'kdj'],
      ['/api/v1/indices/000300.SH', 'rsi'],
    ]) {
      for (const q of ['interval=1d', 'interval=1w', 'interval=1mo&adjustment=forward', 'interval=5m', 'interval=60m&date=2025-11-20']) {
        const n = await expectPointDatesOfBars(h, `${base}/bars?${q}`, `${base}/technical-indicators/${ind}?${q}`);
        expect(n, `${base} ${ind} ${q}`).toBeGreaterThan(3);
      }
    }
    // A week's point is dated by the week's last trading day, as its bar.
    const week = await get(h, `/api/v1/equities/${id}/technical-indicators/ma?interval=1w&from=2025-06-02&to=2025-06-06`);
    expect(week.body.data.map((p: any) => p.trade_date)).toEqual(['2025-06-06']);
    expect(week.body.data[0].timestamp).toBe('2025-06-06T15:00:00+08:00');
  });

  it('gives each indicator point the same values whatever window or page selects it', async () => {
    const id = [...byId.keys()][5];
    for (const [ind, iv] of [
      ['ma', '1d'],
      ['macd', '1d'],
      ['kdj', '1w'],
      ['boll', '15m'],
      ['dmi', '1d'],
      ['rsi', '60m'],
    ]) {
      const whole = await walk(h, `/api/v1/equities/${id}/technical-indicators/${ind}?interval=${iv}&adjustment=backward`, 1000);
      const paged = await walk(h, `/api/v1/equities/${id}/technical-indicators/${ind}?interval=${iv}&adjustment=backward`, 7);
      expect(paged).toEqual(whole);
      const mid = whole[Math.floor(whole.length / 2)];
      const w = await get(
        h,
        `/api/v1/equities/${id}/technical-indicators/${ind}?interval=${iv}&adjustment=backward&from=${encodeURIComponent(mid.timestamp)}&page[size]=1`,
      );
      expect(w.body.data[0]).toEqual(mid);
      expect(Object.values(mid.values).every((v: any) => /^-?\d+\.\d{4}$/.test(v))).toBe(true);
    }
    const bars = await walk(h, `/api/v1/equities/${id}/bars?interval=1d`, 1000);
    const ma = await walk(h, `/api/v1/equities/${id}/technical-indicators/ma?interval=1d`, 1000);
    expect(ma[3].values.ma5).toBeUndefined();
    for (let i = 4; i < bars.length; i += 37) {
      const sum = bars.slice(i - 4, i + 1).reduce((s, b) => s + milli(b.close), 0); // milli CNY
      const expected = (Math.round(sum * 2) / 10000).toFixed(4); // sum/5 in CNY = sum*2/10000, exact here
      expect(ma[i].values.ma5).toBe(expected);
      expect(ma[i].timestamp).toBe(bars[i].timestamp);
    }
  });

  it('resumes recursive indicators from their checkpoints with the values of a walk from the first bar', async () => {
    const id = [...byId.keys()][7];
    let seed = 5;
    const rnd = (n: number) => {
      seed = (seed * 48271) % 2147483647;
      return seed % n;
    };
    for (const ind of ['ema', 'macd', 'kdj', 'rsi', 'obv']) {
      for (const [iv, adjustment] of [
        ['1d', 'forward'],
        ['1m', 'none'],
      ]) {
        const path = `/api/v1/equities/${id}/technical-indicators/${ind}?interval=${iv}&adjustment=${adjustment}`;
        const whole = await walk(h, path, 1000);
        expect(whole.length).toBeGreaterThan(200);
        // Random windows, later ones starting before earlier ones, each against the walk.
        for (let k = 0; k < 12; k++) {
          const i = rnd(whole.length - 3);
          const r = await get(h, `${path}&from=${encodeURIComponent(whole[i].timestamp)}&page[size]=3`);
          expect(r.body.data, `${ind} ${iv} at ${whole[i].timestamp}`).toEqual(whole.slice(i, i + 3));
        }
      }
    }
  });

  it("computes every day's price limits by the board rules and bars never break them", async () => {
    const ratio = (e: any, st: boolean, day: number) => {
      const noLimit = e.board === 'bse' ? 1 : e.board === 'main' && e.list_date < '2023-04-10' ? 0 : 5;
      if (day <= noLimit) return null;
      if (e.board === 'bse') return 30;
      if (e.board === 'star' || e.board === 'chinext') return 20;
      return st ? 5 : 10;
    };
    for (const e of [...byId.values()].slice(0, 40)) {
      const lim = await walk(h, `/api/v1/equities/${e.id}/price-limits`, 1000);
      const bars = new Map((await walk(h, `/api/v1/equities/${e.id}/bars?interval=1d`, 1000)).map((b) => [b.trade_date, b]));
      expect(lim.length).toBeGreaterThan(0);
      expect(Object.keys(lim[0])).toEqual(Object.keys(PriceLimit.properties));
      for (const l of lim) {
        const r = ratio(e, l.is_st, l.listing_day);
        const b = bars.get(l.trade_date);
        expect(l.suspended).toBe(!b);
        if (r === null || l.pre_close === null) {
          expect(l.limit_up).toBeNull();
          continue;
        }
        expect(l.limit_pct, `${e.id} ${l.trade_date}`).toBe(String(r));
        const pc = milli(l.pre_close);
        // Half-up to the fen on SH and SZ; on the BSE toward the previous close (the up limit down, the down limit up).
        const [upAt, downAt] =
          e.board === 'bse'
            ? [(x: bigint) => x / 1000n, (x: bigint) => (x + 999n) / 1000n]
            : [(x: bigint) => rdiv(x, 1000n), (x: bigint) => rdiv(x, 1000n)];
        const up = Math.max(Number(upAt(BigInt(pc) * BigInt(100 + r))) * 10, pc + 10);
        const down = Math.min(Number(downAt(BigInt(pc) * BigInt(100 - r))) * 10, pc - 10);
        expect(milli(l.limit_up), `${e.id} ${l.trade_date} up`).toBe(up);
        expect(milli(l.limit_down), `${e.id} ${l.trade_date} down`).toBe(down);
        if (b) {
          expect(milli(b.high)).toBeLessThanOrEqual(up);
          expect(milli(b.low)).toBeGreaterThanOrEqual(down);
        }
      }
    }
  });

  it('derives pools from bars and limits', async () => {
    const days = (await walk(h, '/api/v1/markets/SH/trading-days?from=2025-10-20&to=2025-11-20', 100)).map((d) => d.date);
    let seen = 0;
    for (const d of days.slice(-6)) {
      const expect_: Record<string, string[]> = { limit_up: [], limit_down: [], broken_limit_up: [] };
      for (const e of byId.values()) {
        const l = (await get(h, `/api/v1/equities/${e.id}/price-limits?date=${d}`)).body.data[0];
        const b = (await get(h, `/api/v1/equities/${e.id}/bars?interval=1d&date=${d}`)).body.data[0];
        if (!l || !b || l.limit_up === null) continue;
        if (b.close === l.limit_up) expect_.limit_up.push(e.id);
        if (b.close === l.limit_down) expect_.limit_down.push(e.id);
        if (b.high === l.limit_up && b.close !== l.limit_up) expect_.broken_limit_up.push(e.id);
      }
      for (const [type, ids] of Object.entries(expect_)) {
        const got = (await walk(h, `/api/v1/equities/pools/${type}?date=${d}`, 1000)).map((m) => m.instrument_id);
        expect(got, `${type} ${d}`).toEqual(ids.sort());
        seen += ids.length;
      }
    }
    expect(seen).toBeGreaterThan(0);
    const prevDay = days[days.length - 2];
    const prevUps = (await walk(h, `/api/v1/equities/pools/limit_up?date=${prevDay}`, 1000)).map((m) => m.instrument_id);
    const previous = (await walk(h, `/api/v1/equities/pools/previous_limit_up?date=${days[days.length - 1]}`, 1000)).map(
      (m) => m.instrument_id,
    );
    for (const id of previous) expect(prevUps).toContain(id);
    expect((await get(h, '/api/v1/equities/pools/limit_up?date=2025-11-22')).status).toBe(400);
    expect((await get(h, '/api/v1/equities/pools/unknown')).status).toBe(404);
    const latest = await get(h, '/api/v1/equities/pools/sub_new');
    expect(latest.status).toBe(200);
    expect(latest.body.data.every((m: any) => m.trade_date === days[days.length - 1])).toBe(true);
  });
});

/**
 * The BSE's opening day, 2021-11-15: the select tier's stocks moved from NEEQ traded at ±30%,
 * the public offerings listed that day without limits (docs/price-limits.md). The instruments
 * dataset's listing_kind says which; without it a BJ listing of that day is a transfer.
 */
describe.each(STORES)('price limits of BSE listings by transfer and by IPO on $name', ({ url }) => {
  let h: Harness;
  const dir = tmp();
  const load = (name: string, text: string) => {
    const path = join(dir, `${name}-${Math.random().toString(36).slice(2)}.csv`);
    writeFileSync(path, text);
    return ingest(h.store, [{ path, dataset: dataset(name)! }]);
  };
  beforeAll(async () => {
    h = await emptyHarness(await url());
  });
  afterAll(async () => {
    await h?.close();
  });

  it("limits a moved stock's first day to 30%, not an IPO's, and takes listing_kind from the record", async () => {
    const loaded = [
      await load(
        'instruments',
        [
          'instrument_id,kind,board,name,list_date,listing_kind',
          '430047.BJ,equity,bse,诺思兰德,2021-11-15,',
          '833454.BJ,equity,bse,同心传动,2021-11-15,ipo',
          '830799.BJ,equity,bse,艾融软件,2021-11-15,transfer',
          '836149.BJ,equity,bse,旭杰科技,2023-01-17,',
        ].join('\n'),
      ),
      await load(
        'bars_1d',
        [
          'instrument_id,trade_date,open,high,low,close,volume,amount',
          ...['430047.BJ', '833454.BJ', '830799.BJ'].flatMap((id) => [
            `${id},2021-11-15,10,13,9,12,100,1200`,
            `${id},2021-11-16,12,12.5,11,12,100,1200`,
          ]),
          '836149.BJ,2023-01-17,10,20,9,15,100,1500',
          '836149.BJ,2023-01-18,15,16,14,15,100,1500',
        ].join('\n'),
      ),
    ];
    expect(loaded.map((r) => r.errors)).toEqual([[], []]);
    const rows = async (id: string) =>
      (await walk(h, `/api/v1/equities/${id}/price-limits`, 10)).map((r) => [r.trade_date, r.limit_pct, r.reason, r.limit_up]);
    // No NEEQ close is stored before the first day: its base, hence its limit prices, are unknown; its rule is the 30%.
    expect(await rows('430047.BJ')).toEqual([
      ['2021-11-15', null, 'bse', null],
      ['2021-11-16', '30', 'bse', '15.60'],
    ]);
    expect(await rows('830799.BJ')).toEqual([
      ['2021-11-15', null, 'bse', null],
      ['2021-11-16', '30', 'bse', '15.60'],
    ]);
    expect(await rows('833454.BJ')).toEqual([
      ['2021-11-15', null, 'new_listing_no_limit', null],
      ['2021-11-16', '30', 'bse', '15.60'],
    ]);
    expect(await rows('836149.BJ')).toEqual([
      ['2023-01-17', null, 'new_listing_no_limit', null],
      ['2023-01-18', '30', 'bse', '19.50'],
    ]);
  });

  it('refuses a listing_kind that is not ipo or transfer, and one on an index', async () => {
    const r = await load(
      'instruments',
      [
        'instrument_id,kind,board,name,list_date,listing_kind',
        '430139.BJ,equity,bse,华岭股份,2022-10-28,moved',
        '899050.BJ,index,,北证50,2022-04-29,transfer',
      ].join('\n'),
    );
    expect(r.errors).toEqual([
      expect.stringMatching(/:2:\d+: listing_kind: expected one of ipo, transfer/),
      expect.stringMatching(/:3:\d+: listing_kind: expected no listing_kind for an index or fund/),
    ]);
  });
});
