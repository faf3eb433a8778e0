/** The six stock pools (CONTRACT.md §2, §6), in a stable order. */
export const POOL_TYPES = [
  { id: 'limit_up', name: '涨停股池', description: 'Closed at the up limit on the day.' },
  { id: 'limit_down', name: '跌停股池', description: 'Closed at the down limit on the day.' },
  { id: 'broken_limit_up', name: '炸板股池', description: 'Touched the up limit during the day and closed below it.' },
  { id: 'previous_limit_up', name: '昨日涨停股池', description: 'Closed at the up limit on the previous trading day.' },
  { id: 'strong', name: '强势股池', description: 'Eastmoney strong stocks: a new 60-day high close or at least two limit-up days in the last 5 trading days, excluding those that are limit-up today.' },
  { id: 'sub_new', name: '次新股池', description: 'Eastmoney sub-new stocks: listed within the last year (250 trading days), excluding the first days without price limits.' },
] as const;
