/**
 * Converts the real files of shared/data into `mds ingest` files (docs/ingest.md):
 *
 *   npx tsx scripts/convert-shared.ts [--src ../shared/data] --out DIR && mds ingest --dir DIR
 *
 * - ohlcv/tdx_sh600000_daily_raw.csv → bars_1d of 600000.SH (浦发银行), volumes in shares;
 * - ohlcv/tdx_sh000001_index_daily.csv → bars_1d of the index 000001.SH, lots × 100 → shares.
 *   Sixteen rows of 1991–95 open or close outside their own high–low range (vendor data); their
 *   high or low is widened to include them (open, close, volume and amount are unchanged);
 * - ohlcv/tdx_sh688001_1min.csv → bars_1m of 688001.SH (TDX 240-bar convention, bar ends);
 * - adjustments/hikyuu_stkweight_events_to_2011.csv → corporate_actions of 600000.SH: rows that
 *   distribute something (cash, bonus, transfer or rights shares), per-10 figures ÷ 10. The
 *   source has no record or announcement dates: the record date is the trading day before the
 *   ex-date (the A-share rule) and the announcement date is set to it;
 * - markets (SH), trading_days (every date of the files: the SSE Composite traded on every SSE
 *   trading day since 1990-12-19) and the three instruments.
 * Values are copied as text (exact decimals), never through floats; amounts keep TDX's float32
 * precision (about 7 significant digits; see ohlcv/README.md).
 */
import { readFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { formatScaled, parseScaled } from '../src/lib/decimal.js';

export interface ConvertSummary { files: Record<string, number>; widened: string[] }

const csv = (path: string) => {
  const [head, ...lines] = readFileSync(path, 'utf8').trim().split(/\r?\n/);
  const names = head.split(',');
  return lines.map((l) => Object.fromEntries(l.split(',').map((v, i) => [names[i], v])) as Record<string, string>);
};

/** Exact decimal text at `scale` decimals (throws when the source is not exact at that scale). */
function dec(s: string, scale: number, digits = scale): string {
  const v = parseScaled(s, scale);
  if (v === null) throw new Error(`not an exact decimal at ${scale} places: ${s}`);
  return formatScaled(v, scale, digits);
}

/** A per-10 figure as per share: shift the decimal point one place (exact). */
const per10 = (s: string, scale: number) => {
  const v = parseScaled(s, scale - 1);
  if (v === null) throw new Error(`not exact: ${s}`);
  return formatScaled(v, scale, scale);
};

const times100 = (s: string) => {
  const v = Number(s) * 100;
  if (!/^\d+$/.test(s) || !Number.isSafeInteger(v)) throw new Error(`not a volume: ${s}`);
  return String(v);
};

export function convertShared(src: string, out: string): ConvertSummary {
  mkdirSync(out, { recursive: true });
  const files: Record<string, number> = {};
  const write = (name: string, header: string, rows: string[]) => {
    writeFileSync(join(out, `${name}.csv`), [header, ...rows].join('\n') + '\n');
    files[name] = rows.length;
  };
  const stock = csv(join(src, 'ohlcv/tdx_sh600000_daily_raw.csv'));
  const index = csv(join(src, 'ohlcv/tdx_sh000001_index_daily.csv'));
  const minutes = csv(join(src, 'ohlcv/tdx_sh688001_1min.csv'));
  const events = csv(join(src, 'adjustments/hikyuu_stkweight_events_to_2011.csv')).filter((e) => e.ts_code === '600000.SH');

  const days = [...new Set([...index, ...stock, ...minutes].map((r) => r.date))].sort();
  write('markets', 'id,name,name_local,mic,timezone,currency,opened', ['SH,Shanghai Stock Exchange,上海证券交易所,XSHG,Asia/Shanghai,CNY,1990-12-19']);
  write('trading_days', 'market,date', days.map((d) => `SH,${d}`));
  write('instruments', 'instrument_id,kind,board,name,name_en,list_date,base_date,base_value', [
    '000001.SH,index,,上证指数,SSE Composite Index,1991-07-15,1990-12-19,100.00',
    '600000.SH,equity,main,浦发银行,Shanghai Pudong Development Bank,1999-11-10,,',
    '688001.SH,equity,star,华兴源创,Suzhou HYC Technology,2019-07-22,,',
  ]);

  const widened: string[] = [];
  const bar = (id: string, r: Record<string, string>, volume: string) => {
    const [o, c] = [dec(r.open, 2), dec(r.close, 2)];
    let [h, l] = [dec(r.high, 2), dec(r.low, 2)];
    const v = (x: string) => parseScaled(x, 2)!;
    const hi = Math.max(v(o), v(h), v(c)), lo = Math.min(v(o), v(l), v(c));
    if (hi !== v(h) || lo !== v(l)) { widened.push(`${id} ${r.date}`); h = formatScaled(hi, 2, 2); l = formatScaled(lo, 2, 2); }
    return `${id},${r.date},${o},${h},${l},${c},${volume},${dec(r.amount_cny, 2)}`;
  };
  write('bars_1d', 'instrument_id,trade_date,open,high,low,close,volume,amount', [
    ...index.map((r) => bar('000001.SH', r, times100(r.volume_lots))),
    ...stock.map((r) => bar('600000.SH', r, r.volume_shares)),
  ]);
  write('bars_1m', 'instrument_id,timestamp,open,high,low,close,volume,amount', minutes.map((r) =>
    `688001.SH,${r.date}T${r.time}:00+08:00,${dec(r.open, 2)},${dec(r.high, 2)},${dec(r.low, 2)},${dec(r.close, 2)},${r.volume_shares},${dec(r.amount_cny, 2)}`));

  const before = (d: string) => days[days.indexOf(d) - 1] ?? days.filter((x) => x < d).pop()!;
  const distributes = (e: Record<string, string>) => ['bonus_shares_per10', 'rights_shares_per10', 'cash_dividend_per10_cny', 'transfer_shares_per10']
    .some((k) => parseScaled(e[k], 4) !== 0);
  write('corporate_actions', 'instrument_id,ex_date,record_date,pay_date,announce_date,cash_per_share,bonus_per_share,transfer_per_share,rights_per_share,rights_price',
    events.filter(distributes).map((e) => {
      const rights = per10(e.rights_shares_per10, 6);
      const price = parseScaled(e.rights_shares_per10, 4) === 0 ? '0.00' : dec(e.rights_price_cny, 3, 2);
      const record = before(e.date);
      return `600000.SH,${e.date},${record},,${record},${per10(e.cash_dividend_per10_cny, 5)},${per10(e.bonus_shares_per10, 6)},`
        + `${per10(e.transfer_shares_per10, 6)},${rights},${price}`;
    }));
  return { files, widened };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { values } = parseArgs({ options: { src: { type: 'string', default: fileURLToPath(new URL('../../shared/data/', import.meta.url)) }, out: { type: 'string' } } });
  if (!values.out) { console.error('usage: npx tsx scripts/convert-shared.ts [--src DIR] --out DIR'); process.exit(1); }
  const s = convertShared(values.src!, values.out);
  for (const [name, n] of Object.entries(s.files)) console.log(`${name}.csv: ${n} rows`);
  if (s.widened.length) console.log(`high/low widened to the close on: ${s.widened.join(', ')}`);
}
