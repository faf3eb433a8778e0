import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import type { Database as Schema } from '../schema.js';
import type { Store } from '../store.js';

/** Opens (creating if needed) a SQLite store. One of the two files that import a driver. */
export function openSqlite(file: string): Store {
  const raw = new Database(file);
  raw.pragma('journal_mode = WAL');
  raw.pragma('synchronous = NORMAL');
  raw.pragma('cache_size = -65536');
  raw.pragma('mmap_size = 268435456');
  raw.pragma('busy_timeout = 5000');
  const db = new Kysely<Schema>({ dialect: new SqliteDialect({ database: raw }) });
  const statements = new Map<string, Database.Statement>();
  return {
    dialect: 'sqlite',
    async select<T>(sql: string, params: unknown[]) {
      let stmt = statements.get(sql);
      if (!stmt) { stmt = raw.prepare(sql); statements.set(sql, stmt); }
      return stmt.all(...params) as T[];
    },
    db,
    async bulkInsert(table, columns, rows) {
      if (rows.length === 0) return;
      const stmt = raw.prepare(
        `insert into ${table} (${columns.join(', ')}) values (${columns.map(() => '?').join(', ')})`,
      );
      const run = raw.transaction((rs: unknown[][]) => { for (const r of rs) stmt.run(r); });
      run(rows);
    },
    async ping() { raw.prepare('select 1').get(); },
    async close() { await db.destroy(); },
  };
}
