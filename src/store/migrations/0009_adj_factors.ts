import { sql, type Kysely } from 'kysely';

/**
 * Published backward adjustment factors (dataset adj_factors): per instrument and first trading
 * day, the factor as exact decimal text (up to 16 decimals, more than a scaled integer in a
 * double holds). Frozen: never import application code here.
 */
export async function up(db: Kysely<any>, dialect: 'sqlite' | 'postgres'): Promise<void> {
  await sql
    .raw(
      'create table adj_factors (inst integer not null, date integer not null, adj_factor text not null, ' +
        `primary key (inst, date))${dialect === 'postgres' ? '' : ' without rowid'}`,
    )
    .execute(db);
}
