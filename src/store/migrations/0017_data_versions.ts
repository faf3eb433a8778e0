import { sql, type Kysely } from 'kysely';

/**
 * The data versions and their change log (store/versions.ts): `data_versions` holds one row per
 * version (a sequence: 1, 2, 3, … in commit order) with when and by what it was made;
 * `data_changes` what each changed, by dataset: rows written, the instruments (a JSON array of
 * ids, null for all or unknown) and the dates (null when the dataset has none). Version 1 stands
 * for whatever the store held before the log (nothing, in a new store); the unordered
 * `meta.data_version` it replaces is removed.
 */
export async function up(db: Kysely<any>, dialect: 'sqlite' | 'postgres'): Promise<void> {
  const pg = dialect === 'postgres';
  const [big, tail] = pg ? ['bigint', ''] : ['integer', ' without rowid'];
  await sql.raw(`create table data_versions (version integer primary key, at ${big} not null, origin text not null)`).execute(db);
  await sql
    .raw(
      'create table data_changes (version integer not null, dataset text not null,' +
        ` rows ${big} not null, instruments text, from_date integer, to_date integer, primary key (version, dataset))${tail}`,
    )
    .execute(db);
  // A frozen literal, not the code's wording: migrations never change once shipped.
  await sql`insert into data_versions (version, at, origin) values (1, ${Date.now()}, 'the data stored before the change log (migration 0017)')`.execute(
    db,
  );
  await sql`delete from meta where key = 'data_version'`.execute(db);
}
