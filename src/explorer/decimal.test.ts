import { describe, expect, it } from 'vitest';
import { percentChange, subtract, timesTen } from './decimal.js';

describe("the legend's exact decimals", () => {
  it('subtracts at the larger scale', () => {
    expect(subtract('1447.01', '1453.69')).toBe('-6.68');
    expect(subtract('13.34', '12.13')).toBe('1.21');
    expect(subtract('10', '9.995')).toBe('0.005');
    expect(subtract('0.01', '0.01')).toBe('0.00');
    expect(subtract('99999999999999999.99', '-0.01')).toBe('100000000000000000.00');
  });
  it('rounds a percentage half away from zero', () => {
    // (13.34 - 12.13) / 12.13 = 9.975...% -> 9.98 (a limit-up close of the demo)
    expect(percentChange('13.34', '12.13')).toBe('9.98');
    expect(percentChange('1447.01', '1453.69')).toBe('-0.46');
    expect(percentChange('1.005', '1')).toBe('0.50');
    expect(percentChange('0.99995', '1')).toBe('-0.01');
    expect(percentChange('0.9995', '1')).toBe('-0.05');
    expect(percentChange('1', '0')).toBeNull();
    expect(percentChange('11', '10')).toBe('10.00');
  });
  it('writes a per-share amount per ten shares', () => {
    expect(['19.11600', '0.300000', '1', '0.05', '2.5'].map(timesTen)).toEqual(['191.16', '3', '10', '0.5', '25']);
  });
});
