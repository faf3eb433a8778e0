/**
 * The gbbq file (tdx-gbbq.ts) as two datasets, format `tdx-gbbq` (docs/ingest.md):
 *
 * - `corporate_actions`: each category-1 row of a known equity or fund. Per 10 shares → per
 *   share; Tongdaxin's one figure of bonus and transfer shares (送转) is `bonus_per_share`
 *   (`transfer_per_share` 0: the sum is what the reference price and the factors need). The file
 *   has no record or announcement date: both are the trading day before the ex-date (the A-share
 *   record day), as for Hikyuu's events.
 * - `share_capital`: the share-change rows of a known equity, counts after the change (10,000
 *   shares → shares); several on one day: the last; one that changes neither count: skipped.
 *   `restricted_shares` is total − float (the file does not split what is not float).
 *
 * Floats are read as the shortest decimal that is the same float32 (f32Text), then rounded
 * half-up to the column's decimals where they have more (reported).
 */
import { readFileSync } from 'node:fs';
import { securityOf } from '../../market/codes.js';
import type { InstrumentKind } from '../../market/kinds.js';
import { addDays, formatDate, isDate } from '../../lib/time.js';
import { IngestIOError, type SourceRecord } from '../source.js';
import { previousTradingDay, roundedHalfUp, type Layout, type VendorInput } from './vendor.js';
import { f32Text, GBBQ_MARKETS, gbbqRecords, gbbqWhere, SHARE_CATEGORIES, type GbbqRecord } from './tdx-gbbq.js';

/** A gbbq file read and deciphered, or null when it is not of the layout. */
export function readGbbq(path: string): GbbqRecord[] | null {
  try {
    return gbbqRecords(readFileSync(path));
  } catch (e) {
    throw new IngestIOError(`${path}: ${(e as Error).message}`);
  }
}

/**
 * The file's records (`decoded`: as read already), numbered from 1 (the record's place in the
 * file), with a note of what it holds; null when it is not of the layout.
 */
function read(input: VendorInput, decoded: readonly GbbqRecord[] | undefined): { n: number; r: GbbqRecord }[] | null {
  const recs = decoded ?? readGbbq(input.path);
  if (recs === null) return null;
  let last = 0;
  for (const r of recs) if (isDate(r.date) && r.date > last) last = r.date;
  const markets = GBBQ_MARKETS.map((m, i) => `${m} ${recs.filter((r) => r.market === i).length}`).join(', ');
  input.report.note(`${recs.length} records (${markets}) to ${last ? formatDate(last) : 'no date'}`);
  const numbered = recs.map((r, i) => ({ n: i + 1, r }));
  const only = input.only;
  if (!only) return numbered;
  input.report.note(`read for ${only.size} new file${only.size === 1 ? "'s code" : "s' codes"} only`);
  return numbered.filter(({ r }) => only.has(`${r.code}.${GBBQ_MARKETS[r.market]}`));
}

const NOT_LAYOUT: SourceRecord = {
  line: 1,
  error: 'not a gbbq file: its size is not 4 bytes and the 29-byte records its first 4 bytes count (docs/ingest.md)',
};

/** The instrument id of a record when it is a known instrument of `kinds`, else why not (a skip reason). */
function instrumentOf(
  input: VendorInput,
  r: GbbqRecord,
  kinds: readonly InstrumentKind[],
  what: string,
): { id: string } | { skip: string } {
  const market = GBBQ_MARKETS[r.market];
  if (market === undefined) return { skip: `records of market byte ${r.market} (0 SZ, 1 SH and 2 BJ are read)` };
  if (!/^\d{6}$/.test(r.code)) return { skip: 'records whose code is not six digits' };
  const sec = securityOf(r.code, market);
  if (sec.kind === null) return { skip: `codes not served: ${sec.skip}` };
  const id = `${r.code}.${market}`;
  const known = input.ctx.known(id);
  if (!known) return { skip: 'codes with no instrument in the store or this load (in a folder: no file)' };
  if (!kinds.includes(known.kind)) return { skip: `${known.kind === 'index' ? 'indices' : `${known.kind}s`} (${what})` };
  return { id };
}

/** A float field × 10^shift as decimal text rounded half-up to `scale` decimals (the rounding reported at `where`); null when negative. */
function field(input: VendorInput, v: number, shift: number, scale: number, column: string, where: string): string | null {
  const r = roundedHalfUp(f32Text(v), shift, scale);
  if (r?.rounded) input.report.adjust(`${column} rounded half-up to ${scale} decimals`, where);
  return r?.text ?? null;
}

type Numbered = { n: number; r: GbbqRecord }[];

/**
 * A layout of the gbbq for `dataset` whose records `rows` makes of the file's; the layout of a
 * file read already takes its records (`decoded`), else it reads the file.
 */
const gbbqLayout =
  (dataset: string, rows: (input: VendorInput, recs: Numbered) => SourceRecord[]) =>
  (decoded?: readonly GbbqRecord[]): Layout => ({
    format: 'tdx-gbbq',
    dataset,
    binary: true,
    async *read(input) {
      const recs = read(input, decoded);
      yield recs === null ? [NOT_LAYOUT] : rows(input, recs);
    },
  });

/** The ex-dates (category 1) as corporate actions. */
function actionRows(input: VendorInput, recs: Numbered): SourceRecord[] {
  const out: SourceRecord[] = [];
  for (const { n, r } of recs) {
    if (r.category !== 1) continue;
    const of = instrumentOf(input, r, ['equity', 'fund'], 'ex-dates of equities and funds are read');
    if ('skip' in of) {
      input.report.skip(of.skip);
      continue;
    }
    const id = of.id;
    if (!isDate(r.date)) {
      out.push({ line: n, error: `date: expected a date YYYYMMDD, got ${r.date}` });
      continue;
    }
    const where = gbbqWhere(r);
    const [cash, price, bonus, rights] = [
      field(input, r.fields[0], -1, 5, 'cash_per_share', where),
      field(input, r.fields[1], 0, 3, 'rights_price', where),
      field(input, r.fields[2], -1, 6, 'bonus_per_share', where),
      field(input, r.fields[3], -1, 6, 'rights_per_share', where),
    ];
    if (cash === null || price === null || bonus === null || rights === null) {
      out.push({ line: n, error: `${where}: a negative or non-finite field (${r.fields.join(', ')})` });
      continue;
    }
    if (cash === '0' && bonus === '0' && rights === '0') {
      input.report.skip('ex-dates that distribute nothing (a rights price without rights shares: a placement)');
      continue;
    }
    if (rights !== '0' && price === '0') {
      input.report.skip('rights shares without a rights price (no reference price can be made of them)');
      continue;
    }
    const prev = previousTradingDay(input.ctx, id.slice(7), r.date);
    if (prev === null) {
      input.report.skip('ex-dates with no trading day before them in the calendar');
      continue;
    }
    const record = formatDate(prev);
    out.push({
      line: n,
      object: {
        instrument_id: id,
        ex_date: formatDate(r.date),
        record_date: record,
        announce_date: record,
        cash_per_share: cash,
        bonus_per_share: bonus,
        transfer_per_share: '0',
        rights_per_share: rights,
        rights_price: rights === '0' ? '0' : price,
      },
    });
  }
  return out;
}

const REASONS: Record<number, string> = {
  2: 'bonus',
  3: 'unlock',
  4: 'other',
  5: 'other',
  7: 'buyback',
  8: 'placement',
  9: 'unlock',
  10: 'other',
};

/** Category 2 (送配股上市) is `rights` when the code's last ex-date within 60 days before it gave rights shares only, else `bonus`. */
function listedShares(exDates: GbbqRecord[] | undefined, date: number): string {
  const last = exDates?.filter((x) => x.date <= date && x.date >= addDays(date, -60)).at(-1);
  return last && last.fields[3] > 0 && last.fields[2] === 0 ? 'rights' : 'bonus';
}

/** The ex-dates (category 1) by market byte and code. */
function exDatesByCode(recs: Numbered): Map<string, GbbqRecord[]> {
  const out = new Map<string, GbbqRecord[]>();
  for (const { r } of recs)
    if (r.category === 1) (out.get(r.market + r.code) ?? out.set(r.market + r.code, []).get(r.market + r.code)!).push(r);
  return out;
}

/** The share changes by instrument and date, file order kept within a day (the day's last row is its counts). */
const sortedChanges = (recs: Numbered) =>
  recs
    .filter(({ r }) => SHARE_CATEGORIES.has(r.category))
    .sort(
      (a, b) => a.r.market - b.r.market || (a.r.code < b.r.code ? -1 : a.r.code > b.r.code ? 1 : 0) || a.r.date - b.r.date || a.n - b.n,
    );

/** The share changes as share capital: per instrument and day, the counts after the day's last change. */
function shareRows(input: VendorInput, recs: Numbered): SourceRecord[] {
  const exDates = exDatesByCode(recs);
  const changes = sortedChanges(recs);
  const out: SourceRecord[] = [];
  let of: { id: string } | { skip: string } = { skip: '' },
    key = '',
    counts = '';
  for (let i = 0; i < changes.length; i++) {
    const { n, r } = changes[i];
    if (r.market + r.code !== key) {
      key = r.market + r.code;
      of = instrumentOf(input, r, ['equity'], 'share capital is of equities');
      counts = '';
    }
    if ('skip' in of) {
      input.report.skip(of.skip);
      continue;
    }
    const id = of.id;
    const next = changes[i + 1]?.r;
    if (next && next.market === r.market && next.code === r.code && next.date === r.date) {
      input.report.skip('share changes followed by another on the same day (the last one is kept)');
      continue;
    }
    if (!isDate(r.date)) {
      out.push({ line: n, error: `date: expected a date YYYYMMDD, got ${r.date}` });
      continue;
    }
    const where = gbbqWhere(r);
    const total = field(input, r.fields[3], 4, 0, 'total_shares', where),
      float = field(input, r.fields[2], 4, 0, 'float_shares', where);
    if (total === null || float === null || total === '0') {
      input.report.skip('share changes without a total after them');
      continue;
    }
    if (Number(float) > Number(total)) {
      input.report.skip('share changes whose float exceeds the total');
      continue;
    }
    const first = counts === '';
    if (`${total}|${float}` === counts) {
      input.report.skip('share changes that change neither count');
      continue;
    }
    counts = `${total}|${float}`;
    const listed = input.ctx.known(id)?.listDate;
    const reason = first && listed === r.date ? 'ipo' : r.category === 2 ? listedShares(exDates.get(key), r.date) : REASONS[r.category];
    out.push({
      line: n,
      object: {
        instrument_id: id,
        change_date: formatDate(r.date),
        reason,
        total_shares: total,
        float_shares: float,
        restricted_shares: String(Number(total) - Number(float)),
      },
    });
  }
  return out;
}

/** The layouts of the gbbq's ex-dates and share changes (`decoded`: the file's records as read already). */
export const gbbqActionsLayout = gbbqLayout('corporate_actions', actionRows);
export const gbbqSharesLayout = gbbqLayout('share_capital', shareRows);
export const tdxGbbqActions = gbbqActionsLayout();
export const tdxGbbqShareCapital = gbbqSharesLayout();
