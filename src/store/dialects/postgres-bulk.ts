import type pg from 'pg';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { from as copyFrom } from 'pg-copy-streams';
import type { BulkOptions, BulkSession, UpsertChanges, UpsertOptions, UpsertTarget } from '../types.js';
import { YearPartitions } from './postgres-partitions.js';

/** A row's key as text (both sides of a returned key compared so: pg gives bigints as text). */
const keyOf = (values: unknown[]) => values.map((v) => String(v)).join('\u0000');

/** A value in PostgreSQL's COPY text format. */
function copyValue(v: unknown): string {
  if (v === null || v === undefined) return '\\N';
  if (typeof v === 'number') return String(v);
  return String(v).replace(/[\\\n\r\t]/g, (c) => (c === '\\' ? '\\\\' : c === '\n' ? '\\n' : c === '\r' ? '\\r' : '\\t'));
}

/** The advisory lock that serialises derived-data writes (BulkSession.lockPacks; a constant of the project's own). */
const PACK_LOCK = 0x6d64_7301;

const toDollars = (sql: string) => {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
};

/**
 * The bulk session of a PostgreSQL transaction: rows are COPYed into a temporary staging table
 * (dropped at commit) and merged with one `insert … select … on conflict do update … where
 * <payload differs>`; `xmax = 0` tells inserted rows from updated ones. A key repeated within
 * one call starts a new merge, so rows apply in order as on SQLite.
 */
class PgBulkSession implements BulkSession {
  private staged = new Map<string, { stage: string; merge: string; keyed: string }>();
  private packsLocked = false;
  /** The year partitions of bars_1m and bars_1m_packs, made before a write needs them (postgres-partitions.ts). */
  private readonly partitions = new YearPartitions(this);

  constructor(private readonly client: pg.PoolClient) {}

  async query<T>(sql: string, params: unknown[] = []): Promise<T[]> {
    return (await this.client.query(toDollars(sql), params)).rows as T[];
  }

  async queryRows(sql: string, params: unknown[] = []): Promise<unknown[][]> {
    return (await this.client.query({ text: toDollars(sql), values: params, rowMode: 'array' })).rows as unknown[][];
  }

  /** A transaction advisory lock, held to the commit; two writers merging into one pack thus merge one after the other. */
  async lockPacks(): Promise<void> {
    if (this.packsLocked) return;
    await this.query('select pg_advisory_xact_lock(?)', [PACK_LOCK]);
    this.packsLocked = true;
  }

  /** `data_versions` locked against other writers (not readers) to the commit: one version is made at a time. */
  async lockVersions(): Promise<void> {
    await this.client.query('lock table data_versions in share row exclusive mode');
  }

  private async prepare(t: UpsertTarget) {
    const id = `${t.table}(${t.columns.join(',')})`;
    let s = this.staged.get(id);
    if (!s) {
      const stage = `mds_stage_${this.staged.size}`;
      await this.client.query(`create temp table ${stage} (like ${t.table}) on commit drop`);
      const cols = t.columns.join(', ');
      const payload = t.columns.filter((c) => !t.key.includes(c));
      const action =
        payload.length === 0
          ? 'do nothing'
          : `do update set ${payload.map((c) => `${c} = excluded.${c}`).join(', ')}` +
            ` where (${payload.map((c) => `${t.table}.${c}`).join(', ')}) is distinct from (${payload.map((c) => `excluded.${c}`).join(', ')})`;
      const insert = `insert into ${t.table} (${cols}) select ${cols} from ${stage} on conflict (${t.key.join(', ')}) ${action}`;
      // A partitioned table's RETURNING has no system column (xmax): its inserted rows are those whose key was not
      // stored before, counted in the statement's own snapshot (which its insert does not change).
      // A lookup by key for each staged row (the LIMIT keeps it one: a semi-join of the unanalyzed stage could hash every partition).
      const stored =
        `select count(*)::int as n from ${stage} s, lateral (select 1 from ${t.table} b` +
        ` where ${t.key.map((k) => `b.${k} = s.${k}`).join(' and ')} limit 1) hit`;
      const merge = this.partitions.has(t.table)
        ? `with pre as (${stored}), up as (${insert} returning 1), n as (select count(*)::int as n from ${stage})` +
          ' select n.n - pre.n as inserted, greatest((select count(*)::int from up) - (n.n - pre.n), 0) as updated from pre, n'
        : `with up as (${insert} returning (xmax = 0) as ins)` +
          ' select count(*) filter (where ins)::int as inserted, count(*) filter (where not ins)::int as updated from up';
      // Asked which rows changed: the keys of those inserted or updated (each key once in a staged batch;
      // never asked of the partitioned minute bars, whose RETURNING has no xmax).
      const keyed = `${insert} returning (xmax = 0) as ins, ${t.key.map((k) => `${t.table}.${k}`).join(', ')}`;
      s = { stage, merge, keyed };
      this.staged.set(id, s);
    }
    return s;
  }

  /** COPY straight into the table. */
  async insert(table: string, columns: string[], rows: unknown[][]): Promise<void> {
    if (rows.length === 0) return;
    await this.partitions.ensure(table, columns, rows);
    let text = '';
    for (const r of rows) text += r.map(copyValue).join('\t') + '\n';
    await pipeline(Readable.from([text]), this.client.query(copyFrom(`copy ${table} (${columns.join(', ')}) from stdin`)));
  }

  async upsert(t: UpsertTarget, rows: unknown[][], opts?: UpsertOptions): Promise<UpsertChanges> {
    const total: UpsertChanges = { inserted: 0, updated: 0, unchanged: 0, ...(opts?.changed ? { changed: [] } : {}) };
    if (rows.length === 0) return total;
    await this.partitions.ensure(t.table, t.columns, rows);
    const s = await this.prepare(t);
    const keyIdx = t.key.map((k) => t.columns.indexOf(k));
    let start = 0;
    const seen = new Set<string>();
    const flush = async (end: number) => {
      if (end === start) return;
      await this.client.query(`truncate ${s.stage}`);
      let text = '';
      for (let i = start; i < end; i++) text += rows[i].map(copyValue).join('\t') + '\n';
      await pipeline(Readable.from([text]), this.client.query(copyFrom(`copy ${s.stage} (${t.columns.join(', ')}) from stdin`)));
      const r = total.changed
        ? await this.keyed(s.keyed, t.key.length, keyIdx, rows, start, end, total.changed)
        : await this.counted(s.merge);
      total.inserted += r.inserted;
      total.updated += r.updated;
      total.unchanged += end - start - r.inserted - r.updated;
      start = end;
      seen.clear();
    };
    for (let i = 0; i < rows.length; i++) {
      const k = keyOf(keyIdx.map((j) => rows[i][j]));
      if (seen.has(k)) await flush(i);
      seen.add(k);
    }
    await flush(rows.length);
    total.changed?.sort((a, b) => a - b);
    return total;
  }

  private async counted(merge: string): Promise<{ inserted: number; updated: number }> {
    return (await this.client.query(merge)).rows[0] as { inserted: number; updated: number };
  }

  /** The staged rows `from`..`to` of `rows` merged, the indices of those inserted or updated pushed to `changed`. */
  private async keyed(sql: string, keys: number, keyIdx: number[], rows: unknown[][], from: number, to: number, changed: number[]) {
    const res = await this.client.query({ text: sql, rowMode: 'array' });
    const at = new Map<string, number>();
    for (let i = from; i < to; i++) at.set(keyOf(keyIdx.map((j) => rows[i][j])), i);
    let inserted = 0;
    for (const r of res.rows as unknown[][]) {
      if (r[0]) inserted++;
      const i = at.get(keyOf(r.slice(1, 1 + keys)));
      if (i === undefined) throw new Error(`upsert: a returned key not among the rows written (${r.slice(1).join(', ')})`);
      changed.push(i);
    }
    return { inserted, updated: res.rows.length - inserted };
  }
}

/**
 * Runs `fn` in one transaction on one pooled connection (see Store.bulkTransaction). A bulk
 * transaction (ingest, migrations) may run long: the pool's statement timeout, meant for
 * requests, is lifted for it (`set local`), and its statements get no client-side timeout.
 * `fail` maps an error to the one to throw (the store's outage errors).
 */
export async function pgBulkTransaction<T>(
  pool: pg.Pool,
  fn: (s: BulkSession) => Promise<T>,
  opts?: BulkOptions,
  fail: (e: unknown) => unknown = (e) => e,
): Promise<T> {
  let client: pg.PoolClient;
  try {
    client = await pool.connect();
  } catch (e) {
    throw fail(e);
  }
  let broken: Error | undefined;
  try {
    await client.query(opts?.readOnly ? 'begin isolation level repeatable read read only' : 'begin');
    await client.query('set local statement_timeout = 0');
    const result = await fn(new PgBulkSession(client));
    await client.query(opts?.readOnly ? 'rollback' : 'commit');
    return result;
  } catch (e) {
    try {
      await client.query('rollback');
    } catch (r) {
      broken = r as Error;
    }
    throw fail(e);
  } finally {
    client.release(broken);
  }
}
