import { sql, type Kysely } from 'kysely';

/**
 * Restated statements are kept beside the originals (issue 37): the primary key of the four
 * statement tables gains `announce_date`, so a row announced later for the same period (a
 * restatement) is another version instead of replacing the first. Every stored row is kept (one
 * version per period so far). PostgreSQL replaces the key; SQLite, whose tables are their keys
 * (without rowid), copies each table into one made from its own definition with the new key,
 * then takes its name. Frozen.
 */
const TABLES = ['income_statements', 'balance_sheets', 'cash_flow_statements', 'financial_indicators'];
const OLD_KEY = 'primary key (inst, report_date, report_type)';
const NEW_KEY = 'primary key (inst, report_date, report_type, announce_date)';

export async function up(db: Kysely<any>, dialect: 'sqlite' | 'postgres'): Promise<void> {
  for (const table of TABLES) {
    if (dialect === 'postgres') {
      await sql.raw(`alter table ${table} drop constraint ${table}_pkey, add ${NEW_KEY}`).execute(db);
      continue;
    }
    const { rows } = await sql<{ sql: string }>`select sql from sqlite_master where type = 'table' and name = ${table}`.execute(db);
    const made = rows[0]?.sql ?? '';
    if (!made.includes(OLD_KEY)) throw new Error(`migration 0022: ${table} is not as 0002 made it: ${made}`);
    const next = `${table}_0022`;
    await sql.raw(made.replace(OLD_KEY, NEW_KEY).replace(/^create table "?\w+"?/i, `create table ${next}`)).execute(db);
    await sql.raw(`insert into ${next} select * from ${table}`).execute(db);
    await sql.raw(`drop table ${table}`).execute(db);
    await sql.raw(`alter table ${next} rename to ${table}`).execute(db);
  }
}
