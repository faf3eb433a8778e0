import { describe, expect, it } from 'vitest';
import { dateToDays, daysToDate } from './time.js';

describe('calendar arithmetic', () => {
  it('agrees with Date.UTC on every day from 1900 to 2100 and round-trips', () => {
    const first = Date.UTC(1900, 0, 1) / 86_400_000, last = Date.UTC(2100, 11, 31) / 86_400_000;
    for (let n = first; n <= last; n++) {
      const t = new Date(n * 86_400_000);
      const d = t.getUTCFullYear() * 10000 + (t.getUTCMonth() + 1) * 100 + t.getUTCDate();
      expect(daysToDate(n)).toBe(d);
      expect(dateToDays(d)).toBe(n);
    }
    expect(dateToDays(19700101)).toBe(0);
    expect(dateToDays(20000229)).toBe(11016);
  });
});
