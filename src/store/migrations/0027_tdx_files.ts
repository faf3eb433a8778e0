import { sql, type Kysely } from 'kysely';

/**
 * What `mds ingest --tdx` has loaded of each file of a Tongdaxin install (ingest/tdx-update.ts),
 * so that the next run reads only what is new: per file, keyed by its path inside the install
 * (`vipdoc/sh/lday/sh600000.day`, `T0002/hq_cache/gbbq`), its size and modification time (ms)
 * when it was loaded, the number of whole records loaded, the date (YYYYMMDD) of its last record
 * and the SHA-1 (hex) of the bytes loaded. Written in the load's own transaction. Frozen.
 */
export async function up(db: Kysely<any>, dialect: 'sqlite' | 'postgres'): Promise<void> {
  const [big, tail] = dialect === 'postgres' ? ['bigint', ''] : ['integer', ' without rowid'];
  await sql
    .raw(
      `create table tdx_files (path text primary key, size ${big} not null, mtime ${big} not null, records ${big} not null,` +
        ` last_date integer, sha1 text not null)${tail}`,
    )
    .execute(db);
}
