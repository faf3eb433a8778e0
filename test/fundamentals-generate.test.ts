import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get, harness, PG_URL, freshPostgres, walk, type Harness } from './helpers.js';
import { cents, OPS } from './fundamentals-helpers.js';
import { migrate, openStore } from '../src/derived/open.js';
import type { Store } from '../src/store/types.js';
import { generateDemo, type DemoOptions } from '../src/demo/generate.js';
import { COLUMNS } from '../src/demo/fundamentals/index.js';

/** A demo ending in May: last year's dividends are planned but not yet paid. */
const MAY: Partial<DemoOptions> = { seed: 11, equities: 20, start: 20250102, end: 20250512, minuteDays: 0, tickDays: 0 };

async function dump(store: Store): Promise<string> {
  const out: Record<string, unknown[]> = {};
  for (const [table, cols] of Object.entries(COLUMNS)) {
    let q = store.db.selectFrom(table as any).selectAll();
    for (const c of cols) q = q.orderBy(c as any);
    out[table] = await q.execute();
  }
  return createHash('sha256').update(JSON.stringify(out)).digest('hex');
}

describe('fundamentals generation', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await harness(':memory:', MAY);
  });
  afterAll(async () => {
    await h?.close();
  });

  it('is deterministic', async () => {
    const other = openStore(':memory:');
    await migrate(other);
    await generateDemo(other, MAY);
    expect(await dump(other)).toBe(await dump(h.store));
    await other.close();
  });

  it('lists planned dividends of the latest fiscal year last, without dates, out of positive profit', async () => {
    let pending = 0;
    for (const e of await walk(h, '/api/v1/equities', 100)) {
      const all = await walk(h, `/api/v1/equities/${e.id}/dividends`, 100);
      const planned = all.filter((d) => d.progress !== 'implemented');
      expect(all.slice(all.length - planned.length)).toEqual(planned);
      expect((await walk(h, `/api/v1/equities/${e.id}/dividends?to=2025-12-31`, 100)).some((d) => d.progress !== 'implemented')).toBe(
        false,
      );
      const annual = (await walk(h, `/api/v1/equities/${e.id}/income-statements`, 100)).find((s) => s.report_date === '2024-12-31');
      for (const d of planned) {
        pending++;
        expect(d).toMatchObject({ report_period: '2024-12-31', record_date: null, ex_date: null, pay_date: null });
        expect(all.filter((x) => x.report_period === d.report_period)).toEqual([d]);
        expect(cents(annual.net_profit_attributable) > 0n).toBe(true);
        expect(d.announce_date >= annual.announce_date && d.announce_date <= '2025-05-12').toBe(true);
        expect(d.progress === 'approved' ? d.announce_date > annual.announce_date : d.announce_date === annual.announce_date).toBe(true);
      }
    }
    expect(pending).toBeGreaterThan(5);
  });
});

/** Both stores give byte-identical responses for the datasets. */
describe.skipIf(!PG_URL)('fundamentals on SQLite and PostgreSQL', () => {
  let a: Harness, b: Harness;
  beforeAll(async () => {
    a = await harness(':memory:', MAY);
    b = await harness(await freshPostgres(), MAY);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  it('matches', async () => {
    const ids = (await walk(a, '/api/v1/equities', 100)).map((e) => e.id);
    for (const id of ids) {
      for (const seg of [...OPS.map(([, s]) => s), 'company-profile']) {
        for (const q of seg === 'company-profile' ? [''] : ['', '?page[size]=3']) {
          const p = `/api/v1/equities/${id}/${seg}${q}`;
          const ra = await get(a, p),
            rb = await get(b, p, { 'x-api-key': b.key });
          expect(ra.status, p).toBe(200);
          expect(rb.payload, p).toBe(ra.payload);
        }
      }
    }
  });
});
