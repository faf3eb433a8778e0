/** The six stock pools (CONTRACT.md §2, §6), in a stable order. */
export const POOL_TYPES = [
  { id: 'limit_up', name: '涨停股池', description: 'Closed at the up limit on the day.' },
  { id: 'limit_down', name: '跌停股池', description: 'Closed at the down limit on the day.' },
  { id: 'broken_limit_up', name: '炸板股池', description: 'Touched the up limit during the day and closed below it.' },
  { id: 'previous_limit_up', name: '昨日涨停股池', description: 'Closed at the up limit on the previous trading day.' },
  {
    id: 'strong',
    name: '强势股池',
    description:
      'Not limit-up today, and either closed at least twice at the up limit in the last 5 trading days (repeated_limit_up), or closed up on the day above every close of the previous 59 trading days (new_high, needs 59 of them).',
  },
  {
    id: 'sub_new',
    name: '次新股池',
    description: 'Listed within the last 250 trading days (about a year), traded on the day, and past the first days without price limits.',
  },
] as const;
