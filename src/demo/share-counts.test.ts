import { describe, expect, it } from 'vitest';
import { sharesAfter, sharesBefore } from './share-counts.js';

describe('demo share counts after a bonus, transfer or rights issue', () => {
  it('round the total half up and the float down, exactly (no lot of 100)', () => {
    expect(sharesAfter(1_234_500, 1_234_500, 300_000)).toEqual({ total: 1_604_850, float: 1_604_850 });
    expect(sharesAfter(1_000_000_001, 500_000_001, 300_000)).toEqual({ total: 1_300_000_001, float: 650_000_001 });
    expect(sharesAfter(15, 15, 100_000)).toEqual({ total: 17, float: 16 }); // 16.5: half up, and down
    // Beyond 2^53 in the product: 22,741,859,230 × 1.123457.
    expect(sharesAfter(22_741_859_230, 22_741_859_230, 123_457)).toEqual({ total: 25_549_500_945, float: 25_549_500_944 });
  });

  it('are undone exactly by sharesBefore, for every count near a rounding', () => {
    for (const added of [1, 100_000, 123_457, 300_000, 1_000_000, 2_500_000])
      for (let total = 999_990; total <= 1_000_010; total++)
        for (const float of [total, total - 7, Math.floor(total / 3)]) {
          const after = sharesAfter(total, float, added);
          expect(sharesBefore(after.total, after.float, added), `${total} ${float} +${added}`).toEqual({ total, float });
        }
  });
});
