import { describe, expect, it } from 'vitest';
import { boardOf } from './boards.js';

describe('boardOf', () => {
  it('maps code ranges to boards', () => {
    expect(boardOf('600519', 'SH')).toBe('main');
    expect(boardOf('601318', 'SH')).toBe('main');
    expect(boardOf('603288', 'SH')).toBe('main');
    expect(boardOf('605499', 'SH')).toBe('main');
    expect(boardOf('688001', 'SH')).toBe('star');
    expect(boardOf('689009', 'SH')).toBe('star');
    expect(boardOf('000001', 'SZ')).toBe('main');
    expect(boardOf('001979', 'SZ')).toBe('main');
    expect(boardOf('002032', 'SZ')).toBe('main');
    expect(boardOf('003816', 'SZ')).toBe('main');
    expect(boardOf('300750', 'SZ')).toBe('chinext');
    expect(boardOf('301236', 'SZ')).toBe('chinext');
    expect(boardOf('302132', 'SZ')).toBe('chinext');
    expect(boardOf('430047', 'BJ')).toBe('bse');
    expect(boardOf('920002', 'BJ')).toBe('bse');
  });

  it('rejects codes that are not A-share equities of that market', () => {
    for (const [code, market] of [
      ['000300', 'SH'],
      ['510300', 'SH'],
      ['900901', 'SH'],
      ['600519', 'SZ'],
      ['399001', 'SZ'],
      ['159915', 'SZ'],
      ['200002', 'SZ'],
      ['60051', 'SH'],
      ['604001', 'SH'],
      ['400002', 'BJ'],
      ['bj4300', 'BJ'],
    ] as const) {
      expect(() => boardOf(code, market), `${code}.${market}`).toThrow(RangeError);
    }
  });
});
