import { describe, expect, it } from 'vitest';
import { INSTRUMENT_KINDS, KINDS } from './kinds.js';
import { formatScaled, PRICE_SCALE } from '../lib/decimal.js';

describe('KINDS', () => {
  it('lists equities, indices and funds', () => {
    expect(INSTRUMENT_KINDS).toEqual(['equity', 'index', 'fund']);
  });

  it('writes prices at 0.01 CNY, funds at 0.001', () => {
    expect(INSTRUMENT_KINDS.map((k) => [k, KINDS[k].digits, KINDS[k].tick])).toEqual([
      ['equity', 2, 10],
      ['index', 2, 10],
      ['fund', 3, 1],
    ]);
    expect(INSTRUMENT_KINDS.map((k) => formatScaled(KINDS[k].tick, PRICE_SCALE, KINDS[k].digits))).toEqual(['0.01', '0.01', '0.001']);
  });

  it('adjusts equities (published factors or corporate actions) and funds (published factors), never indices', () => {
    expect(INSTRUMENT_KINDS.filter((k) => KINDS[k].adjustable)).toEqual(['equity', 'fund']);
    expect(INSTRUMENT_KINDS.filter((k) => KINDS[k].actionFactors)).toEqual(['equity']);
  });

  it('serves indicators for equities, indices and funds', () => {
    expect(INSTRUMENT_KINDS.filter((k) => KINDS[k].indicators)).toEqual(['equity', 'index', 'fund']);
  });

  it('gives a board to equities only', () => {
    expect(INSTRUMENT_KINDS.filter((k) => KINDS[k].board)).toEqual(['equity']);
  });
});
