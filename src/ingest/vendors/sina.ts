/**
 * Sina Finance ratio adjustment factors as akshare prints them (`stock_zh_a_daily(adjust=
 * "hfq-factor" | "qfq-factor")`): `date,hfq_factor` or `date,qfq_factor`, newest first, 16
 * decimals, a factor applying from its date (the ex-date) on; `1900-01-01` is a sentinel row,
 * skipped. Loaded as adj_factors (backward factors):
 * - hfq: the factor as printed;
 * - qfq: converted to backward, hfq(d) = q(listing row) / q(d), rounded half-up to 16 decimals
 *   (the listing row, the oldest after the sentinel, gets 1). The whole file is read first (a
 *   factor file has one row per ex-date).
 */
import { divRoundHalfUp } from '../../lib/decimal.js';
import type { SourceRecord } from '../source.js';
import { Bad, dec, fileInstrument, vendorCsv, type Layout } from './vendor.js';

const SENTINEL = '1900-01-01';
const DIGITS = 16;
const ONE = 10n ** BigInt(DIGITS);

/** Exact decimal text (≤ 16 decimals) → integer × 10^16. */
const fixed = (s: string) => {
  const [i, f = ''] = s.split('.');
  return BigInt(i + f.padEnd(DIGITS, '0'));
};
/** Integer × 10^16 → decimal text with 16 decimals. */
const text = (v: bigint) => {
  const s = v.toString().padStart(DIGITS + 1, '0');
  return `${s.slice(0, -DIGITS)}.${s.slice(-DIGITS)}`;
};

export const sinaHfq: Layout = {
  format: 'sina',
  dataset: 'adj_factors',
  async *read(input) {
    const id = fileInstrument(input);
    let kind: 'hfq' | 'qfq' | null = null;
    const held: { line: number; date: string; q: bigint }[] = [];
    for await (const batch of vendorCsv(input, ['date'], (get): Record<string, string> | null => {
      kind ??= get('hfq_factor') !== '' ? 'hfq' : get('qfq_factor') !== '' ? 'qfq' : null;
      if (kind === null) throw new Bad('hfq_factor', 'expected an hfq_factor or qfq_factor column');
      const date = get('date');
      if (date === SENTINEL) {
        input.report.skip(`the ${SENTINEL} sentinel row`);
        return null;
      }
      const f = dec(get, `${kind}_factor`, DIGITS);
      if (kind === 'hfq') return { instrument_id: id, trade_date: date, adj_factor: f };
      if (fixed(f) === 0n) throw new Bad('qfq_factor', 'expected a factor > 0');
      return { date, q: f };
    })) {
      const out: SourceRecord[] = [];
      for (const r of batch) {
        if (r.object && kind === 'qfq') held.push({ line: r.line, date: r.object.date as string, q: fixed(r.object.q as string) });
        else out.push(r);
      }
      if (out.length) yield out;
    }
    if (kind !== 'qfq' || !held.length) return;
    const listing = held.reduce((a, b) => (b.date < a.date ? b : a));
    input.report.note(`qfq factors converted to backward: q(${listing.date}) / q(date), half-up to ${DIGITS} decimals`);
    yield held.map((h) => ({
      line: h.line,
      object: { instrument_id: id, trade_date: h.date, adj_factor: text(divRoundHalfUp(listing.q * ONE, h.q)) },
    }));
  },
};
