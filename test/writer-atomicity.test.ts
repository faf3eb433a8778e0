/**
 * Every writer's data version is exactly its data (docs/architecture.md, "The data spine"): a
 * snapshot taken while a writer runs sees all of what it writes, with its version, or none of
 * it. The demo used to write its tables in chunks, each committed on its own, and its version
 * last; `withBarPacks.bulkInsert` committed rows, then their packs: a snapshot taken during
 * `mds demo` into a served store saw instruments without their version and bars without their
 * packs. The writers run in a child process (so that on SQLite, whose statements run
 * synchronously, the reader is truly concurrent), the reader takes snapshots until it ends.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { migrate, openStore } from '../src/derived/open.js';
import type { Store } from '../src/store/types.js';
import { dropPostgres, STORES, TINY_DEMO } from './helpers.js';
import { exited } from './ingest-helpers.js';
import { openDemoStore } from './demo-templates.js';

const root = fileURLToPath(new URL('..', import.meta.url));

/** What one snapshot holds of the tables a demo writes and of what is derived from them. */
interface Seen {
  version: number;
  origin: string;
  instruments: number;
  bars: number;
  packed: number;
  minutes: number;
  minutesPacked: number;
  days: number;
  statements: number;
}

/** Counts in one read snapshot of `store`. */
async function look(store: Store): Promise<Seen> {
  const s = await store.snapshot();
  try {
    const one = async (sql: string) => (await s.selectRows(sql, []))[0][0];
    return {
      version: s.version,
      origin: String(await one('select origin from data_versions order by version desc limit 1')),
      instruments: Number(await one('select count(*) from instruments')),
      bars: Number(await one('select count(*) from bars_1d')),
      packed: Number(await one('select coalesce(sum(n), 0) from bars_1d_packs')),
      minutes: Number(await one('select count(*) from bars_1m')),
      minutesPacked: Number(await one('select coalesce(sum(n), 0) from bars_1m_packs')),
      days: Number(await one('select count(*) from market_days')),
      statements: Number(await one('select count(*) from income_statements')),
    };
  } finally {
    s.release();
  }
}

/** Snapshots of `store` taken one after another while `child` runs (at least one after it ended). */
async function watch(store: Store, child: ReturnType<typeof spawn>): Promise<{ seen: Seen[]; code: number | null; stderr: string }> {
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  let ended = false;
  const done = exited(child).then((r) => {
    ended = true;
    return r;
  });
  const seen: Seen[] = [];
  while (!ended) {
    seen.push(await look(store));
    await new Promise((r) => setImmediate(r));
  }
  const { code } = await done;
  seen.push(await look(store));
  return { seen, code, stderr };
}

describe.each(STORES)('writers commit their data with its version, whole ($name)', ({ url: makeUrl }) => {
  const made: string[] = [];
  afterAll(async () => {
    for (const u of made) {
      if (u.startsWith('postgres')) await dropPostgres(u);
      else rmSync(dirname(u), { recursive: true, force: true });
    }
  });

  it('mds demo into a store being read: every snapshot sees none of the demo or all of it, with its version', async () => {
    const url = await makeUrl();
    made.push(url);
    const store = openStore(url);
    try {
      await migrate(store);
      const empty = await look(store);
      expect(empty).toMatchObject({ instruments: 0, bars: 0, packed: 0, days: 0, statements: 0 });
      const child = spawn(
        process.execPath,
        [join(root, 'dist/cli/index.js'), '--database', url, 'demo', '--equities', '20', '--start', '2025-07-01', '--end', '2025-11-20'],
        { stdio: ['ignore', 'ignore', 'pipe'] },
      );
      const { seen, code, stderr } = await watch(store, child);
      expect(code, stderr).toBe(0);
      const full = seen.at(-1)!;
      expect(full).toMatchObject({ version: empty.version + 1, origin: 'demo build (seed 1, 20 equities)' });
      expect(full.bars).toBe(full.packed);
      expect(full.minutes).toBe(full.minutesPacked);
      for (const n of [full.instruments, full.bars, full.minutes, full.days, full.statements]) expect(n).toBeGreaterThan(0);
      // Taken while it ran: many, each the store before or after, never a part.
      expect(seen.length).toBeGreaterThan(10);
      const between = seen.filter((x) => JSON.stringify(x) !== JSON.stringify(empty) && JSON.stringify(x) !== JSON.stringify(full));
      expect(between).toEqual([]);
    } finally {
      await store.close();
    }
  }, 120_000);

  it('bulkInsert of bars commits them with their packs: no snapshot sees a bar without its pack', async () => {
    const url = await makeUrl();
    made.push(url);
    const store = await openDemoStore(url, TINY_DEMO);
    try {
      const before = await look(store);
      expect(before.bars).toBe(before.packed);
      // 20 inserts of a month of daily bars of every instrument, in months before the demo's.
      const writer = `
        import { openStore } from ${JSON.stringify(join(root, 'dist/derived/open.js'))};
        const store = openStore(process.argv[1]);
        const insts = (await store.selectRows('select inst from instruments order by inst', [])).map((r) => Number(r[0]));
        for (let m = 0; m < 20; m++) {
          const month = 202301 + (m % 12) + Math.floor(m / 12) * 100;
          const rows = [];
          for (const inst of insts) for (let d = 1; d <= 28; d++) rows.push([inst, month * 100 + d, 1000, 1100, 900, 1050, 100, 10000]);
          await store.bulkInsert('bars_1d', ['inst', 'date', 'open', 'high', 'low', 'close', 'volume', 'amount'], rows, { deferDerived: true });
        }
        await store.close();
      `;
      const child = spawn(process.execPath, ['--input-type=module', '-e', writer, url], { stdio: ['ignore', 'ignore', 'pipe'] });
      const { seen, code, stderr } = await watch(store, child);
      expect(code, stderr).toBe(0);
      expect(seen.at(-1)!.bars).toBe(before.bars + 20 * 28 * before.instruments);
      expect(seen.length).toBeGreaterThan(10);
      expect(seen.filter((x) => x.bars !== x.packed).map((x) => `${x.bars} bars, ${x.packed} packed`)).toEqual([]);
    } finally {
      await store.close();
    }
  }, 120_000);
});
