import { describe, expect, it } from 'vitest';
import { INDICATOR_IDS, INDICATORS } from './registry.js';
import type { Point } from './types.js';
import { Rng } from '../demo/random.js';

describe("a stream's advance", () => {
  it('gives the state step gives, bit for bit and key for key, over long random series with flat runs', () => {
    const r = Rng.from(5, 'advance');
    let compared = 0;
    for (const id of INDICATOR_IDS) {
      const stream = INDICATORS[id].stream;
      if (!stream?.advance) continue;
      for (let series = 0; series < 20; series++) {
        let a = stream.initState(),
          s = stream.initState(),
          close = 10 + r.next() * 100;
        for (let i = 0; i < 400; i++) {
          // A flat stretch now and then (equal highs and lows: RSV's neutral case).
          const flat = r.next() < 0.1;
          close = flat ? close : Math.max(0.01, close * (1 + (r.next() - 0.5) * 0.1));
          const p: Point = {
            open: close,
            high: flat ? close : close * (1 + r.next() * 0.02),
            low: flat ? close : close * (1 - r.next() * 0.02),
            close,
            volume: Math.floor(r.next() * 1e6),
          };
          a = stream.advance(a, p);
          s = stream.step(s, p).state;
          expect(JSON.stringify(a), `${id} bar ${i}`).toBe(JSON.stringify(s));
          compared++;
        }
      }
    }
    // Every recursive indicator has one (ema, macd, kdj, rsi, obv).
    expect(compared).toBe(5 * 20 * 400);
  });
});
