import { sql, type Kysely } from 'kysely';
import { EXCHANGES } from '../../market/markets.js';

/**
 * Every store holds the three markets (market/markets.ts), and trading_days holds only the days
 * an operator loaded, open or closed (`is_open` 0 closed; 1 or null open): they extend or correct the calendar that
 * ships with the service (market/calendar.ts). Rows loaded before this migration stay open days.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql.raw('alter table trading_days add column is_open integer').execute(db);
  for (const m of EXCHANGES) {
    await sql`insert into markets (id, name, name_local, mic, timezone, currency, opened)
      values (${m.id}, ${m.name}, ${m.name_local}, ${m.mic}, ${m.timezone}, ${m.currency}, ${m.opened}) on conflict (id) do nothing`.execute(db);
  }
}
