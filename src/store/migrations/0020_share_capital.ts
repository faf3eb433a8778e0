import { sql, type Kysely } from 'kysely';

/** Share capital changes (datasets/share-capital.ts): one row per equity and change date. Frozen. */
export async function up(db: Kysely<any>, dialect: 'sqlite' | 'postgres'): Promise<void> {
  const pg = dialect === 'postgres';
  const big = pg ? 'bigint' : 'integer';
  await sql
    .raw(
      'create table share_capital (inst integer not null, change_date integer not null, announce_date integer, reason text not null,' +
        ` total_shares ${big} not null, float_shares ${big} not null, restricted_shares ${big} not null,` +
        ` primary key (inst, change_date))${pg ? '' : ' without rowid'}`,
    )
    .execute(db);
}
