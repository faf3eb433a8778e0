import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get, harness, STORES, walk, type Harness } from './helpers.js';

/** Bars of every interval, checked against aggregation written independently here. */
const toMilli = (s: string) => Math.round(Number(s) * 1000);
const hm = (ts: string) => ts.slice(11, 16);
const minutesOf = (t: string) => Number(t.slice(0, 2)) * 60 + Number(t.slice(3, 5));

/** End label of the bucket of `minutes` a 1m bar labelled `label` (HH:MM) belongs to. */
function bucketLabel(label: string, minutes: number): string {
  const t = minutesOf(label);
  const [open, since] = t <= 11 * 60 + 30 ? [9 * 60 + 30, t - (9 * 60 + 30)] : [13 * 60, t - 13 * 60];
  const end = open + Math.ceil(Math.max(since, 1) / minutes) * minutes;
  return `${String(Math.floor(end / 60)).padStart(2, '0')}:${String(end % 60).padStart(2, '0')}`;
}

function combine(group: any[]) {
  return {
    open: group[0].open,
    close: group[group.length - 1].close,
    high: Math.max(...group.map((b) => toMilli(b.high))),
    low: Math.min(...group.map((b) => toMilli(b.low))),
    volume: group.reduce((s, b) => s + b.volume, 0),
    amount: group.reduce((s, b) => s + Math.round(Number(b.amount) * 100), 0),
  };
}
const shape = (b: any) => ({
  open: b.open,
  close: b.close,
  high: toMilli(b.high),
  low: toMilli(b.low),
  volume: b.volume,
  amount: Math.round(Number(b.amount) * 100),
});

describe.each(STORES)('bars on $name', ({ url }) => {
  let h: Harness;
  let eq: string;
  let minuteDays: string[];
  beforeAll(async () => {
    h = await harness(await url());
    eq = (await get(h, '/api/v1/equities?board=chinext&page[size]=1')).body.data[0].id;
    const m = await walk(h, `/api/v1/equities/${eq}/bars?interval=1m`, 1000);
    minuteDays = [...new Set(m.map((b) => b.trade_date))];
  });
  afterAll(async () => {
    await h?.close();
  });

  it('serves 241 one-minute bars a day, labelled 09:30 .. 15:00 without the lunch break', async () => {
    expect(minuteDays.length).toBe(3);
    for (const d of minuteDays) {
      const bars = await walk(h, `/api/v1/equities/${eq}/bars?interval=1m&date=${d}`, 1000);
      expect(bars).toHaveLength(241);
      expect(hm(bars[0].timestamp)).toBe('09:30');
      expect(hm(bars[120].timestamp)).toBe('11:30');
      expect(hm(bars[121].timestamp)).toBe('13:01');
      expect(hm(bars[240].timestamp)).toBe('15:00');
      expect(bars.every((b) => b.timestamp.endsWith('+08:00') && b.trade_date === d)).toBe(true);
    }
  });

  it('aggregates 5m..60m from 1m by the session rules, and 1d equals the day of 1m', async () => {
    for (const d of minuteDays) {
      const ones = await walk(h, `/api/v1/equities/${eq}/bars?interval=1m&date=${d}`, 1000);
      for (const [iv, m, count] of [
        ['5m', 5, 48],
        ['15m', 15, 16],
        ['30m', 30, 8],
        ['60m', 60, 4],
      ] as const) {
        const got = await walk(h, `/api/v1/equities/${eq}/bars?interval=${iv}&date=${d}`, 1000);
        expect(got, iv).toHaveLength(count);
        const groups = new Map<string, any[]>();
        for (const b of ones) {
          const k = bucketLabel(hm(b.timestamp), m);
          groups.set(k, [...(groups.get(k) ?? []), b]);
        }
        expect(got.map((b) => hm(b.timestamp))).toEqual([...groups.keys()]);
        expect(got.map(shape)).toEqual([...groups.values()].map(combine));
      }
      const day = (await get(h, `/api/v1/equities/${eq}/bars?interval=1d&date=${d}`)).body.data;
      expect(day).toHaveLength(1);
      expect(shape(day[0])).toEqual(combine(ones));
      expect(day[0].timestamp).toBe(`${d}T15:00:00+08:00`);
    }
    const h60 = await walk(h, `/api/v1/equities/${eq}/bars?interval=60m&date=${minuteDays[0]}`, 10);
    expect(h60.map((b) => hm(b.timestamp))).toEqual(['10:30', '11:30', '14:00', '15:00']);
  });

  it('builds weeks, months, quarters and years from trading days', async () => {
    const days = await walk(h, `/api/v1/equities/${eq}/bars?interval=1d`, 1000);
    const keyOf: Record<string, (d: string) => string> = {
      '1w': (d) => {
        const t = new Date(d + 'T00:00:00Z');
        const wd = (t.getUTCDay() + 6) % 7;
        return new Date(t.getTime() - wd * 864e5).toISOString().slice(0, 10);
      },
      '1mo': (d) => d.slice(0, 7),
      '1q': (d) => `${d.slice(0, 4)}Q${Math.ceil(Number(d.slice(5, 7)) / 3)}`,
      '1y': (d) => d.slice(0, 4),
    };
    for (const [iv, key] of Object.entries(keyOf)) {
      const got = await walk(h, `/api/v1/equities/${eq}/bars?interval=${iv}`, 1000);
      const groups = new Map<string, any[]>();
      for (const b of days) groups.set(key(b.trade_date), [...(groups.get(key(b.trade_date)) ?? []), b]);
      expect(
        got.map((b) => b.trade_date),
        iv,
      ).toEqual([...groups.values()].map((g) => g[g.length - 1].trade_date));
      expect(got.map(shape), iv).toEqual([...groups.values()].map(combine));
      expect(got.every((b) => b.timestamp === `${b.trade_date}T15:00:00+08:00`)).toBe(true);
    }
    // `date` with a period interval selects the period holding that day
    const w = await get(h, `/api/v1/equities/${eq}/bars?interval=1w&date=${days[10].trade_date}`);
    expect(w.body.data).toHaveLength(1);
    expect(keyOf['1w'](w.body.data[0].trade_date)).toBe(keyOf['1w'](days[10].trade_date));
  });

  it('selects bars by their end time within from/to, inclusive', async () => {
    const d = minuteDays[1];
    const r = await walk(h, `/api/v1/equities/${eq}/bars?interval=5m&from=${d}T10:02:00&to=${d}T10:30:00`, 100);
    expect(r.map((b) => hm(b.timestamp))).toEqual(['10:05', '10:10', '10:15', '10:20', '10:25', '10:30']);
    const full = await walk(h, `/api/v1/equities/${eq}/bars?interval=5m&date=${d}`, 100);
    expect(r[0]).toEqual(full.find((b) => hm(b.timestamp) === '10:05'));
    const days = await walk(h, `/api/v1/equities/${eq}/bars?interval=1d&from=${minuteDays[0]}&to=${minuteDays[2]}`, 100);
    expect(days.map((b) => b.trade_date)).toEqual(minuteDays);
    const utc = await walk(h, `/api/v1/equities/${eq}/bars?interval=1m&from=${d}T01:30:00Z&to=${d}T01:32:00Z`, 100);
    expect(utc.map((b) => hm(b.timestamp))).toEqual(['09:30', '09:31', '09:32']);
  });

  it("says why a window after the store's data is empty: the data ends on its last trading day", async () => {
    // SMALL_DEMO's last day.
    const last = (await get(h, '/api/v1/equities/600519.SH/bars?interval=1d&order=desc&page[size]=1')).body.data[0].trade_date;
    expect(last).toBe('2025-11-20');
    const notice = "The store's data ends on 2025-11-20, before this window.";
    for (const path of [
      '/api/v1/equities/600519.SH/bars?interval=1d&from=2030-01-01',
      '/api/v1/equities/600519.SH/bars?interval=1d&from=2030-01-01&to=2030-12-31&order=desc',
      '/api/v1/equities/600519.SH/bars?interval=1w&date=2030-01-02',
      '/api/v1/equities/600519.SH/bars?interval=5m&from=2025-11-21',
      '/api/v1/indices/000300.SH/bars?interval=1d&adjustment=forward&from=2025-11-21T09:30:00',
      '/api/v1/funds/510300.SH/bars?interval=1mo&from=2026-01-01',
      '/api/v1/equities/600519.SH/technical-indicators/macd?interval=1d&from=2030-01-01',
    ]) {
      const r = await get(h, path);
      expect([r.status, r.body.data, r.body.meta], path).toEqual([200, [], { next_cursor: null, notice }]);
      expect(r.headers['data-notice'], path).toBe(notice);
    }
    // A file has no envelope: the header alone.
    const csv = await get(h, '/api/v1/equities/600519.SH/bars?interval=1d&from=2030-01-01', { 'x-api-key': h.key, accept: 'text/csv' });
    expect([csv.status, csv.payload.split('\n').filter(Boolean).length, csv.headers['data-notice']]).toEqual([200, 1, notice]);
    // A page with bars, or an empty one within the data (a Saturday), says nothing more.
    for (const path of [
      '/api/v1/equities/600519.SH/bars?interval=1d&from=2025-11-20',
      '/api/v1/equities/600519.SH/bars?interval=1d&date=2025-11-15',
    ]) {
      const r = await get(h, path);
      expect(r.body.data.length, path).toBe(path.endsWith('11-20') ? 1 : 0);
      expect(r.body.meta, path).toEqual({ next_cursor: null });
      expect(r.headers['data-notice'], path).toBeUndefined();
    }
  });

  it('serves index bars with adjustment accepted as none', async () => {
    const r = await get(h, '/api/v1/indices/000300.SH/bars?interval=1d&adjustment=forward&page[size]=3');
    expect(r.status).toBe(200);
    expect(r.body.data[0]).toMatchObject({ instrument_id: '000300.SH', adjustment: 'none', interval: '1d' });
    expect(r.body.data[0].close).toMatch(/^\d+\.\d{2}$/);
  });
});
