import { sql, type Kysely, type RawBuilder } from 'kysely';

/**
 * Bar packs: packed read copies of bars_1d (one row per instrument and month, YYYYMM) and
 * bars_1m (per instrument and trading day), kept current by derived/bar-packs.ts, and backfilled
 * here from the bars already stored, streaming in primary-key order (memory stays bounded).
 * Unlike the other hot tables these are rowid tables on SQLite: a WITHOUT ROWID b-tree keeps
 * whole rows in its interior pages and spills any row past about 1 KB (a month of daily bars is
 * 1.2 KB) to overflow pages, which doubled the file growth and slowed reads down.
 * Frozen: never import application code here; the encoder below is a copy of the pack format
 * (`n` records of seven little-endian float64 fields: date or ts, open, high, low, close,
 * volume, amount).
 */
export async function up(db: Kysely<any>, dialect: 'sqlite' | 'postgres'): Promise<void> {
  const pg = dialect === 'postgres';
  const table = async (t: Kysely<any>, name: string, key: string) => {
    const defs = ['inst integer', `${key} integer`, 'n integer', `data ${pg ? 'bytea' : 'blob'}`].map((d) => `${d} not null`);
    await sql.raw(`create table ${name} (${defs.join(', ')}, primary key (inst, ${key}))`).execute(t);
  };
  const encode = (recs: number[][]) => {
    const buf = Buffer.allocUnsafe(recs.length * 56);
    const dv = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
    recs.forEach((r, i) => r.forEach((v, k) => dv.setFloat64(i * 56 + k * 8, v, true)));
    return buf;
  };
  const BATCH = 10_000;
  const backfill = async (t: Kysely<any>, base: string, packs: string, key: string, recKey: string, packOf: (date: number) => number) => {
    let pos: [number, number] | null = null;
    let inst = NaN,
      pack = NaN,
      recs: number[][] = [];
    let out: unknown[] = [];
    const write = async () => {
      if (out.length)
        await t
          .insertInto(packs)
          .values(out as any)
          .execute();
      out = [];
    };
    const done = async () => {
      if (recs.length) out.push({ inst, [key]: pack, n: recs.length, data: encode(recs) });
      if (out.length >= 500) await write();
    };
    for (;;) {
      const where: RawBuilder<unknown> = pos === null ? sql`` : sql`where (inst, ${sql.ref(recKey)}) > (${pos[0]}, ${pos[1]})`;
      const { rows }: { rows: any[] } = await sql<any>`select inst, ${sql.ref(recKey)} as k, date, open, high, low, close, volume, amount
        from ${sql.table(base)} ${where} order by inst, ${sql.ref(recKey)} limit ${BATCH}`.execute(t);
      for (const r of rows) {
        const p = packOf(r.date);
        if (r.inst !== inst || p !== pack) {
          await done();
          inst = r.inst;
          pack = p;
          recs = [];
        }
        recs.push([r.k, r.open, r.high, r.low, r.close, r.volume, r.amount]);
      }
      if (rows.length < BATCH) break;
      pos = [rows[rows.length - 1].inst, rows[rows.length - 1].k];
    }
    await done();
    await write();
  };
  const run = async (t: Kysely<any>) => {
    await table(t, 'bars_1d_packs', 'month');
    await table(t, 'bars_1m_packs', 'date');
    await backfill(t, 'bars_1d', 'bars_1d_packs', 'month', 'date', (d) => Math.floor(d / 100));
    await backfill(t, 'bars_1m', 'bars_1m_packs', 'date', 'ts', (d) => d);
  };
  // PostgreSQL migrates in a transaction; on SQLite take one here so the backfill commits once.
  await (db.isTransaction ? run(db) : db.transaction().execute(run));
}
