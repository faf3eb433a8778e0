import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { get, harness, STORES, type Harness } from './helpers.js';
import { tmp } from './ingest-helpers.js';
import { openStore } from '../src/derived/open.js';
import { ingest } from '../src/ingest/load.js';
import { dataset } from '../src/datasets/registry.js';
import { nextTradingDay } from '../src/market/calendar.js';
import { formatDate } from '../src/lib/time.js';
import { divRoundHalfUp, formatScaled } from '../src/lib/decimal.js';

const px = (v: number) => formatScaled(v, 3, 2);

/**
 * The app keeps running while another connection ingests a corporate action and a new daily
 * bar; within the catalog's one-second re-check, adjusted bars, limits, pools and aggregated
 * bars follow (no restart).
 */
for (const kind of STORES) {
  describe(`derived data follows an ingest without a restart (${kind.name})`, () => {
    let h: Harness;
    beforeAll(async () => {
      h = await harness(await kind.url());
    });
    afterAll(async () => {
      await h?.close();
    });

    it('adjusted bars, price limits, pools and weekly bars reflect the new rows', async () => {
      // A main-board, non-ST equity listed long before the data starts, with a bar on the last day.
      const eq = (await get(h, '/api/v1/equities?page[size]=1000')).body.data.find(
        (e: any) => e.board === 'main' && !e.is_st && e.list_date < '2020-01-01' && e.id.endsWith('.SH'),
      );
      const last = (await get(h, `/api/v1/equities/${eq.id}/bars?interval=1d&from=2025-11-01&page[size]=100`)).body.data.at(-1);
      const d0 = Number(last.trade_date.replaceAll('-', ''));
      const d1 = nextTradingDay(d0)!;
      const prev = Math.round(Number(last.close) * 1000);
      // Before: no day d1 yet; forward-adjusted = raw.
      const fwd = `/api/v1/equities/${eq.id}/bars?interval=1d&adjustment=forward&date=${last.trade_date}`;
      expect((await get(h, fwd)).body.data[0].close).toBe(last.close);
      expect((await get(h, `/api/v1/equities/${eq.id}/price-limits?date=${formatDate(d1)}`)).body.data).toEqual([]);
      const weekBefore = (await get(h, `/api/v1/equities/${eq.id}/bars?interval=1w&date=${formatDate(d1)}`)).body.data;

      // Ingest: 0.50 CNY cash per share ex on d1, and d1's bar closing at the up limit.
      const ref = prev - 500;
      const up = Number(divRoundHalfUp(BigInt(ref) * 11n, 100n)) * 10;
      const dir = tmp();
      writeFileSync(
        join(dir, 'corporate_actions.csv'),
        'instrument_id,ex_date,record_date,announce_date,cash_per_share,bonus_per_share,transfer_per_share,rights_per_share,rights_price\n' +
          `${eq.id},${formatDate(d1)},${last.trade_date},${last.trade_date},0.50000,0,0,0,0\n`,
      );
      writeFileSync(
        join(dir, 'bars_1d.csv'),
        'instrument_id,trade_date,open,high,low,close,volume,amount\n' +
          `${eq.id},${formatDate(d1)},${px(ref)},${px(up)},${px(ref - 100)},${px(up)},1234500,15000000.00\n`,
      );
      const loader = openStore(h.url);
      const r = await ingest(loader, [
        { path: join(dir, 'bars_1d.csv'), dataset: dataset('bars_1d')! },
        { path: join(dir, 'corporate_actions.csv'), dataset: dataset('corporate_actions')! },
      ]);
      await loader.close();
      expect(r.errors).toEqual([]);
      expect(r.dataVersion).not.toBeNull();

      const limits = (await get(h, `/api/v1/equities/${eq.id}/price-limits?date=${formatDate(d1)}`)).body.data;
      expect(limits).toHaveLength(1);
      expect(limits[0].pre_close).toBe(px(ref));
      expect(limits[0].limit_up).toBe(px(up));
      const pool = (await get(h, `/api/v1/equities/pools/limit_up?date=${formatDate(d1)}&page[size]=1000`)).body.data;
      expect(pool.map((x: any) => x.instrument_id)).toContain(eq.id);
      // Forward-adjusted close of d0 = raw close × ref / prev = ref.
      expect((await get(h, fwd)).body.data[0].close).toBe(px(ref));
      const week = (await get(h, `/api/v1/equities/${eq.id}/bars?interval=1w&date=${formatDate(d1)}`)).body.data;
      expect(week[0].close).toBe(px(up));
      expect(week[0].trade_date).toBe(formatDate(d1));
      expect(week).not.toEqual(weekBefore);
    });
  });
}
