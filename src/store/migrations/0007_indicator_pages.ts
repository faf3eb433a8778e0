import { sql, type Kysely } from 'kysely';
import { pageColumnStorage } from './page-storage.js';

/**
 * Precomputed indicators (derived/indicator-pages.ts): the points of the indicators an operator
 * chose, per instrument, indicator and month, as page text. Created empty: nothing is
 * precomputed until `mds indicators precompute` chooses it. Stored as the bar pages are on
 * PostgreSQL (page-storage.ts).
 */
export async function up(db: Kysely<any>, dialect: 'sqlite' | 'postgres'): Promise<void> {
  await sql
    .raw(
      'create table indicator_pages (inst integer not null, indicator text not null, month integer not null, data text not null, ' +
        'primary key (inst, indicator, month))',
    )
    .execute(db);
  if (dialect !== 'postgres') return;
  await pageColumnStorage(db, 'indicator_pages', 'data');
}
