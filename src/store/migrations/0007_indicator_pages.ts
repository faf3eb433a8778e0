import { sql, type Kysely } from 'kysely';

/**
 * Precomputed indicators (store/indicator-pages.ts): the points of the indicators an operator
 * chose, per instrument, indicator and month, as page text. Created empty: nothing is
 * precomputed until `mds indicators precompute` chooses it. Stored as the bar pages are on
 * PostgreSQL (0006): lz4 where the server has it, kept in the row.
 */
export async function up(db: Kysely<any>, dialect: 'sqlite' | 'postgres'): Promise<void> {
  await sql.raw('create table indicator_pages (inst integer not null, indicator text not null, month integer not null, data text not null, '
    + 'primary key (inst, indicator, month))').execute(db);
  if (dialect !== 'postgres') return;
  await sql.raw('alter table indicator_pages alter column data set storage main').execute(db);
  await sql.raw(`do $$ begin
    alter table indicator_pages alter column data set compression lz4;
  exception when feature_not_supported or invalid_parameter_value then
    null; -- a server without lz4 keeps pglz
  end $$`).execute(db);
}
