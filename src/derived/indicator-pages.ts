/**
 * Precomputed indicators: for the indicators an operator chose (`mds indicators precompute`),
 * the points of every daily bar pack (an instrument's month) rendered once as the JSON the API
 * serves for them over unadjusted daily bars, as the daily packs' bars are written (store/packs.ts PackSlices). A page of such
 * an indicator is then bytes copied out of a few rows, as a page of daily bars is, instead of
 * bars decoded, folded and 100 points written (the one read path that cannot otherwise come
 * near the daily page: its body is stored, the indicator's is made). The cost is disk: about
 * 215 bytes a bar per indicator (1.07 GB for MACD on the 5 M daily bars of the bench store) and the time to render
 * them at ingest, which is why it is a choice, off by default.
 *
 * A row (`indicator_pages`, per instrument, indicator and month) is a page in the daily pages'
 * format: keys are dates, records are TechnicalIndicatorPoint JSON as `indicatorWriter` writes
 * it. Values are computed over the instrument's whole unadjusted daily history, as the API
 * computes them (`compute` over `seriesFromBars`), so a page served from here is byte for byte
 * the page the server would compute (tested). A write to an instrument's month changes the
 * points of that month and every later one (recursive indicators), so the pack merges render the
 * instrument's pages again from the earliest month written (`writeIndicatorPages`, in the
 * merge's transaction). The chosen set and the version are kept in `meta` under
 * `indicator_pages` as `<version>:<id>,<id>` (`INDICATOR_PAGES`, a derivation of registry.ts):
 * the version is the hash of every indicator's pages over the fixture (fixture.ts), so that a
 * change of the points' values or JSON makes migration render every page again.
 */
import { Renderer } from '../render/json-bytes.js';
import { indicatorWriter } from '../render/indicator-writers.js';
import { WriterCache } from '../render/writer-cache.js';
import { pageText } from '../render/page-text.js';
import { INDICATOR_IDS, INDICATORS, seriesFromBars, type IndicatorId } from '../indicators/registry.js';
import type { Bar } from '../market/types.js';
import { KINDS } from '../market/kinds.js';
import { decodeBars } from '../store/packs.js';
import { recordVersion } from '../store/versions.js';
import { INDICATOR_PAGES_KEY, metaValue, parseIndicatorSetting, setMeta } from '../store/meta.js';
import type { BulkSession, Store } from '../store/types.js';
import { DAILY_PACKS as PACKS, dailyPackBatches, dailyPacksOf } from '../store/tables/bar-packs.js';
import { idsAndKinds, instrumentKeys, type IdAndKind } from '../store/tables/instruments.js';
import {
  countIndicatorPages,
  deleteAllIndicatorPages,
  deleteIndicatorPages,
  indicatorPagesOf,
  replaceIndicatorPages,
} from '../store/tables/indicator-pages.js';
import { fixtureVersion, type Derivation } from './derivation.js';
import { FIXTURE } from './fixture.js';

const TABLE = 'indicator_pages',
  META = INDICATOR_PAGES_KEY;

/** Every indicator's pages of the fixture's instruments, as `render` renders them, one a line: what versions the pages. */
export function indicatorPagesOutput(render: typeof renderIndicatorPages = renderIndicatorPages): string {
  const renderer = new Renderer(),
    writers = new WriterCache();
  return FIXTURE.flatMap((f) => render(f.inst, f.meta, f.packs, INDICATOR_IDS, 0, renderer, writers))
    .map((r) => r.join('\t'))
    .join('\n');
}

const version = fixtureVersion(() => indicatorPagesOutput());

const setting = (ids: readonly IndicatorId[]) => `${version()}:${INDICATOR_IDS.filter((id) => ids.includes(id)).join(',')}`;

const storedSetting = (s: BulkSession) => metaValue(s, META);

/** The indicators whose pages the store holds (in INDICATOR_IDS order). */
export async function precomputedIds(s: BulkSession): Promise<IndicatorId[]> {
  return parseIndicatorSetting(await storedSetting(s)).ids;
}

/**
 * The pages of indicators `ids` of one instrument from month `from` on, as rows `[inst,
 * indicator, month, text]`, from all its daily packs (`packs`: `[month, n, data]` in month
 * order): every value needs the history before it. None for a kind without indicators.
 */
export function renderIndicatorPages(
  inst: number,
  meta: IdAndKind,
  packs: [number, number, Uint8Array][],
  ids: readonly IndicatorId[],
  from: number,
  renderer: Renderer,
  writers: WriterCache,
): unknown[][] {
  if (!KINDS[meta.kind].indicators) return [];
  const bars: Bar[] = [],
    starts: number[] = [];
  for (const [, n, data] of packs) {
    starts.push(bars.length);
    decodeBars(bars, data, n, null, -Infinity, Infinity, Infinity);
  }
  const series = seriesFromBars(bars);
  const out: unknown[][] = [];
  for (const id of ids) {
    const values = INDICATORS[id].compute(series);
    const write = indicatorWriter(writers, meta.id, id, '1d', 'none');
    packs.forEach(([month], p) => {
      if (month < from) return;
      const keys: number[] = [],
        ends: number[] = [];
      const w = renderer.start();
      for (let i = starts[p], end = p + 1 < starts.length ? starts[p + 1] : bars.length; i < end; i++) {
        write(w, bars[i], values[i]);
        w.byte(44);
        keys.push(bars[i].date);
        ends.push(w.length);
      }
      out.push([inst, id, month, pageText(keys, ends, w)]);
    });
  }
  return out;
}

/** The id and kind of every instrument, or of `insts`. */
async function instrumentsOf(s: BulkSession, insts?: number[]): Promise<(inst: number) => IdAndKind> {
  const all = insts ?? (await instrumentKeys(s));
  const metas = await idsAndKinds(s, all);
  return (inst) => {
    const meta = metas.get(inst);
    if (!meta) throw new Error(`bar pack of instrument ${inst}, which is not in instruments`);
    return meta;
  };
}

/**
 * Renders the pages of instruments whose daily packs were just written (`rows`: `[inst, month,
 * n, data]`) from the earliest month written of each, when indicators are precomputed: called by
 * every pack merge, in the merge's transaction (1m packs have none).
 */
export async function writeIndicatorPages(s: BulkSession, packs: string, rows: unknown[][]): Promise<void> {
  if (packs !== PACKS || rows.length === 0) return;
  const ids = await precomputedIds(s);
  if (ids.length === 0) return;
  const earliest = new Map<number, number>();
  for (const [inst, month] of rows as [number, number][]) earliest.set(inst, Math.min(earliest.get(inst) ?? Infinity, month));
  const meta = await instrumentsOf(s, [...earliest.keys()]);
  const renderer = new Renderer(),
    writers = new WriterCache();
  for (const [inst, month] of earliest) {
    const packs = await dailyPacksOf(s, inst);
    await replaceIndicatorPages(s, inst, ids, month, renderIndicatorPages(inst, meta(inst), packs, ids, month, renderer, writers));
  }
}

/** Every instrument's daily packs `[inst, packs]`, in key order. */
async function* instrumentPacks(s: BulkSession): AsyncGenerator<[number, [number, number, Uint8Array][]]> {
  let inst = -1,
    packs: [number, number, Uint8Array][] = [];
  for await (const rows of dailyPackBatches(s)) {
    for (const [i, month, n, data] of rows as [number, number, number, Uint8Array][]) {
      if (i !== inst && packs.length) {
        yield [inst, packs];
        packs = [];
      }
      inst = i;
      packs.push([month, n, data]);
    }
  }
  if (packs.length) yield [inst, packs];
}

/**
 * Renders every page of `ids`, dropping those of any other indicator, and records the setting;
 * returns the pages rendered.
 */
async function rebuild(s: BulkSession, ids: readonly IndicatorId[], keep: readonly IndicatorId[]): Promise<number> {
  const render = ids.filter((id) => !keep.includes(id));
  const drop = INDICATOR_IDS.filter((id) => !ids.includes(id));
  if (drop.length) await deleteIndicatorPages(s, drop);
  let pages = 0;
  if (render.length) {
    const meta = await instrumentsOf(s);
    const renderer = new Renderer(),
      writers = new WriterCache();
    for await (const [inst, packs] of instrumentPacks(s)) {
      const rows = renderIndicatorPages(inst, meta(inst), packs, render, 0, renderer, writers);
      await replaceIndicatorPages(s, inst, render, 0, rows);
      pages += rows.length;
    }
  }
  await setMeta(s, META, setting(ids));
  return pages;
}

/**
 * Sets the indicators the store precomputes to `ids`, in one transaction: renders the pages of
 * those it did not hold, drops those of the others, and records a data version (store/versions.ts)
 * so that running servers see the change. Returns the set as it was and as it is now.
 */
export async function setPrecomputed(store: Store, ids: readonly IndicatorId[]): Promise<{ before: IndicatorId[]; after: IndicatorId[] }> {
  return store.bulkTransaction(async (s) => {
    await s.lockPacks();
    const stored = parseIndicatorSetting(await storedSetting(s));
    const after = INDICATOR_IDS.filter((id) => ids.includes(id));
    const keep = stored.version === version() ? stored.ids : [];
    if (after.join() === keep.join() && (stored.version !== null || after.length === 0)) return { before: stored.ids, after };
    const pages = await rebuild(s, after, keep);
    await recordVersion(s, `indicators precomputed: ${after.join(', ') || 'none'}`, [
      { dataset: 'indicator_pages', rows: pages, instruments: null, from: null, to: null },
    ]);
    return { before: stored.ids, after };
  });
}

/**
 * Precomputed indicator pages as a derivation (registry.ts): the version is the part of the
 * setting before the colon; a rebuild renders every page of the chosen indicators again (a
 * store that never chose any records the version with none).
 */
export const INDICATOR_PAGES: Derivation = {
  name: META,
  unit: 'pages',
  version,
  stored: async (s) => parseIndicatorSetting(await storedSetting(s)).version,
  write: writeIndicatorPages,
  async rebuild(s) {
    await deleteAllIndicatorPages(s);
    return rebuild(s, parseIndicatorSetting(await storedSetting(s)).ids, []);
  },
  check: checkIndicatorPages,
};

/**
 * Checks, in session `s`, that the pages of every precomputed indicator are those its packs
 * render now, and that no other page is stored; reports each problem through `problem` and
 * returns the pages compared (checkBarPacks calls it).
 */
export async function checkIndicatorPages(s: BulkSession, problem: (p: string) => void): Promise<number> {
  const ids = await precomputedIds(s);
  let pages = 0,
    seen = 0;
  if (ids.length) {
    const meta = await instrumentsOf(s);
    const renderer = new Renderer(),
      writers = new WriterCache();
    for await (const [inst, packs] of instrumentPacks(s)) {
      const stored = new Map((await indicatorPagesOf(s, inst)).map(([id, month, text]) => [`${id}/${month}`, text]));
      for (const [, id, month, text] of renderIndicatorPages(inst, meta(inst), packs, ids, 0, renderer, writers)) {
        const page = stored.get(`${String(id)}/${String(month)}`);
        if (page !== undefined) seen++;
        if (page === undefined) problem(`${TABLE} ${inst}/${String(id)}/${String(month)}: missing`);
        else if (page !== text) problem(`${TABLE} ${inst}/${String(id)}/${String(month)}: differs from its pack`);
        else pages++;
      }
    }
  }
  const total = await countIndicatorPages(s);
  if (total !== seen)
    problem(`${TABLE}: pages of no pack or of an indicator not precomputed (${ids.join(', ') || 'none'}): ${total - seen}`);
  return pages;
}
