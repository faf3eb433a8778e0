/**
 * Share capital (股本变动) of equities: one row per change, with the counts after it. Tradable A
 * shares are `float_shares`; `restricted_shares` are A shares not yet tradable (lock-ups, the
 * non-tradable shares before the 2005–2006 reform); the rest of `total_shares` are other classes
 * (B or H shares). The counts in force on a day are those of its latest change on or before it.
 */
import { date, instrument, oneOf } from './columns.js';
import { col, declare, orderCheck, all, type Problem, type Row } from './dataset.js';
import { SHARES } from './units.js';

export const SHARE_CAPITAL_REASONS = ['ipo', 'bonus', 'transfer', 'rights', 'placement', 'unlock', 'buyback', 'other'] as const;

export const shareCapital = declare({
  name: 'share_capital',
  table: 'share_capital',
  doc: 'Share capital changes of equities: the counts after each change.',
  record: { id: 'ShareCapitalChange', description: 'A change of an equity’s share capital, with the counts in force from change_date on.' },
  serve: {
    access: 'instrument',
    kinds: ['equity'],
    operationId: 'listShareCapital',
    segment: 'share-capital',
    window: 'change_date',
    date: 'in-force',
    summary: 'Share capital changes (股本变动), ascending by change date.',
    description:
      'One record per change, with the counts after it: total shares, tradable A shares (float) and restricted A shares. ' +
      'The counts in force on a day are those of the latest change on or before it (`date`): turnover rates and market values of past days use them. ' +
      'from/to select on change_date.',
    response: 'ShareCapitalCollectionResponse',
  },
  columns: [
    col('instrument_id', instrument(['equity']), 'The equity (CODE.MARKET).', { column: 'inst' }),
    col('change_date', date, 'First day the counts are in force (the ex-date of a bonus or transfer, the listing day of new shares).'),
    col('announce_date', date, 'Date the change was announced; null when not known.', { optional: true }),
    col(
      'reason',
      oneOf(SHARE_CAPITAL_REASONS),
      'ipo (listing), bonus (送股), transfer (转增), rights (配股), placement (增发), unlock (限售股解禁), buyback (回购注销) or other.',
    ),
    col('total_shares', SHARES, 'Total shares after the change.'),
    col('float_shares', SHARES, 'Tradable A shares (流通A股) after the change.'),
    col('restricted_shares', SHARES, 'A shares not yet tradable (限售股) after the change.'),
  ],
  key: ['instrument_id', 'change_date'],
  // Read by the market-wide days: the pools' turnover (the float in force).
  feeds: ['market'],
  check: (ix) =>
    all(orderCheck(ix, 'announce_date', 'change_date'), (r: Row): Problem | null =>
      (r[ix.float_shares] as number) + (r[ix.restricted_shares] as number) > (r[ix.total_shares] as number)
        ? ['total_shares', 'expected total_shares >= float_shares + restricted_shares']
        : null,
    ),
});
