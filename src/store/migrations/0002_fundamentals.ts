import { sql, type Kysely } from 'kysely';

/**
 * Company, fundamentals and flow datasets (issue 3). Frozen: never import application code here.
 * Conventions of 0001: dates YYYYMMDD integers, money bigint fen, text keys in byte order
 * ("C" collation on PostgreSQL), natural primary keys clustered on the keyset order
 * (SQLite WITHOUT ROWID). Column suffixes: `?` nullable, `$` text, `#` bigint, else integer.
 */
export async function up(db: Kysely<any>, dialect: 'sqlite' | 'postgres'): Promise<void> {
  const pg = dialect === 'postgres';
  const big = pg ? 'bigint' : 'integer';
  const table = async (name: string, cols: string[], key: string[]) => {
    const defs = cols.map((spec) => {
      const nullable = spec.endsWith('?');
      const s = nullable ? spec.slice(0, -1) : spec;
      const kind = s.endsWith('$') ? 'text' : s.endsWith('#') ? big : 'integer';
      const col = s.replace(/[$#]$/, '');
      const collate = kind === 'text' && pg && key.includes(col) ? ' collate "C"' : '';
      return `${col} ${kind}${collate}${nullable ? '' : ' not null'}`;
    });
    await sql.raw(`create table ${name} (${defs.join(', ')}, primary key (${key.join(', ')}))${pg ? '' : ' without rowid'}`).execute(db);
  };
  const period = ['inst', 'report_date', 'report_type$', 'announce_date'];
  const periodKey = ['inst', 'report_date', 'report_type'];

  await table(
    'income_statements',
    [
      ...period,
      'revenue#',
      'operating_cost#',
      'operating_profit#',
      'total_profit#',
      'income_tax#',
      'net_profit#',
      'net_profit_attributable#',
      'basic_eps#',
    ],
    periodKey,
  );
  await table(
    'balance_sheets',
    [
      ...period,
      'total_assets#',
      'current_assets#',
      'cash#',
      'receivables#',
      'inventory#',
      'fixed_assets#',
      'total_liabilities#',
      'current_liabilities#',
      'equity_attributable#',
      'minority_interest#',
      'total_equity#',
      'share_capital#',
    ],
    periodKey,
  );
  await table(
    'cash_flow_statements',
    [
      ...period,
      'operating_cash_flow#',
      'investing_cash_flow#',
      'financing_cash_flow#',
      'capex#',
      'free_cash_flow#',
      'cash_begin#',
      'cash_end#',
    ],
    periodKey,
  );
  await table(
    'financial_indicators',
    [
      ...period,
      ...[
        'eps',
        'bps',
        'roe',
        'roa',
        'gross_margin',
        'net_margin',
        'debt_to_assets',
        'current_ratio',
        'quick_ratio',
        'revenue_yoy',
        'net_profit_yoy',
      ].map((c) => `${c}#?`),
    ],
    periodKey,
  );

  await table(
    'dividends',
    [
      'inst',
      'report_period',
      'announce_date',
      'record_date?',
      'ex_date?',
      'pay_date?',
      'cash_per_share#',
      'bonus_ratio#',
      'transfer_ratio#',
      'progress$',
    ],
    ['inst', 'report_period', 'announce_date'],
  );
  await table(
    'earnings_forecasts',
    [
      'inst',
      'report_date',
      'report_type$',
      'announce_date',
      'type$',
      'net_profit_min#',
      'net_profit_max#',
      'previous_net_profit#?',
      'change_min#?',
      'change_max#?',
      'summary$',
    ],
    ['inst', 'announce_date', 'report_date'],
  );
  await table(
    'institutional_holdings',
    ['inst', 'report_date', 'rank', 'announce_date', 'holder_name$', 'holder_type$', 'shares#', 'percent_of_float#', 'change#?'],
    ['inst', 'report_date', 'rank'],
  );
  await table(
    'management',
    ['inst', 'seq', 'name$', 'title$', 'gender$', 'birth_year', 'education$', 'start_date', 'end_date?'],
    ['inst', 'seq'],
  );
  await table(
    'company_profiles',
    [
      'inst',
      'full_name$',
      'english_name$',
      'established_date',
      'legal_representative$',
      'registered_capital#',
      'address$',
      'province$',
      'website$',
      'employees',
      'main_business$',
      'introduction$',
    ],
    ['inst'],
  );
  await table('business_scope', ['inst', 'seq', 'type$', 'text$'], ['inst', 'seq']);
  await table(
    'capital_flows',
    ['inst', 'date', 'amount#', 'xl_buy#', 'xl_sell#', 'l_buy#', 'l_sell#', 'm_buy#', 'm_sell#', 's_buy#', 's_sell#'],
    ['inst', 'date'],
  );
}
