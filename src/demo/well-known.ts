/**
 * Well-known A-shares in the demo market, under their real codes and names, listing dates and
 * share counts, starting near their real price at the start of 2023 (prices then follow the
 * simulated market, not history). They take the first places of their segment, in this order,
 * so even the smallest demo holds 600519.SH and 000001.SZ; every other equity is fictional.
 * They are never special-treatment, suspended or given a rights issue by the demo.
 */
import type { BoardId, MarketId } from '../market/types.js';

export interface WellKnown {
  code: string; market: MarketId; board: BoardId;
  name: string; nameEn: string;
  /** Industry key of catalog.ts. */
  industry: string;
  listDate: number;
  /** Approximate close at the end of 2022, in CNY. */
  price: number;
  totalShares: number; floatShares: number;
}

export const WELL_KNOWN: readonly WellKnown[] = [
  { code: '600519', market: 'SH', board: 'main', name: '贵州茅台', nameEn: 'Kweichow Moutai', industry: 'food_beverage',
    listDate: 20010827, price: 1727, totalShares: 1_256_197_800, floatShares: 1_256_197_800 },
  { code: '601318', market: 'SH', board: 'main', name: '中国平安', nameEn: 'Ping An Insurance', industry: 'non_bank_finance',
    listDate: 20070301, price: 47.6, totalShares: 18_210_234_607, floatShares: 10_832_664_498 },
  { code: '600036', market: 'SH', board: 'main', name: '招商银行', nameEn: 'China Merchants Bank', industry: 'banks',
    listDate: 20020409, price: 37.7, totalShares: 25_219_845_601, floatShares: 20_628_944_429 },
  { code: '600900', market: 'SH', board: 'main', name: '长江电力', nameEn: 'China Yangtze Power', industry: 'utilities',
    listDate: 20031118, price: 21.1, totalShares: 24_468_217_716, floatShares: 22_741_859_230 },
  { code: '601398', market: 'SH', board: 'main', name: '工商银行', nameEn: 'ICBC', industry: 'banks',
    listDate: 20061027, price: 4.37, totalShares: 356_406_257_089, floatShares: 269_612_212_539 },
  { code: '688981', market: 'SH', board: 'star', name: '中芯国际', nameEn: 'SMIC', industry: 'electronics',
    listDate: 20200716, price: 40.6, totalShares: 7_933_046_658, floatShares: 1_977_027_476 },
  { code: '688111', market: 'SH', board: 'star', name: '金山办公', nameEn: 'Kingsoft Office', industry: 'computers',
    listDate: 20191118, price: 262, totalShares: 461_133_387, floatShares: 461_133_387 },
  { code: '000001', market: 'SZ', board: 'main', name: '平安银行', nameEn: 'Ping An Bank', industry: 'banks',
    listDate: 19910403, price: 13.15, totalShares: 19_405_918_198, floatShares: 19_405_546_950 },
  { code: '000858', market: 'SZ', board: 'main', name: '五粮液', nameEn: 'Wuliangye Yibin', industry: 'food_beverage',
    listDate: 19980427, price: 179.8, totalShares: 3_881_608_005, floatShares: 3_881_525_431 },
  { code: '000333', market: 'SZ', board: 'main', name: '美的集团', nameEn: 'Midea Group', industry: 'home_appliances',
    listDate: 20130918, price: 51.7, totalShares: 7_006_087_627, floatShares: 6_804_158_000 },
  { code: '002594', market: 'SZ', board: 'main', name: '比亚迪', nameEn: 'BYD', industry: 'autos',
    listDate: 20110630, price: 257, totalShares: 2_911_142_855, floatShares: 1_164_434_690 },
  { code: '000002', market: 'SZ', board: 'main', name: '万科A', nameEn: 'China Vanke', industry: 'real_estate',
    listDate: 19910129, price: 18.3, totalShares: 11_930_709_471, floatShares: 9_716_354_775 },
  { code: '300750', market: 'SZ', board: 'chinext', name: '宁德时代', nameEn: 'CATL', industry: 'power_equipment',
    listDate: 20180611, price: 392, totalShares: 2_442_514_668, floatShares: 2_071_234_558 },
  { code: '300059', market: 'SZ', board: 'chinext', name: '东方财富', nameEn: 'East Money Information', industry: 'non_bank_finance',
    listDate: 20100319, price: 19.5, totalShares: 13_214_162_262, floatShares: 11_297_946_140 },
  { code: '430047', market: 'BJ', board: 'bse', name: '诺思兰德', nameEn: 'Beijing Northland Biotech', industry: 'pharma',
    listDate: 20211115, price: 12.1, totalShares: 274_754_394, floatShares: 180_256_530 },
];
