import { sql, type Kysely } from 'kysely';

/**
 * Daily bars derived from 1m bars (derived/derived-daily.ts): the `(inst, date)` of every
 * `bars_1d` row that `mds ingest` derived from the day's 1m bars rather than loaded. A loaded
 * daily bar removes its mark; export leaves marked rows out. Created empty: every daily bar of
 * an existing store was loaded (nothing derived them before this migration).
 * Numbered 0010 after 0008 and 0009 of work in progress elsewhere; it depends on neither.
 */
export async function up(db: Kysely<any>, dialect: 'sqlite' | 'postgres'): Promise<void> {
  await sql
    .raw(
      'create table bars_1d_derived (inst integer not null, date integer not null, primary key (inst, date))' +
        (dialect === 'postgres' ? '' : ' without rowid'),
    )
    .execute(db);
}
