import { sql, type Kysely } from 'kysely';

/**
 * Suspensions (停牌) as loaded (datasets/suspensions.ts): one row per interval of an equity, keyed
 * by its first day. Frozen. Intraday halts are one day with a window (`halt_from`..`halt_to`,
 * `HH:MM` market time); whole-day intervals have none. Where an equity has no row, the API derives
 * its intervals from its bars and the calendar (nothing is stored for those).
 */
export async function up(db: Kysely<any>, dialect: 'sqlite' | 'postgres'): Promise<void> {
  const pg = dialect === 'postgres';
  await sql
    .raw(
      'create table suspensions (inst integer not null, start_date integer not null, end_date integer, resume_date integer,' +
        ' halt_from text, halt_to text, reason text, announce_date integer,' +
        ` primary key (inst, start_date))${pg ? '' : ' without rowid'}`,
    )
    .execute(db);
}
