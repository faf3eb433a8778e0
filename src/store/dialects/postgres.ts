import pg from 'pg';
import { Kysely, PostgresDialect } from 'kysely';
import type { Database as Schema } from '../schema.js';
import type { Store } from '../store.js';
import { pgBulkTransaction } from './postgres-bulk.js';

/**
 * int8 comes back as a JS number (every stored integer is below 2^53, checked here) so that
 * both stores yield the same runtime types; numeric stays a string.
 */
function parseInt8(v: string): number {
  const n = Number(v);
  if (!Number.isSafeInteger(n)) throw new RangeError(`int8 value ${v} exceeds 2^53`);
  return n;
}

/** Opens a PostgreSQL store. One of the two files that import a driver. */
export function openPostgres(url: string, poolSize = 10): Store {
  const types = {
    getTypeParser(oid: number, format?: any) {
      if (oid === 20) return parseInt8;
      return pg.types.getTypeParser(oid, format);
    },
  };
  const pool = new pg.Pool({ connectionString: url, max: poolSize, types } as pg.PoolConfig);
  pool.on('error', () => { /* idle client errors surface on the next query */ });
  const db = new Kysely<Schema>({ dialect: new PostgresDialect({ pool }) });
  const names = new Map<string, { name: string; text: string }>();
  const named = (sql: string) => {
    let q = names.get(sql);
    if (!q) {
      let n = 0;
      q = { name: `mds_${names.size}`, text: sql.replace(/\?/g, () => `$${++n}`) };
      names.set(sql, q);
    }
    return q;
  };
  return {
    dialect: 'postgres',
    async select<T>(sql: string, params: unknown[]) {
      return (await pool.query({ ...named(sql), values: params })).rows as T[];
    },
    async selectRows(sql: string, params: unknown[]) {
      return (await pool.query({ ...named(sql), values: params, rowMode: 'array' })).rows as unknown[][];
    },
    db,
    async bulkInsert(table, columns, rows) {
      // Multi-row INSERT in batches, bounded by PostgreSQL's 65535 bind parameters.
      const per = Math.max(1, Math.floor(60000 / columns.length));
      const client = await pool.connect();
      try {
        for (let i = 0; i < rows.length; i += per) {
          const batch = rows.slice(i, i + per);
          const params: unknown[] = [];
          const values = batch.map((r) => {
            const ph = r.map((v) => { params.push(v); return '$' + params.length; });
            return `(${ph.join(',')})`;
          });
          await client.query(`insert into ${table} (${columns.join(', ')}) values ${values.join(',')}`, params);
        }
      } finally {
        client.release();
      }
    },
    bulkTransaction: (fn, opts) => pgBulkTransaction(pool, fn, opts),
    async ping() { await pool.query('select 1'); },
    async close() { await db.destroy(); },
  };
}
