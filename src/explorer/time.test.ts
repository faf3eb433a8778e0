import { describe, expect, it } from 'vitest';
import { chartTime, isIntraday, label, minuteTickLabel, tickLabel, wallSeconds } from './time.js';

describe('chart times in market time', () => {
  const bar = { timestamp: '2026-11-20T09:35:00+08:00', trade_date: '2026-11-20' };
  it('places intraday bars by their +08:00 wall clock, longer bars by trade date', () => {
    expect(chartTime(bar, '5m')).toBe(Date.UTC(2026, 10, 20, 9, 35) / 1000);
    expect(chartTime({ timestamp: '2026-11-20T15:00:00+08:00', trade_date: '2026-11-20' }, '1d')).toBe('2026-11-20');
    expect(chartTime({ timestamp: '2026-11-20T15:00:00+08:00', trade_date: '2026-11-20' }, '1mo')).toBe('2026-11-20');
    expect(wallSeconds('2024-02-29T13:01:00+08:00')).toBe(Date.UTC(2024, 1, 29, 13, 1) / 1000);
  });
  it('labels as the market reads them', () => {
    expect(label(bar, '1m')).toBe('2026-11-20 09:35');
    expect(label(bar, '1w')).toBe('2026-11-20');
    expect(['1m', '60m', '1d', '1mo'].map((i) => isIntraday(i as never))).toEqual([true, true, false, false]);
  });
  it("marks the time axis in Chinese, 分时's afternoon from 13:00", () => {
    const at = (hh: number, mm: number) => wallSeconds(`2026-11-20T${String(hh).padStart(2, '0')}:${String(mm).padStart(2, '0')}:00+08:00`);
    // TickMarkType: Year 0, Month 1, DayOfMonth 2, Time 3.
    expect([tickLabel(at(9, 31), 0), tickLabel(at(9, 31), 1), tickLabel(at(9, 31), 2), tickLabel(at(13, 1), 3)]).toEqual([
      '2026年',
      '11月',
      '11/20',
      '13:01',
    ]);
    expect([
      minuteTickLabel(at(13, 1), 3),
      minuteTickLabel(at(13, 2), 3),
      minuteTickLabel(at(11, 30), 3),
      minuteTickLabel(at(9, 31), 2),
    ]).toEqual(['13:00', '13:02', '11:30', '11/20']);
  });
});
