import { sql, type Kysely } from 'kysely';

/**
 * Core catalogue and market data. Frozen: never import application code here.
 * Text keys use byte order ("C" collation on PostgreSQL) so both stores sort alike.
 * Bars, quotes and trades are clustered on their keyset order (SQLite WITHOUT ROWID,
 * PostgreSQL primary keys that INCLUDE the payload) so a page is one index range scan.
 */
export async function up(db: Kysely<any>, dialect: 'sqlite' | 'postgres'): Promise<void> {
  const pg = dialect === 'postgres';
  const text = (c: any) => (pg ? c.modifyEnd(sql`collate "C"`) : c);
  const big = pg ? 'bigint' : 'integer';
  const noRowid = (b: any) => (pg ? b : b.modifyEnd(sql`without rowid`));

  await noRowid(
    db.schema
      .createTable('meta')
      .addColumn('key', 'text', (c) => text(c).primaryKey())
      .addColumn('value', 'text', (c) => c.notNull()),
  ).execute();

  await noRowid(
    db.schema
      .createTable('markets')
      .addColumn('id', 'text', (c) => text(c).primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('name_local', 'text', (c) => c.notNull())
      .addColumn('mic', 'text', (c) => c.notNull())
      .addColumn('timezone', 'text', (c) => c.notNull())
      .addColumn('currency', 'text', (c) => c.notNull())
      .addColumn('opened', 'integer', (c) => c.notNull()),
  ).execute();

  await noRowid(
    db.schema
      .createTable('trading_days')
      .addColumn('market', 'text', (c) => text(c).notNull())
      .addColumn('date', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('trading_days_pk', ['market', 'date']),
  ).execute();

  await noRowid(
    db.schema
      .createTable('classifications')
      .addColumn('id', 'text', (c) => text(c).primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('type', 'text', (c) => text(c).notNull()),
  ).execute();
  await db.schema.createIndex('classifications_type').on('classifications').columns(['type', 'id']).execute();

  await db.schema
    .createTable('instruments')
    .addColumn('inst', 'integer', (c) => c.primaryKey())
    .addColumn('id', 'text', (c) => text(c).notNull().unique())
    .addColumn('kind', 'text', (c) => text(c).notNull())
    .addColumn('code', 'text', (c) => text(c).notNull())
    .addColumn('market', 'text', (c) => text(c).notNull())
    .addColumn('board', 'text', (c) => text(c))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('name_lc', 'text', (c) => c.notNull())
    .addColumn('name_en', 'text')
    .addColumn('list_date', 'integer')
    .addColumn('delist_date', 'integer')
    .addColumn('total_shares', big)
    .addColumn('float_shares', big)
    .addColumn('fund_type', 'text')
    .addColumn('underlying', 'text')
    .addColumn('base_date', 'integer')
    .addColumn('base_value', big)
    .execute();
  await db.schema.createIndex('instruments_kind_id').on('instruments').columns(['kind', 'id']).execute();

  await noRowid(
    db.schema
      .createTable('instrument_classifications')
      .addColumn('inst', 'integer', (c) => c.notNull())
      .addColumn('classification_id', 'text', (c) => text(c).notNull())
      .addPrimaryKeyConstraint('instrument_classifications_pk', ['inst', 'classification_id']),
  ).execute();

  await noRowid(
    db.schema
      .createTable('st_periods')
      .addColumn('inst', 'integer', (c) => c.notNull())
      .addColumn('start_date', 'integer', (c) => c.notNull())
      .addColumn('end_date', 'integer')
      .addPrimaryKeyConstraint('st_periods_pk', ['inst', 'start_date']),
  ).execute();

  await noRowid(
    db.schema
      .createTable('index_constituents')
      .addColumn('index_inst', 'integer', (c) => c.notNull())
      .addColumn('inst', 'integer', (c) => c.notNull())
      .addColumn('shares', big, (c) => c.notNull())
      .addPrimaryKeyConstraint('index_constituents_pk', ['index_inst', 'inst']),
  ).execute();

  // Hot tables: raw DDL so PostgreSQL's primary key can INCLUDE the payload (index-only scans).
  const table = async (name: string, cols: [string, string][], key: string[]) => {
    const defs = cols.map(([c, t]) => `${c} ${t === 'big' ? big : t} ${t.endsWith('null') ? '' : 'not null'}`);
    const payload = cols.map(([c]) => c).filter((c) => !key.includes(c));
    const pk = `primary key (${key.join(', ')})` + (pg ? ` include (${payload.join(', ')})` : '');
    await sql.raw(`create table ${name} (${defs.join(', ')}, ${pk})${pg ? '' : ' without rowid'}`).execute(db);
  };
  const bar: [string, string][] = ['open', 'high', 'low', 'close', 'volume', 'amount'].map((c) => [c, 'big']);
  await table('bars_1d', [['inst', 'integer'], ['date', 'integer'], ...bar], ['inst', 'date']);
  await table('bars_1m', [['inst', 'integer'], ['ts', 'big'], ['date', 'integer'], ...bar], ['inst', 'ts']);
  const book = ['bid_p', 'bid_v', 'ask_p', 'ask_v'].flatMap((p) => [1, 2, 3, 4, 5].map((l) => [p + l, `${big} null`] as [string, string]));
  await table(
    'quotes',
    [
      ['inst', 'integer'],
      ['ts', 'big'],
      ['date', 'integer'],
      ...['last', 'open', 'high', 'low', 'pre_close', 'volume', 'amount'].map((c) => [c, 'big'] as [string, string]),
      ...book,
    ],
    ['inst', 'ts'],
  );
  await table(
    'trades',
    [
      ['inst', 'integer'],
      ['date', 'integer'],
      ['seq', 'integer'],
      ['ts', 'big'],
      ['price', 'big'],
      ['volume', 'big'],
      ['amount', 'big'],
      ['side', 'text'],
    ],
    ['inst', 'date', 'seq'],
  );

  await noRowid(
    db.schema
      .createTable('corporate_actions')
      .addColumn('inst', 'integer', (c) => c.notNull())
      .addColumn('ex_date', 'integer', (c) => c.notNull())
      .addColumn('record_date', 'integer', (c) => c.notNull())
      .addColumn('pay_date', 'integer')
      .addColumn('announce_date', 'integer', (c) => c.notNull())
      .$call((b) =>
        ['cash_per_share', 'bonus_ratio', 'transfer_ratio', 'rights_ratio', 'rights_price'].reduce(
          (t, col) => t.addColumn(col, big, (c) => c.notNull().defaultTo(0)),
          b,
        ),
      )
      .addPrimaryKeyConstraint('corporate_actions_pk', ['inst', 'ex_date']),
  ).execute();

  await noRowid(
    db.schema
      .createTable('api_keys')
      .addColumn('id', 'text', (c) => text(c).primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('hash', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('revoked_at', 'text'),
  ).execute();
}
