import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { get, harness, STORES, type Harness } from './helpers.js';
import { exited, mds, mdsChild, snapshot, tmp, writeMinuteBars, writerActive } from './ingest-helpers.js';
import { openStore } from '../src/derived/open.js';
import type { Store } from '../src/store/types.js';
import { marketTradingDays } from '../src/market/calendar.js';
import { formatDate } from '../src/lib/time.js';

/** 40 equities × 40 days × 241 one-minute bars the small demo does not have (~385k rows). */
async function bigFile(h: Harness, dir: string) {
  const ids = (
    await h.store.db
      .selectFrom('instruments')
      .select('id')
      .where('kind', '=', 'equity')
      .where('list_date', '<', 20250101)
      .orderBy('id')
      .execute()
  )
    .map((r) => r.id)
    .slice(0, 40);
  const days = marketTradingDays('SH', 20250601, 20250731).slice(0, 40);
  const file = join(dir, 'bars_1m.csv');
  const rows = await writeMinuteBars(file, ids, days);
  // The first day of the first equity alone: 241 rows.
  const small = join(dir, 'small.csv');
  await writeMinuteBars(small, ids.slice(0, 1), days.slice(0, 1));
  return { file, small, rows, probe: `/api/v1/equities/${ids[0]}/bars?interval=1m&date=${formatDate(days[10])}&page[size]=300` };
}

const count = async (s: Store) =>
  Number(
    (
      await s.db
        .selectFrom('bars_1m')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

for (const kind of STORES) {
  describe(`a load is one transaction (${kind.name})`, () => {
    let h: Harness;
    let reader: Store;
    let big: Awaited<ReturnType<typeof bigFile>>;
    beforeAll(async () => {
      h = await harness(await kind.url());
      reader = openStore(h.url);
      big = await bigFile(h, tmp());
    });
    afterAll(async () => {
      await reader?.close();
      await h?.close();
    });

    it('a load killed halfway leaves the previous data intact', async () => {
      const before = await snapshot(h.store);
      const child = mdsChild(h.url, 'ingest', 'bars_1m', big.file);
      const done = exited(child);
      // Killed as soon as it holds its write transaction with rows written (no wait to tune).
      expect(await writerActive(h.url, () => child.exitCode === null)).toBe(true);
      child.kill('SIGKILL');
      expect((await done).signal).toBe('SIGKILL');
      expect(await snapshot(h.store)).toEqual(before);
      // The store is healthy: a dry run over it works (the whole load, writing, is the next test).
      expect((await mds(h.url, 'ingest', 'bars_1m', big.small, '--dry-run')).code).toBe(0);
    });

    it('readers see the old data or the new, never a mix, while a load runs', async () => {
      const c0 = await count(reader);
      const p0 = (await get(h, big.probe)).payload;
      const child = mdsChild(h.url, 'ingest', 'bars_1m', big.file);
      let stdout = '';
      child.stdout!.on('data', (b) => {
        stdout += b;
      });
      const done = exited(child);
      const counts: number[] = [];
      const payloads: string[] = [];
      const read = async () => {
        counts.push(await count(reader));
        payloads.push((await get(h, big.probe)).payload);
      };
      // While the load holds its transaction (stopped there, so the reads happen inside it
      // however fast the machine), readers see the data as it was.
      expect(await writerActive(h.url, () => child.exitCode === null)).toBe(true);
      child.kill('SIGSTOP');
      try {
        for (let i = 0; i < 5; i++) await read();
      } finally {
        child.kill('SIGCONT');
      }
      expect(counts).toEqual([c0, c0, c0, c0, c0]);
      expect(payloads.every((p) => p === p0)).toBe(true);
      // And while it goes on to its commit: the old data or the new, never a mix.
      while (child.exitCode === null) {
        await read();
        await new Promise((r) => setTimeout(r, 5));
      }
      expect((await done).code, stdout).toBe(0);
      expect(stdout).toContain(`bars_1m: ${big.rows} rows from 1 file: ${big.rows} inserted`);
      const c1 = await count(reader);
      expect(c1).toBe(c0 + big.rows);
      const p1 = (await get(h, big.probe)).payload;
      expect(JSON.parse(p1).data).toHaveLength(241);
      expect(JSON.parse(p0).data).toHaveLength(0);
      for (const c of counts) expect([c0, c1]).toContain(c);
      for (const p of payloads) expect(p === p0 || p === p1).toBe(true);
    });
  });
}
