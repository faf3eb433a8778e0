import { describe, expect, it } from 'vitest';
import { divide, round, shiftLeft, sign, sum } from './decimal.js';
import { axisWanYi, lots, marketClock, marketDateTime, moneyText, turnoverRate, volumeExact, volumeText, wanYi } from './format.js';

describe('exact decimal helpers', () => {
  it('divides, sums, shifts and rounds half away from zero', () => {
    expect(divide('258291472.00', '180200', 2)).toBe('1433.36');
    expect(divide('1', '3', 4)).toBe('0.3333');
    expect(divide('-2', '3', 2)).toBe('-0.67');
    expect(divide('1', '0', 2)).toBeNull();
    expect(sum(['258291472.00', '137747035.00', '0.5'])).toBe('396038507.50');
    expect(sum([])).toBe('0');
    expect(shiftLeft('12157900', 2)).toBe('121579.00');
    expect(shiftLeft('-5', 3)).toBe('-0.005');
    expect(round('1759.5387364', 2)).toBe('1759.54');
    expect(round('-0.005', 2)).toBe('-0.01');
    expect(round('3', 2)).toBe('3.00');
    expect([sign('-0.01'), sign('0.00'), sign('2')]).toEqual([-1, 0, 1]);
  });
});

describe('Tongdaxin units', () => {
  it('writes 万 and 亿 from the decimal string, exactly', () => {
    expect(wanYi('17595387364.00')).toBe('175.95亿');
    expect(wanYi('175953873640.00')).toBe('1759.54亿');
    expect(wanYi('739158540457.30')).toBe('7391.59亿');
    expect(wanYi('12157900')).toBe('1215.79万');
    expect(wanYi('99995')).toBe('10.00万');
    expect(wanYi('9999.999')).toBe('10000.00');
    expect(wanYi('-83184238.00')).toBe('-8318.42万');
    expect(wanYi('5123', 2, 0)).toBe('5123');
    expect(wanYi('100000000')).toBe('1.00亿');
    expect(moneyText(null)).toBe('—');
  });
  it('counts volume in lots of 100 shares (手)', () => {
    expect(lots(12157900)).toBe('121579');
    expect(lots(150)).toBe('1.5');
    expect(lots(0)).toBe('0');
    expect(volumeText(12157900)).toBe('12.16万手');
    expect(volumeText(45600)).toBe('456手');
    expect(volumeText(3476278000)).toBe('3476.28万手');
    expect(volumeExact(12157900)).toBe('12157900 股 = 121579 手');
  });
  it('gives turnover in % of the float shares', () => {
    expect(turnoverRate(12157900, 1256197800)).toBe('0.97');
    expect(turnoverRate(14592600, 345000000)).toBe('4.23');
    expect(turnoverRate(1, 0)).toBeNull();
  });
  it('reads times in market time', () => {
    expect(marketClock('2026-11-20T14:39:00+08:00')).toBe('14:39:00');
    expect(marketClock('2026-11-20T06:39:00Z')).toBe('14:39:00');
    expect(marketDateTime('2026-11-20T06:39:00.000Z')).toBe('2026-11-20 14:39:00');
  });
  it('labels an axis in 万/亿', () => {
    expect([axisWanYi(175950000), axisWanYi(35000), axisWanYi(12.5)]).toEqual(['1.76亿', '3.5万', '12.5']);
  });
});
