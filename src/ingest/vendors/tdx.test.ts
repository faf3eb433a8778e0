import { describe, expect, it } from 'vitest';
import { BAD } from '../../datasets/columns.js';
import { AMOUNT, PRICE, SHARES } from '../../datasets/units.js';
import { dateInt } from './vendor.js';
import { dayValues, decodeDay, RECORD } from './tdx.js';
import { Rng } from '../../demo/random.js';

describe('Tongdaxin .day records as column values (the binary fast path)', () => {
  it('equal what parsing the decoded text gives, and are null exactly where the text path must judge the record', () => {
    const r0 = Rng.from(11, 'tdx records');
    const rand = () => r0.next();
    const b = Buffer.alloc(RECORD);
    let fast = 0,
      slow = 0;
    for (let i = 0; i < 20_000; i++) {
      const base = 1 + Math.floor(rand() * 300_000);
      const px = () => (rand() < 0.02 ? 0 : Math.max(0, base + Math.floor((rand() - 0.5) * base * 0.2)));
      const [o, h, l, c] = [px(), px(), px(), px()];
      const hi = rand() < 0.9 ? Math.max(o, h, l, c) : h,
        lo = rand() < 0.9 ? Math.min(o, h, l, c) : l;
      b.writeUInt32LE(20150101 + Math.floor(rand() * 80_000), 0);
      [o, hi, lo, c].forEach((v, k) => b.writeUInt32LE(v, 4 + 4 * k));
      const amt = rand() < 0.02 ? -1 : rand() < 0.01 ? NaN : rand() * 1e10;
      b.writeFloatLE(amt, 20);
      b.writeUInt32LE(Math.floor(rand() * 4e9), 24);
      for (const [digits, scale, lot] of [
        [2, 10, 1],
        [2, 10, 100],
        [3, 1, 1],
      ]) {
        const v = dayValues(b, 0, 7, scale, lot);
        const r = decodeDay(b, 0, digits);
        const parsed = [
          7,
          dateInt(r.date),
          PRICE.parse(r.open, null!),
          PRICE.parse(r.high, null!),
          PRICE.parse(r.low, null!),
          PRICE.parse(r.close, null!),
          SHARES.parse(String(r.volume * lot), null!),
          AMOUNT.parse(r.amount, null!),
        ];
        const valid = r.ordered && !parsed.includes(BAD);
        if (v === null) {
          slow++;
          expect(valid, JSON.stringify(r)).toBeFalsy();
        } else {
          fast++;
          expect(v).toEqual(parsed);
        }
      }
    }
    expect(fast).toBeGreaterThan(30_000);
    expect(slow).toBeGreaterThan(3_000);
  });
});
