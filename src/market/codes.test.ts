import { describe, expect, it } from 'vitest';
import { CODE_RANGES, securityOf } from './codes.js';

describe('securityOf: what a code is on its market, from the code ranges', () => {
  it.each([
    ['600000', 'SH', { kind: 'equity', board: 'main' }],
    ['605001', 'SH', { kind: 'equity', board: 'main' }],
    ['688981', 'SH', { kind: 'equity', board: 'star' }],
    ['689009', 'SH', { kind: 'equity', board: 'star' }],
    ['000001', 'SZ', { kind: 'equity', board: 'main' }],
    ['002594', 'SZ', { kind: 'equity', board: 'main' }],
    ['003816', 'SZ', { kind: 'equity', board: 'main' }],
    ['300750', 'SZ', { kind: 'equity', board: 'chinext' }],
    ['301236', 'SZ', { kind: 'equity', board: 'chinext' }],
    // The SZSE allocates by the first two digits: 30 is ChiNext whatever follows (302132 中航成飞, 2025).
    ['302132', 'SZ', { kind: 'equity', board: 'chinext' }],
    ['001306', 'SZ', { kind: 'equity', board: 'main' }],
    ['430047', 'BJ', { kind: 'equity', board: 'bse' }],
    ['830799', 'BJ', { kind: 'equity', board: 'bse' }],
    ['873223', 'BJ', { kind: 'equity', board: 'bse' }],
    ['920001', 'BJ', { kind: 'equity', board: 'bse' }],
    ['920799', 'BJ', { kind: 'equity', board: 'bse' }],
  ] as const)('%s.%s is an equity', (code, market, want) => {
    expect(securityOf(code, market)).toEqual(want);
  });

  it('indices: SH 000, SZ 399, BJ 899 (the same 000001 is an equity on SZ)', () => {
    expect(securityOf('000001', 'SH')).toEqual({ kind: 'index' });
    expect(securityOf('000300', 'SH')).toEqual({ kind: 'index' });
    expect(securityOf('399001', 'SZ')).toEqual({ kind: 'index' });
    expect(securityOf('899050', 'BJ')).toEqual({ kind: 'index' });
  });

  it('funds: ETFs (SH 51x/530/56x/588, SZ 159) and LOFs (SH 501/502/506, SZ 16x)', () => {
    for (const c of ['510300', '512880', '518880', '530000', '560010', '588000'])
      expect(securityOf(c, 'SH')).toEqual({ kind: 'fund', fundType: 'etf' });
    expect(securityOf('159915', 'SZ')).toEqual({ kind: 'fund', fundType: 'etf' });
    for (const c of ['501018', '502010', '506000']) expect(securityOf(c, 'SH')).toEqual({ kind: 'fund', fundType: 'lof' });
    for (const c of ['160105', '161725', '169101']) expect(securityOf(c, 'SZ')).toEqual({ kind: 'fund', fundType: 'lof' });
  });

  it.each([
    ['110059', 'SH', 'bonds'],
    ['113050', 'SH', 'bonds'],
    ['118000', 'SH', 'bonds'],
    ['019547', 'SH', 'bonds'],
    ['204001', 'SH', 'bonds and repos'],
    ['900901', 'SH', 'B shares'],
    ['508000', 'SH', 'infrastructure REITs'],
    ['505888', 'SH', 'closed-end funds'],
    ['880001', 'SH', 'Tongdaxin sector indices'],
    ['881001', 'SH', 'Tongdaxin sector indices'],
    ['999999', 'SH', 'Tongdaxin index aliases'],
    ['123001', 'SZ', 'bonds'],
    ['127000', 'SZ', 'bonds'],
    ['128010', 'SZ', 'bonds'],
    ['120002', 'SZ', 'bonds'],
    ['131810', 'SZ', 'repos'],
    ['200002', 'SZ', 'B shares'],
    ['201872', 'SZ', 'B shares'],
    ['184801', 'SZ', 'closed-end funds'],
    ['180101', 'SZ', 'infrastructure REITs'],
    ['150019', 'SZ', 'codes outside the served ranges'],
    ['519888', 'SH', 'codes outside the served ranges'],
    ['400002', 'BJ', 'codes outside the served ranges'],
    ['60000', 'SH', 'not a 6-digit code'],
  ] as const)('%s.%s is skipped: %s', (code, market, reason) => {
    expect(securityOf(code, market)).toEqual({ kind: null, skip: reason });
  });

  it('no prefix is listed twice on a market (the longest match decides, so a duplicate would be ambiguous)', () => {
    for (const ranges of Object.values(CODE_RANGES)) {
      const all = ranges.flatMap((r) => r.prefixes);
      expect(new Set(all).size).toBe(all.length);
    }
  });
});
