import { sql, type Kysely } from 'kysely';

/**
 * Indicator states (derived/indicator-states.ts): each daily bar pack gets the recursive
 * indicators' states before its first bar, as JSON text, in its own row, so that an indicator
 * page reads one range of packs. Added empty; `migrate` folds them from the packs
 * (derived/registry.ts) because their content is code's output, folded again whenever its
 * version changes, not a schema's.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql.raw('alter table bars_1d_packs add column states text').execute(db);
}
