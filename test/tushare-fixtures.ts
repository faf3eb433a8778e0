/**
 * A Tushare Pro `stock_basic` export made by the tests, shaped as the vendor writes it
 * (https://tushare.pro/document/2?doc_id=25: every output column, in the documented order, as
 * `to_csv(index=False)` writes a DataFrame) with today's code ranges: ChiNext 302132.SZ
 * (中航成飞), the BSE's 920 codes (万达轴承, the first, in 2024; the six pilot stocks that moved
 * from NEEQ codes on 2025-05-06, e.g. 830799 → 920799 艾融软件), STAR 688 and the CDR 689009.SH
 * (market `CDR`), SZ main 000/001/002/003, SH main 600/601/603/605, and the five names whose
 * pinyin initials need a polyphone's other reading (藏格矿业 zgky, 东阿阿胶 deej, 重药控股 cykg,
 * 夏厦精密 xxjm, 世联行 slh).
 *
 * Codes, names, the `market` label and `cnspell` are those of the real listings; area, industry,
 * the full and English names, listing dates, is_hs and the controller columns fill the shape and
 * are not asserted to be the vendor's values. `asOf` picks the codes of an export of that month:
 * before 2025-05-06 the pilot BSE stocks still had their NEEQ codes.
 */

/** [ts_code, name, cnspell, market, list_date, delist_date, area, industry, enname]. */
type Listing = [string, string, string, string, string, string, string, string, string];

const LISTINGS: Listing[] = [
  ['000001.SZ', '平安银行', 'payh', '主板', '19910403', '', '深圳', '银行', 'Ping An Bank Co., Ltd.'],
  ['000002.SZ', '万科A', 'wka', '主板', '19910129', '', '深圳', '全国地产', 'China Vanke Co.,Ltd.'],
  ['000408.SZ', '藏格矿业', 'zgky', '主板', '19960628', '', '青海', '农药化肥', 'Zangge Mining Company Limited'],
  ['000423.SZ', '东阿阿胶', 'deej', '主板', '19960729', '', '山东', '中成药', 'Dong-E-E-Jiao Co., Ltd.'],
  ['000950.SZ', '重药控股', 'cykg', '主板', '19990916', '', '重庆', '医药商业', 'Chongqing Pharmaceutical Holding Co., Ltd.'],
  ['001306.SZ', '夏厦精密', 'xxjm', '主板', '20231116', '', '浙江', '机械基件', 'Zhejiang Xiasha Precision Manufacturing Co., Ltd.'],
  ['002285.SZ', '世联行', 'slh', '主板', '20090828', '', '深圳', '房产服务', 'Shenzhen World Union Group Incorporated'],
  ['003816.SZ', '中国广核', 'zggh', '主板', '20190826', '', '深圳', '新型电力', 'CGN Power Co., Ltd.'],
  ['300750.SZ', '宁德时代', 'ndsd', '创业板', '20180611', '', '福建', '电气设备', 'Contemporary Amperex Technology Co., Limited'],
  ['301236.SZ', '软通动力', 'rtdl', '创业板', '20220315', '', '北京', '软件服务', 'iSoftStone Information Technology (Group) Co., Ltd.'],
  ['302132.SZ', '中航成飞', 'zhcf', '创业板', '20100827', '', '四川', '航空', 'AVIC Chengdu Aircraft Co., Ltd.'],
  ['600519.SH', '贵州茅台', 'gzmt', '主板', '20010827', '', '贵州', '白酒', 'Kweichow Moutai Co.,Ltd.'],
  ['601318.SH', '中国平安', 'zgpa', '主板', '20070301', '', '深圳', '保险', 'Ping An Insurance (Group) Company of China, Ltd.'],
  ['603288.SH', '海天味业', 'htwy', '主板', '20140211', '', '广东', '食品', 'Foshan Haitian Flavouring and Food Company Ltd.'],
  ['605499.SH', '东鹏饮料', 'dpyl', '主板', '20210527', '', '深圳', '软饮料', 'Eastroc Beverage (Group) Co., Ltd.'],
  ['688981.SH', '中芯国际', 'zxgj', '科创板', '20200716', '', '上海', '半导体', 'Semiconductor Manufacturing International Corporation'],
  ['689009.SH', '九号公司', 'jhgs', 'CDR', '20201029', '', '北京', '摩托车', 'Ninebot Limited'],
  ['600087.SH', '退市长油', 'tscy', '主板', '19970611', '20140605', '湖北', '水运', 'Nanjing Tanker Corporation'],
  ['920002.BJ', '万达轴承', 'wdzc', '北交所', '20240517', '', '江苏', '机械基件', 'Jiangsu Wanda Special Bearing Co., Ltd.'],
  ['830799.BJ', '艾融软件', 'arrj', '北交所', '20200727', '', '上海', '软件服务', 'Shanghai Emperor of Cloud Technology Co., Ltd.'],
  ['430489.BJ', '佳先股份', 'jxgf', '北交所', '20200727', '', '安徽', '化工原料', 'Anhui Jiaxian Functional Auxiliary Co., Ltd.'],
  ['833819.BJ', '颖泰生物', 'ytsw', '北交所', '20200727', '', '北京', '农药化肥', 'Beijing Yingtai Jiahe Biotechnology Co., Ltd.'],
];

/** The NEEQ codes the BSE replaced by 920 codes from 2025-05-06 (the pilot) on: the last three digits kept. */
const MOVED_TO_920 = new Set(['830799.BJ', '430489.BJ', '833819.BJ']);

/** stock_basic's output columns, in the documented order. */
export const STOCK_BASIC_COLUMNS = [
  'ts_code',
  'symbol',
  'name',
  'area',
  'industry',
  'fullname',
  'enname',
  'cnspell',
  'market',
  'exchange',
  'curr_type',
  'list_status',
  'list_date',
  'delist_date',
  'is_hs',
  'act_name',
  'act_ent_type',
] as const;

export interface StockBasicRow {
  ts_code: string;
  name: string;
  cnspell: string;
  market: string;
  list_date: string;
  delist_date: string;
}

const EXCHANGE: Record<string, string> = { SH: 'SSE', SZ: 'SZSE', BJ: 'BSE' };

/** The rows of an export of `asOf` (YYYY-MM), by ts_code order as the vendor sorts them. */
export function stockBasicRows(asOf: string): StockBasicRow[] {
  return LISTINGS.map(([ts_code, name, cnspell, market, list_date, delist_date]) => ({
    ts_code: MOVED_TO_920.has(ts_code) && asOf >= '2025-05' ? `920${ts_code.slice(3)}` : ts_code,
    name,
    cnspell,
    market,
    list_date,
    delist_date,
  })).sort((a, b) => (a.ts_code < b.ts_code ? -1 : 1));
}

/** A CSV field as pandas writes it: quoted when it holds a comma or a quote. */
const field = (s: string) => (/[",]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);

/** The export of `asOf` as the text of the CSV file (`extra`: more rows, e.g. hand-made ones, appended). */
export function stockBasicCsv(asOf: string, extra: Partial<Record<(typeof STOCK_BASIC_COLUMNS)[number], string>>[] = []): string {
  const full = new Map(LISTINGS.map((l) => [l[1], l]));
  const rows = stockBasicRows(asOf).map((r) => {
    const [, , , , , , area, industry, enname] = full.get(r.name)!;
    const code = r.ts_code.slice(0, 6);
    return {
      ts_code: r.ts_code,
      symbol: code,
      name: r.name,
      area,
      industry,
      fullname: `${r.name.replace(/^退市/, '')}股份有限公司`,
      enname,
      cnspell: r.cnspell,
      market: r.market,
      exchange: EXCHANGE[r.ts_code.slice(7)],
      curr_type: 'CNY',
      list_status: r.delist_date ? 'D' : 'L',
      list_date: r.list_date,
      delist_date: r.delist_date,
      is_hs: r.ts_code.endsWith('.BJ') ? 'N' : 'S',
      act_name: '',
      act_ent_type: '',
    } as Record<string, string>;
  });
  const lines = [
    STOCK_BASIC_COLUMNS.join(','),
    ...[...rows, ...extra].map((r) => STOCK_BASIC_COLUMNS.map((c) => field(r[c] ?? '')).join(',')),
  ];
  return lines.join('\n') + '\n';
}

/**
 * `text` in GBK: ASCII as is, every other character by its two-byte GBK code, found by decoding
 * every GBK code (lead 0x81–0xFE, trail 0x40–0xFE but 0x7F) with the WHATWG gb18030 decoder, GBK's
 * superset. Throws for a character GBK lacks.
 */
export function gbkBytes(text: string): Buffer {
  const codes = gbkCodes();
  const out: number[] = [];
  for (const ch of text) {
    const c = ch.codePointAt(0)!;
    if (c < 0x80) out.push(c);
    else {
      const code = codes.get(ch);
      if (code === undefined) throw new Error(`no GBK code for ${ch}`);
      out.push(code >> 8, code & 0xff);
    }
  }
  return Buffer.from(out);
}

let gbk: Map<string, number> | null = null;
function gbkCodes(): Map<string, number> {
  if (gbk) return gbk;
  gbk = new Map();
  const decoder = new TextDecoder('gb18030');
  for (let lead = 0x81; lead <= 0xfe; lead++)
    for (let trail = 0x40; trail <= 0xfe; trail++) {
      if (trail === 0x7f) continue;
      const ch = decoder.decode(Uint8Array.of(lead, trail));
      if (!gbk.has(ch)) gbk.set(ch, (lead << 8) | trail);
    }
  return gbk;
}
