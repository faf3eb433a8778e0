import { describe, expect, it } from 'vitest';
import {
  AFTERNOON_CLOSE,
  bucketEnd,
  closeDateRange,
  closeEpoch,
  MINUTE_LABELS,
  minuteIndex,
  TRADING_MINUTES,
  type IntradayMinutes,
} from './sessions.js';
import { formatTimestamp, marketEpoch } from '../lib/time.js';

const hm = (h: number, m: number) => h * 60 + m;

describe('sessions', () => {
  it('has 241 labels: 09:30, 09:31..11:30, 13:01..15:00', () => {
    expect(MINUTE_LABELS).toHaveLength(241);
    expect(MINUTE_LABELS[0]).toBe(570);
    expect(MINUTE_LABELS[1]).toBe(hm(9, 31));
    expect(MINUTE_LABELS[120]).toBe(hm(11, 30));
    expect(MINUTE_LABELS[121]).toBe(hm(13, 1));
    expect(MINUTE_LABELS[240]).toBe(hm(15, 0));
    MINUTE_LABELS.forEach((m, i) => expect(minuteIndex(m)).toBe(i));
    // Four hours of continuous trading: one bar a minute after the opening auction's.
    expect(TRADING_MINUTES).toBe(240);
    expect(MINUTE_LABELS.length - 1).toBe(TRADING_MINUTES);
  });

  it('rejects minutes that are not bar labels', () => {
    for (const m of [hm(9, 29), hm(11, 31), hm(12, 0), hm(13, 0), hm(15, 1), 0, 570.5]) {
      expect(minuteIndex(m)).toBe(-1);
      expect(bucketEnd(5, m)).toBe(-1);
    }
  });

  it('labels right-closed buckets by their end, never across lunch', () => {
    expect(bucketEnd(5, hm(9, 31))).toBe(hm(9, 35));
    expect(bucketEnd(5, hm(9, 35))).toBe(hm(9, 35));
    expect(bucketEnd(5, hm(9, 36))).toBe(hm(9, 40));
    expect(bucketEnd(5, hm(11, 26))).toBe(hm(11, 30));
    expect(bucketEnd(5, hm(11, 30))).toBe(hm(11, 30));
    expect(bucketEnd(5, hm(13, 1))).toBe(hm(13, 5));
    expect(bucketEnd(5, hm(15, 0))).toBe(hm(15, 0));
    expect(bucketEnd(15, hm(13, 1))).toBe(hm(13, 15));
    expect(bucketEnd(30, hm(11, 1))).toBe(hm(11, 30));
    expect(bucketEnd(30, hm(13, 31))).toBe(hm(14, 0));
    expect(bucketEnd(60, hm(10, 31))).toBe(hm(11, 30));
    expect(bucketEnd(60, hm(11, 30))).toBe(hm(11, 30));
    expect(bucketEnd(60, hm(13, 1))).toBe(hm(14, 0));
    expect(bucketEnd(60, hm(14, 1))).toBe(hm(15, 0));
  });

  it('puts the 09:30 auction bar in the first bucket', () => {
    expect(bucketEnd(5, 570)).toBe(hm(9, 35));
    expect(bucketEnd(15, 570)).toBe(hm(9, 45));
    expect(bucketEnd(30, 570)).toBe(hm(10, 0));
    expect(bucketEnd(60, 570)).toBe(hm(10, 30));
  });

  it('gives the documented bucket ends per day', () => {
    const ends = (n: IntradayMinutes) => [...new Set(MINUTE_LABELS.map((m) => bucketEnd(n, m)))];
    const fmt = (m: number) => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
    expect(ends(5)).toHaveLength(48);
    expect(ends(15)).toHaveLength(16);
    expect(ends(30).map(fmt)).toEqual(['10:00', '10:30', '11:00', '11:30', '13:30', '14:00', '14:30', '15:00']);
    expect(ends(60).map(fmt)).toEqual(['10:30', '11:30', '14:00', '15:00']);
  });
});

describe('the close', () => {
  it('is 15:00 market time, the last bar label', () => {
    expect(AFTERNOON_CLOSE).toBe(900);
    expect(MINUTE_LABELS[MINUTE_LABELS.length - 1]).toBe(AFTERNOON_CLOSE);
    expect(formatTimestamp(closeEpoch(20240301))).toBe('2024-03-01T15:00:00+08:00');
  });

  it('selects the dates whose close lies in a window, bounds included', () => {
    const close = closeEpoch(20240301);
    expect(closeDateRange(close, close)).toEqual({ from: 20240301, to: 20240301 });
    expect(closeDateRange(close + 1, close + 86_400)).toEqual({ from: 20240302, to: 20240302 });
    expect(closeDateRange(close - 1, close + 86_399)).toEqual({ from: 20240301, to: 20240301 });
    expect(closeDateRange(marketEpoch(20240301, 0), marketEpoch(20240303, 0))).toEqual({ from: 20240301, to: 20240302 });
  });
});
