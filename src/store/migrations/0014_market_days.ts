import { sql, type Kysely } from 'kysely';

/**
 * Days of a market (derived/market-days.ts): `market_days` holds each market's trading day as
 * one row of day records (store/day-records.ts), `market_breadth` its counts; both are derived
 * from the daily bar packs, which gain an index by month (the derivation reads a month of every
 * instrument at once). Created empty: migration's rebuild of the derivation fills them.
 * Numbered 0014: 0012 is the instruments' listing kind, 0013 their listing-date source.
 */
export async function up(db: Kysely<any>, dialect: 'sqlite' | 'postgres'): Promise<void> {
  const pg = dialect === 'postgres';
  const [blob, big, tail] = pg ? ['bytea', 'bigint', ''] : ['blob', 'integer', ' without rowid'];
  await sql
    .raw(
      `create table market_days (market text not null, date integer not null, n integer not null, data ${blob} not null,` +
        ` primary key (market, date))${tail}`,
    )
    .execute(db);
  const counts = ['listed', 'advancers', 'decliners', 'unchanged', 'limit_up', 'limit_down', 'suspended'].map(
    (c) => `${c} integer not null`,
  );
  await sql
    .raw(
      `create table market_breadth (market text not null, date integer not null, ${counts.join(', ')},` +
        ` volume ${big} not null, amount ${big} not null, unknown_amounts integer not null, primary key (market, date))${tail}`,
    )
    .execute(db);
  await sql.raw('create index bars_1d_packs_month on bars_1d_packs (month, inst)').execute(db);
}
