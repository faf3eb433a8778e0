/**
 * The three exchanges (CONTRACT.md §2): reference facts every store holds from its first
 * migration on (0008), whether or not anything else was loaded. `mds ingest markets` may update
 * their descriptions. `opened` is the exchange's first trading day: the Shenzhen Stock Exchange
 * traded in trial operation from 1990-12-01 and was formally opened on 1991-07-03.
 */
import type { MarketId } from './types.js';

export interface Exchange {
  id: MarketId;
  name: string;
  name_local: string;
  mic: string;
  timezone: string;
  currency: string;
  /** YYYYMMDD */
  opened: number;
}

export const EXCHANGES: readonly Exchange[] = [
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
];
