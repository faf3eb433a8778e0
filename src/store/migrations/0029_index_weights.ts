import { sql, type Kysely } from 'kysely';

/**
 * Index members and weights over time (datasets/index-weights.ts): one row per index, weight
 * date and member. The key (index, date, member) clusters a date's members, so the members in
 * force on a day are the rows of one date, found by one descending lookup; (member, date) finds
 * the indices an equity was in. Frozen.
 */
export async function up(db: Kysely<any>, dialect: 'sqlite' | 'postgres'): Promise<void> {
  const pg = dialect === 'postgres';
  const big = pg ? 'bigint' : 'integer';
  await sql
    .raw(
      `create table index_weights (index_inst integer not null, trade_date integer not null, inst integer not null, weight ${big} not null,` +
        ` primary key (index_inst, trade_date, inst))${pg ? '' : ' without rowid'}`,
    )
    .execute(db);
  await sql.raw('create index index_weights_member on index_weights (inst, trade_date)').execute(db);
}
