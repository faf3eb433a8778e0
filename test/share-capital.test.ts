/**
 * listShareCapital: on the demo, the latest change is the instrument's counts and every bonus,
 * transfer or rights issue grows them by its ratio on its ex-date; `date` gives the change in
 * force; the pools' turnover uses the float in force that day. Against the real file
 * (../shared/data/adjustments/hikyuu_stkweight_events_to_2011.csv): the total and float shares
 * after each event, as `mds ingest share_capital --format hikyuu` loads them.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get, harness, HAVE_SHARED, SHARED, STORES, walk, type Harness } from './helpers.js';
import { emptyHarness } from './ingest-helpers.js';
import { loadSharedData } from './shared-data.js';

const EXAMPLES = new URL('../examples/', import.meta.url).pathname;

/** A per-share decimal (`0.3`) in millionths, exactly. */
const millionths = (s: string) => {
  const [int, frac = ''] = s.split('.');
  return BigInt(int + frac.padEnd(6, '0').slice(0, 6));
};

describe.each(STORES)('share capital on $name', ({ url }) => {
  let h: Harness;
  let equities: any[];
  beforeAll(async () => {
    h = await harness(await url());
    equities = await walk(h, '/api/v1/equities', 1000);
  });
  afterAll(async () => {
    await h?.close();
  });

  it("ends at each equity's counts and grows by each bonus, transfer and rights issue on its ex-date", async () => {
    let grown = 0,
      offLot = 0;
    for (const e of equities) {
      const rows = await walk(h, `/api/v1/equities/${e.id}/share-capital`, 1000);
      expect(rows.length, e.id).toBeGreaterThan(0);
      expect(rows[0]).toMatchObject({ reason: 'ipo', change_date: e.list_date });
      expect([rows.at(-1).total_shares, rows.at(-1).float_shares], e.id).toEqual([e.total_shares, e.float_shares]);
      for (const r of rows) expect(r.restricted_shares, e.id).toBe(r.total_shares - r.float_shares);
      // Corporate actions with new shares, from the dividends (implemented ones are exactly the actions with shares or cash).
      const actions = (await walk(h, `/api/v1/equities/${e.id}/dividends`, 1000)).filter(
        (d) => d.progress === 'implemented' && (Number(d.bonus_per_share) > 0 || Number(d.transfer_per_share) > 0),
      );
      for (const a of actions) {
        const i = rows.findIndex((r) => r.change_date === a.ex_date);
        expect(i, `${e.id} ${a.ex_date}`).toBeGreaterThan(0);
        // Exactly: the total rounded half up, the float rounded down to a share (not to a lot of 100).
        const g = 1_000_000n + millionths(a.bonus_per_share) + millionths(a.transfer_per_share);
        const [total, float] = [BigInt(rows[i - 1].total_shares) * g, BigInt(rows[i - 1].float_shares) * g];
        expect([rows[i].total_shares, rows[i].float_shares], `${e.id} ${a.ex_date}`).toEqual([
          Number((total * 2n + 1_000_000n) / 2_000_000n),
          Number(float / 1_000_000n),
        ]);
        if (rows[i].float_shares % 100 !== 0) offLot++;
        expect(rows[i].reason).toBe(Number(a.bonus_per_share) > 0 ? 'bonus' : 'transfer');
        grown++;
      }
    }
    expect(grown).toBeGreaterThan(0);
    // Floats after an action that are not lots of 100 (they were rounded to lots before).
    expect(offLot).toBeGreaterThan(0);
  });

  it("turns the pools' volume into turnover against the float in force that day", async () => {
    const days = (await walk(h, '/api/v1/markets/SH/trading-days?from=2025-01-01', 1000)).map((d) => d.date as string);
    const changes = new Map<string, any[]>();
    for (const e of equities) changes.set(e.id, await walk(h, `/api/v1/equities/${e.id}/share-capital`, 1000));
    const floatOn = (id: string, d: string) =>
      changes
        .get(id)!
        .filter((c) => c.change_date <= d)
        .at(-1).float_shares as number;
    let checked = 0,
      before = 0;
    for (const d of days)
      for (const type of ['limit_up', 'limit_down', 'broken_limit_up'])
        for (const m of await walk(h, `/api/v1/equities/pools/${type}?date=${d}`, 1000)) {
          const f = floatOn(m.instrument_id, d);
          // volume / float × 100, 2 decimals half away from zero, in integers.
          const want = (Math.round((m.volume * 10000) / f) / 100).toFixed(2);
          expect(m.turnover_rate, `${m.instrument_id} ${d}`).toBe(want);
          if (f !== equities.find((e) => e.id === m.instrument_id).float_shares) before++;
          checked++;
        }
    expect(checked).toBeGreaterThan(20);
    // Some of them before a bonus or transfer issue that changed the float since.
    expect(before).toBeGreaterThan(0);
  });

  it('gives the change in force on a date', async () => {
    const e = equities.find((x) => x.total_shares !== null);
    const rows = await walk(h, `/api/v1/equities/${e.id}/share-capital`, 1000);
    const last = rows.at(-1);
    expect((await get(h, `/api/v1/equities/${e.id}/share-capital?date=2026-11-20`)).body.data).toEqual([last]);
    expect((await get(h, `/api/v1/equities/${e.id}/share-capital?date=${rows[0].change_date}`)).body.data).toEqual([rows[0]]);
    expect((await get(h, `/api/v1/equities/${e.id}/share-capital?date=1990-12-19`)).body.data).toEqual([]);
  });
});

describe.skipIf(!HAVE_SHARED).each(STORES)('share capital from Hikyuu’s 权息 table on $name', ({ url }) => {
  let h: Harness;
  beforeAll(async () => {
    h = await emptyHarness(await url());
    await loadSharedData(h.store, [
      ['markets', null, [join(EXAMPLES, 'markets.csv')]],
      ['trading_days', 'exchange-calendars', ['calendar/xshg_exchange_calendars.csv']],
      ['instruments', null, [join(EXAMPLES, 'shared-data/instruments.csv')]],
      ['share_capital', 'hikyuu', ['adjustments/hikyuu_stkweight_events_to_2011.csv']],
    ]);
  });
  afterAll(async () => {
    await h?.close();
  });

  it('holds the total and float shares after each event that changed them', async () => {
    const [head, ...lines] = readFileSync(join(SHARED, 'adjustments/hikyuu_stkweight_events_to_2011.csv'), 'utf8').trim().split(/\r?\n/);
    const cols = head.split(',');
    const rows = lines.map((l) => Object.fromEntries(l.split(',').map((v, i) => [cols[i], v])));
    for (const id of ['000001.SZ', '000002.SZ', '600000.SH', '600519.SH']) {
      const want: [string, number, number][] = [];
      for (const r of rows.filter((x) => x.ts_code === id)) {
        const [total, float] = [Math.round(Number(r.total_shares_10k) * 10000), Math.round(Number(r.float_shares_10k) * 10000)];
        const prev = want.at(-1);
        if (!prev || prev[1] !== total || prev[2] !== float) want.push([r.date, total, float]);
      }
      const api = await walk(h, `/api/v1/equities/${id}/share-capital`, 1000);
      expect(
        api.map((c) => [c.change_date, c.total_shares, c.float_shares]),
        id,
      ).toEqual(want);
      expect(api.length, id).toBeGreaterThan(3);
    }
    // 000001.SZ 1993-05-24: 3.5 bonus and 5 transfer shares per 10 (and rights): 150 → 26,941 × 10,000 shares.
    const pingan = await walk(h, '/api/v1/equities/000001.SZ/share-capital?from=1993-01-01&to=1993-12-31', 10);
    expect(pingan).toEqual([
      expect.objectContaining({ change_date: '1993-05-24', reason: 'bonus', total_shares: 269_410_000, float_shares: 179_120_000 }),
    ]);
  });
});
