import { sql, type Kysely } from 'kysely';

/**
 * The three markets as this migration shipped them: a copy, not an import of market/markets.ts,
 * so that the migration stays what it was whatever that table becomes (a later change of a
 * market is a migration of its own).
 */
const EXCHANGES = [
  {
    id: 'BJ',
    name: 'Beijing Stock Exchange',
    name_local: '北京证券交易所',
    mic: 'BJSE',
    timezone: 'Asia/Shanghai',
    currency: 'CNY',
    opened: 20211115,
  },
  {
    id: 'SH',
    name: 'Shanghai Stock Exchange',
    name_local: '上海证券交易所',
    mic: 'XSHG',
    timezone: 'Asia/Shanghai',
    currency: 'CNY',
    opened: 19901219,
  },
  {
    id: 'SZ',
    name: 'Shenzhen Stock Exchange',
    name_local: '深圳证券交易所',
    mic: 'XSHE',
    timezone: 'Asia/Shanghai',
    currency: 'CNY',
    opened: 19901201,
  },
] as const;

/**
 * Every store holds the three markets, and trading_days holds only the days
 * an operator loaded, open or closed (`is_open` 0 closed; 1 or null open): they extend or correct the calendar that
 * ships with the service (market/calendar.ts). Rows loaded before this migration stay open days.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql.raw('alter table trading_days add column is_open integer').execute(db);
  for (const m of EXCHANGES) {
    await sql`insert into markets (id, name, name_local, mic, timezone, currency, opened)
      values (${m.id}, ${m.name}, ${m.name_local}, ${m.mic}, ${m.timezone}, ${m.currency}, ${m.opened}) on conflict (id) do nothing`.execute(
      db,
    );
  }
}
