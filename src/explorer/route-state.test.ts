import { describe, expect, it } from 'vitest';
import { barsUrl } from './chart-data.js';
import { chartState, likelyKind, parseRoute } from './route-state.js';

describe("the view a URL's hash names", () => {
  it('parses the path and query once, a malformed escape naming the start page', () => {
    const r = parseRoute('#/chart/600519.SH?interval=1w&indicators=macd,kdj');
    expect(r.parts).toEqual(['chart', '600519.SH']);
    expect(chartState(r.query)).toEqual({
      interval: '1w',
      adjustment: 'none',
      indicators: ['macd', 'kdj'],
      date: undefined,
      overlay: undefined,
    });
    expect(parseRoute('#/market/2026-11-20').parts).toEqual(['market', '2026-11-20']);
    expect(parseRoute('').parts).toEqual([]);
    expect(parseRoute('#/chart/%E4%').parts).toEqual([]);
  });

  it('falls back to the defaults for what it does not know: daily, unadjusted, MA5/10/20/60', () => {
    const s = chartState(new URLSearchParams('interval=2d&adjustment=sideways&date=20261120&overlay='));
    expect(s).toEqual({ interval: '1d', adjustment: 'none', indicators: ['ma'], date: undefined, overlay: undefined });
    expect(chartState(new URLSearchParams('indicators=macd,nope')).indicators).toEqual(['macd']);
    expect(chartState(new URLSearchParams('interval=5m&date=2026-11-19&overlay=000300.SH'))).toMatchObject({
      date: '2026-11-19',
      overlay: '000300.SH',
    });
  });

  it("guesses an id's kind by the exchanges' code ranges", () => {
    const kinds = Object.fromEntries(
      [
        '000001.SH',
        '000300.SH',
        '399001.SZ',
        '899050.BJ',
        '510300.SH',
        '588000.SH',
        '159915.SZ',
        '161725.SZ',
        '600519.SH',
        '688981.SH',
        '000001.SZ',
        '300750.SZ',
        '830799.BJ',
        'x',
      ].map((id) => [id, likelyKind(id)]),
    );
    expect(kinds).toEqual({
      '000001.SH': 'index',
      '000300.SH': 'index',
      '399001.SZ': 'index',
      '899050.BJ': 'index',
      '510300.SH': 'fund',
      '588000.SH': 'fund',
      '159915.SZ': 'fund',
      '161725.SZ': 'fund',
      '600519.SH': 'equity',
      '688981.SH': 'equity',
      '000001.SZ': 'equity',
      '300750.SZ': 'equity',
      '830799.BJ': 'equity',
      x: 'equity',
    });
  });

  it("names a chart's first page of bars as the chart asks for it, the date only on an intraday chart", () => {
    const day = chartState(new URLSearchParams('interval=1d&date=2026-11-19'));
    expect(barsUrl('/equities/600519.SH', day, null)).toBe(
      '/api/v1/equities/600519.SH/bars?interval=1d&adjustment=none&order=desc&page[size]=320',
    );
    const minute = chartState(new URLSearchParams('interval=5m&adjustment=forward&date=2026-11-19'));
    expect(barsUrl('/equities/600519.SH', minute, null)).toBe(
      '/api/v1/equities/600519.SH/bars?interval=5m&adjustment=forward&to=2026-11-19&order=desc&page[size]=320',
    );
    expect(barsUrl('/equities/600519.SH', minute, 'abc')).toBe(
      '/api/v1/equities/600519.SH/bars?interval=5m&adjustment=forward&order=desc&page[size]=320&page[after]=abc',
    );
  });
});
