/**
 * The start banner of a store the demo did not build (app/server.ts describeHeld, banner): what
 * it holds, read from the store (store/tables/holdings.ts), on both stores; a new empty store
 * says it holds nothing yet.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ingest } from '../src/ingest/load.js';
import { dataset } from '../src/datasets/registry.js';
import { loadConfig } from '../src/app/config.js';
import { banner, describeHeld } from '../src/app/server.js';
import { harness, STORES, type Harness } from './helpers.js';
import { tmp } from './ingest-helpers.js';

const dir = tmp('mds-banner-');
const file = (name: string, lines: string[]) => {
  const path = join(dir, `${name}-${Math.random().toString(36).slice(2)}.csv`);
  writeFileSync(path, lines.join('\n') + '\n');
  return { path, dataset: dataset(name)! };
};

describe.each(STORES)('the start banner of a loaded store on $name', ({ url }) => {
  let h: Harness;
  beforeAll(async () => {
    h = await harness(await url(), null);
  });
  afterAll(async () => h?.close());

  it('says what the store holds: instruments by kind, the days of its bars and ticks, its other datasets', async () => {
    const cfg = { ...loadConfig({}), port: 8080 };
    const said = async () => banner(cfg, undefined, await describeHeld(h.store), {}).split('\n');
    expect((await said())[3]).toBe('The store holds no instruments yet: load data with npx mds ingest (docs/ingest.md).');

    const r = await ingest(h.store, [
      file('instruments', [
        'instrument_id,kind,board,name,list_date',
        '600519.SH,equity,main,贵州茅台,2001-08-27',
        '000001.SZ,equity,main,平安银行,1991-04-03',
        '000300.SH,index,,沪深300,2005-04-08',
      ]),
      file('bars_1d', [
        'instrument_id,trade_date,open,high,low,close,volume,amount',
        '600519.SH,2024-01-02,1715.00,1718.19,1678.10,1685.01,3215644,5440082500.00',
        '600519.SH,2024-01-03,1681.11,1695.22,1676.33,1694.00,2022929,3411565000.00',
        '000300.SH,2024-01-04,3421.00,3426.00,3380.00,3386.35,100000000,150000000000.00',
      ]),
      file('bars_1m', [
        'instrument_id,timestamp,open,high,low,close,volume,amount',
        '600519.SH,2024-01-03T09:31:00+08:00,1681.11,1683.00,1680.00,1682.00,10000,16820000.00',
        '600519.SH,2024-01-03T09:32:00+08:00,1682.00,1684.00,1681.00,1683.50,8000,13468000.00',
      ]),
      file('dividends', [
        'instrument_id,report_period,announce_date,ex_date,cash_per_share,bonus_per_share,transfer_per_share,progress',
        '600519.SH,2023-06-30,2023-12-07,2023-12-20,19.106,0,0,implemented',
      ]),
    ]);
    expect(r.ok, JSON.stringify(r)).toBe(true);
    const lines = await said();
    expect(lines.slice(3, 6)).toEqual([
      'The store holds 2 equities, 1 index, 0 funds;',
      '  daily bars 2024-01-02..2024-01-04, 1m bars 2024-01-03, no quotes, no trades;',
      '  also dividends.',
    ]);
    expect(lines).toContain("  curl -g -H 'X-API-Key: <your key>' 'http://127.0.0.1:8080/api/v1/equities?page[size]=5'");
  });
});
