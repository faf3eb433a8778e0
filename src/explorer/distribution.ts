/**
 * A day's distribution of changes (涨跌分布), as Tongdaxin's market page draws it: limit-down,
 * bands of % change, unchanged, bands up, limit-up. Each equity that traded is in one bin; a
 * close at its limit is in the limit's bin whatever its % change.
 */
export interface Changed {
  close: string;
  pct_change: string | null;
  limit_up: string | null;
  limit_down: string | null;
}

export interface Bin {
  label: string;
  side: 'up' | 'down' | 'flat';
  count: number;
}

/** Band edges in %: a change falls in the first band whose upper edge it is below (down) or reaches (up). */
const DOWN = [-7, -5, -3, -1, 0];
const UP = [1, 3, 5, 7];

export function distribution(rows: Changed[]): Bin[] {
  const bins: Bin[] = [
    { label: '跌停', side: 'down', count: 0 },
    { label: '<-7', side: 'down', count: 0 },
    { label: '-7~-5', side: 'down', count: 0 },
    { label: '-5~-3', side: 'down', count: 0 },
    { label: '-3~-1', side: 'down', count: 0 },
    { label: '-1~0', side: 'down', count: 0 },
    { label: '平', side: 'flat', count: 0 },
    { label: '0~1', side: 'up', count: 0 },
    { label: '1~3', side: 'up', count: 0 },
    { label: '3~5', side: 'up', count: 0 },
    { label: '5~7', side: 'up', count: 0 },
    { label: '>7', side: 'up', count: 0 },
    { label: '涨停', side: 'up', count: 0 },
  ];
  for (const r of rows) {
    if (r.pct_change === null) continue;
    bins[binOf(r)].count++;
  }
  return bins;
}

function binOf(r: Changed): number {
  if (r.limit_up !== null && r.close === r.limit_up) return 12;
  if (r.limit_down !== null && r.close === r.limit_down) return 0;
  const p = Number(r.pct_change);
  if (p === 0) return 6;
  if (p < 0) {
    const i = DOWN.findIndex((edge) => p < edge);
    return i < 0 ? 5 : i + 1;
  }
  const i = UP.findIndex((edge) => p < edge);
  return i < 0 ? 11 : i + 7;
}
