/**
 * Index members and weights over time (指数成分和权重, Tushare's `index_weight`): on each weight
 * date, every member of the index with its weight in percent. The members in force on a day are
 * those of the index's latest weight date on or before it (index providers publish weights at
 * month ends and after each review, June and December for the CSI and SZSE indices).
 */
import { date, decimal, instrument } from './columns.js';
import { col, declare } from './dataset.js';

/** Percent of the index, up to 6 decimals (Tushare publishes 2 to 5), written with at least 2. */
export const WEIGHT = decimal(6, 2, { min: 0, unit: 'percent of the index' });

export const indexWeights = declare({
  name: 'index_weights',
  table: 'index_weights',
  doc: 'Members of indices and their weights on each weight date: the members in force on a day are those of the latest weight date on or before it.',
  record: { id: 'IndexWeight', description: 'A member of an index on a weight date, with its weight.' },
  columns: [
    col('index_id', instrument(['index']), 'The index (CODE.MARKET).', { column: 'index_inst' }),
    col('instrument_id', instrument(['equity']), 'The member equity (CODE.MARKET).', { column: 'inst' }),
    col('trade_date', date, 'Weight date: the members and weights hold from it to the next weight date of the index.'),
    col('weight', WEIGHT, 'Weight in the index, percent (1.5 = 1.5%); the members of a date sum to about 100.'),
  ],
  key: ['index_id', 'trade_date', 'instrument_id'],
  // Read by the market-wide days: index= on pools, day bars and breadth.
  feeds: ['market'],
});
