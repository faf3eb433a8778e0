/**
 * Writes a simulated demo market into an empty, migrated store, table by table, each in its
 * key order (instruments get `inst` 1..n in ascending id order), so equal options give
 * byte-identical tables.
 */
import { classificationRows } from './catalog.js';
import { suspensionRows } from './suspensions.js';
import { shareCapitalRows } from './share-capital.js';
import type { DemoOptions } from './model.js';
import type { DemoMarket, InstrumentOut } from './simulate.js';
import { ACTION_COLUMNS, BAR_COLUMNS, INSTRUMENT_COLUMNS, QUOTE_COLUMNS, Writer } from './writer.js';

function* each<T, R>(xs: Iterable<T>, f: (x: T) => Iterable<R>): Generator<R> {
  for (const x of xs) yield* f(x);
}

export async function persist(w: Writer, o: DemoOptions, m: DemoMarket): Promise<void> {
  const { days } = m.span;
  const list = m.instruments;
  const inst = new Map(list.map((x, i) => [x.id, i + 1]));
  const withInst = (x: InstrumentOut) => inst.get(x.id)!;

  await w.write(
    'meta',
    ['key', 'value'],
    [
      [
        'demo',
        JSON.stringify({
          seed: o.seed,
          equities: o.equities,
          start: o.start,
          end: o.end,
          minuteDays: o.minuteDays,
          tickDays: o.tickDays,
        }),
      ],
    ],
  );
  // The markets (migration 0008) and their calendars (shipped) are in every store already.
  await w.write('classifications', ['id', 'name', 'type'], classificationRows());
  await w.write(
    'instruments',
    INSTRUMENT_COLUMNS,
    list.map((x) => [
      withInst(x),
      x.id,
      x.kind,
      x.code,
      x.market,
      x.board,
      x.name,
      x.name.toLowerCase(),
      x.nameEn,
      x.listDate,
      x.listDate === null ? null : 'exchange',
      null,
      x.totalShares,
      x.floatShares,
      x.fundType,
      x.underlying,
      x.baseDate,
      x.baseValue,
    ]),
  );
  await w.write(
    'instrument_classifications',
    ['inst', 'classification_id'],
    each(list, (x) => x.classifications.map((c) => [withInst(x), c])),
  );
  await w.write(
    'st_periods',
    ['inst', 'start_date', 'end_date'],
    each(list, (x) =>
      x.st
        .slice()
        .sort((a, b) => a.start - b.start)
        .map((p) => [withInst(x), p.start, p.end]),
    ),
  );
  await w.write(
    'suspensions',
    ['inst', 'start_date', 'end_date', 'resume_date', 'halt_from', 'halt_to', 'reason', 'announce_date'],
    each(list, (x) => suspensionRows(o.seed, x, m.span).map((row) => [withInst(x), ...row])),
  );
  await w.write(
    'share_capital',
    ['inst', 'change_date', 'announce_date', 'reason', 'total_shares', 'float_shares', 'restricted_shares'],
    each(list, (x) => shareCapitalRows(x).map((row) => [withInst(x), ...row])),
  );
  await w.write(
    'index_constituents',
    ['index_inst', 'inst', 'shares'],
    each(list, (x) => x.constituents.map((c) => [withInst(x), inst.get(c.id)!, c.shares]).sort((a, b) => a[1] - b[1])),
  );
  await w.write(
    'index_weights',
    ['index_inst', 'trade_date', 'inst', 'weight'],
    each(list, (x) => x.weights.map((r) => [withInst(x), r.date, inst.get(r.id)!, r.weight]).sort((a, b) => a[1] - b[1] || a[2] - b[2])),
  );
  await w.write(
    'corporate_actions',
    ACTION_COLUMNS,
    each(list, (x) =>
      x.actions.map((a) => [
        withInst(x),
        a.exDate,
        a.recordDate,
        a.payDate,
        a.announceDate,
        a.cash,
        a.bonus,
        a.transfer,
        a.rightsRatio,
        a.rightsPrice,
      ]),
    ),
  );
  await w.write(
    'bars_1d',
    ['inst', 'date', ...BAR_COLUMNS],
    each(list, (x) => each(x.daily, (b) => (b ? [[withInst(x), b.date, b.open, b.high, b.low, b.close, b.volume, b.amount]] : []))),
  );
  const byDay = <T>(map: Map<number, T[]>) => days.filter((d) => map.has(d)).map((d) => [d, map.get(d)!] as const);
  await w.write(
    'bars_1m',
    ['inst', 'ts', 'date', ...BAR_COLUMNS],
    each(list, (x) =>
      each(byDay(x.minutes), ([d, bars]) => bars.map((b) => [withInst(x), b.ts, d, b.open, b.high, b.low, b.close, b.volume, b.amount])),
    ),
  );
  await w.write(
    'quotes',
    QUOTE_COLUMNS,
    each(list, (x) => each(byDay(x.quotes), ([, rows]) => rows.map((r) => [withInst(x), ...r]))),
  );
  await w.write(
    'trades',
    ['inst', 'date', 'seq', 'ts', 'price', 'volume', 'amount', 'side'],
    each(list, (x) =>
      each(byDay(x.trades), ([d, ts]) => ts.map((t, k) => [withInst(x), d, k + 1, t.ts, t.price, t.volume, t.amount, t.side])),
    ),
  );
}
