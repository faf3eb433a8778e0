/**
 * listMarginTrading on the demo market: the exchanges' identities to the fen and the share on
 * every day of every eligible equity (checked here in integer fen against the served daily
 * closes), records only on days with a bar and from the 60th one on, none for ST equities,
 * `date` and from/to, and the collection as a file that loads back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get, harness, STORES, walk, type Harness } from './helpers.js';

/** A decimal string of CNY as integer fen, exactly. */
const fen = (s: string) => {
  const [i, f = ''] = s.split('.');
  return BigInt(i) * 100n + BigInt((f + '00').slice(0, 2));
};

describe.each(STORES)('margin trading on $name', ({ url }) => {
  let h: Harness;
  let equities: any[];
  const eligible: { id: string; rows: any[] }[] = [];
  beforeAll(async () => {
    h = await harness(await url());
    equities = await walk(h, '/api/v1/equities', 1000);
    for (const e of equities) {
      const rows = await walk(h, `/api/v1/equities/${e.id}/margin-trading`, 1000);
      if (rows.length) eligible.push({ id: e.id, rows });
    }
  });
  afterAll(async () => {
    await h?.close();
  });

  it('holds the exchanges’ identities on every day, against the daily closes', async () => {
    expect(eligible.length).toBeGreaterThan(equities.length / 3);
    let days = 0;
    for (const { id, rows } of eligible) {
      const bars = await walk(h, `/api/v1/equities/${id}/bars?interval=1d`, 1000);
      const close = new Map(bars.map((b) => [b.trade_date, b.close as string]));
      // From the 60th trading day with a bar on, and every such day after the first record.
      const first = bars.findIndex((b) => b.trade_date === rows[0].trade_date);
      expect(first, id).toBeGreaterThanOrEqual(60);
      expect(
        rows.map((r) => r.trade_date),
        id,
      ).toEqual(bars.slice(first).map((b) => b.trade_date));
      rows.forEach((r, i) => {
        const at = `${id} ${r.trade_date}`;
        expect(fen(r.short_balance), at).toBe(BigInt(r.short_shares) * fen(close.get(r.trade_date)!));
        expect(fen(r.total_balance), at).toBe(fen(r.financing_balance) + fen(r.short_balance));
        if (i === 0) return;
        const p = rows[i - 1];
        expect(fen(r.financing_balance), at).toBe(fen(p.financing_balance) + fen(r.financing_bought) - fen(r.financing_repaid));
        expect(r.short_shares, at).toBe(p.short_shares + r.short_sold - r.short_repaid);
        days++;
      });
    }
    expect(days).toBeGreaterThan(1000);
  });

  it('lists no ST equity (ST stocks are not margin securities)', async () => {
    const st = equities.filter((e) => /^\*?ST/.test(e.name));
    expect(st.length).toBeGreaterThan(0);
    for (const e of st)
      expect(
        eligible.find((x) => x.id === e.id),
        e.id,
      ).toBeUndefined();
  });

  it('selects one day with date, a window with from/to, and refuses date with from', async () => {
    const { id, rows } = eligible[0];
    const mid = rows[Math.floor(rows.length / 2)];
    expect((await get(h, `/api/v1/equities/${id}/margin-trading?date=${mid.trade_date}`)).body.data).toEqual([mid]);
    const window = await walk(h, `/api/v1/equities/${id}/margin-trading?from=${rows[3].trade_date}&to=${rows[7].trade_date}`, 2);
    expect(window).toEqual(rows.slice(3, 8));
    const r = await get(h, `/api/v1/equities/${id}/margin-trading?date=${mid.trade_date}&from=${mid.trade_date}`);
    expect(r.status).toBe(400);
    expect(r.body.errors[0]).toMatchObject({ code: 'conflicting_parameters', source: { parameter: 'date' } });
    const csv = await get(h, `/api/v1/equities/${id}/margin-trading?date=${mid.trade_date}`, { 'x-api-key': h.key, accept: 'text/csv' });
    expect(csv.payload.split('\n').slice(0, 2)).toEqual([
      'instrument_id,trade_date,financing_balance,financing_bought,financing_repaid,short_balance,short_shares,short_sold,short_repaid,total_balance',
      [
        id,
        mid.trade_date,
        mid.financing_balance,
        mid.financing_bought,
        mid.financing_repaid,
        mid.short_balance,
        mid.short_shares,
        mid.short_sold,
        mid.short_repaid,
        mid.total_balance,
      ].join(','),
    ]);
  });
});
