import { sql, type Kysely } from 'kysely';

/**
 * PostgreSQL: every data version committed is announced on the channel `mds_data_version`
 * (payload: the version), so servers with read replicas learn of it at once
 * (store/dialects/postgres.ts watchVersions). A notification is sent at the commit of the
 * transaction that recorded the version, never before. SQLite: nothing. Frozen.
 */
export async function up(db: Kysely<any>, dialect: 'sqlite' | 'postgres'): Promise<void> {
  if (dialect !== 'postgres') return;
  await sql
    .raw(
      'create function mds_announce_version() returns trigger language plpgsql as $$ ' +
        "begin perform pg_notify('mds_data_version', new.version::text); return new; end $$",
    )
    .execute(db);
  await sql
    .raw('create trigger data_versions_announce after insert on data_versions for each row execute function mds_announce_version()')
    .execute(db);
}
