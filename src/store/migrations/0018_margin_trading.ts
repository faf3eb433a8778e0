import { sql, type Kysely } from 'kysely';

/**
 * Margin trading (融资融券) per equity and trading day (datasets/margin-trading.ts). Frozen.
 * Money bigint fen, shares bigint; the natural key (inst, date) clustered (SQLite WITHOUT ROWID).
 */
export async function up(db: Kysely<any>, dialect: 'sqlite' | 'postgres'): Promise<void> {
  const pg = dialect === 'postgres';
  const big = pg ? 'bigint' : 'integer';
  const cols = [
    'financing_balance',
    'financing_bought',
    'financing_repaid',
    'short_balance',
    'short_shares',
    'short_sold',
    'short_repaid',
    'total_balance',
  ];
  await sql
    .raw(
      `create table margin_trading (inst integer not null, date integer not null, ${cols.map((c) => `${c} ${big} not null`).join(', ')},` +
        ` primary key (inst, date))${pg ? '' : ' without rowid'}`,
    )
    .execute(db);
}
