/**
 * The fixed input that versions the derivations (derivation.ts `versionOf`): daily packs of an
 * equity, an index and a fund over four months, enough bars (80) for every indicator to give
 * values, one of them with an unknown amount; and two days of 1m bars. A derivation's version
 * is the hash of what its code makes of these, so a change of its output changes the version
 * by itself.
 */
import { marketEpoch } from '../lib/time.js';
import type { Bar } from '../market/types.js';
import { encodePack } from '../store/packs.js';
import { UNKNOWN_AMOUNT } from '../store/schema.js';
import type { IdAndKind } from '../store/tables/instruments.js';

/** An instrument's fixture: its id and kind, and its packs `[month, n, data]` in month order. */
export interface FixtureInstrument {
  inst: number;
  meta: IdAndKind;
  packs: [number, number, Uint8Array][];
}

const MONTHS = [202501, 202502, 202503, 202504];
const DAYS_A_MONTH = 20;

/** Packs of 20 bars a month, prices swinging around `base` (stored units), deterministic. */
function packsOf(base: number, unknownAmountAt: number | null): [number, number, Uint8Array][] {
  let i = 0;
  return MONTHS.map((month) => {
    const records: number[][] = [];
    for (let day = 2; day < 2 + DAYS_A_MONTH; day++, i++) {
      const close = base + (((i * 7919) % 41) - 20) * (base / 400) + i * (base / 1000);
      const [open, high, low] = [close - base / 200, close + base / 100, close - base / 80];
      const volume = 10_000 + ((i * 104_729) % 9_973) * 100;
      const amount = i === unknownAmountAt ? UNKNOWN_AMOUNT : Math.round((close * volume) / 100);
      records.push([month * 100 + day, open, high, low, close, volume, amount].map(Math.round));
    }
    return [month, records.length, encodePack(records)];
  });
}

/** The fixture's instruments. */
export const FIXTURE: readonly FixtureInstrument[] = [
  { inst: 1, meta: { id: '600000.SH', kind: 'equity' }, packs: packsOf(12_000, 33) },
  { inst: 2, meta: { id: '000300.SH', kind: 'index' }, packs: packsOf(3_900_000, null) },
  { inst: 3, meta: { id: '510300.SH', kind: 'fund' }, packs: packsOf(4_000, 50) },
];

/** 1m bars of two days (their first minutes, the morning's last and the close), the second with a minute of unknown amount. */
export const MINUTE_FIXTURE: readonly (readonly Bar[])[] = [20250102, 20250103].map((date, k) =>
  [570, 571, 572, 690, 780, 781, 899, 900].map((minute, i) => {
    const close = 12_000 + (((i * 37 + k * 11) % 13) - 6) * 10;
    const volume = 1_000 + i * 300;
    return {
      ts: marketEpoch(date, minute),
      date,
      open: close - 10,
      high: close + 20 + i,
      low: close - 30,
      close,
      volume,
      amount: k === 1 && i === 4 ? null : close * volume,
    };
  }),
);
