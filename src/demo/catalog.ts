/**
 * Classification catalogue of the demo market: Shenwan-style industries (申万一级, 2021 edition),
 * concepts, provinces and the CSRC industry categories A–S (上市公司行业分类). Each industry
 * names its CSRC category, the company-name suffixes it uses and its concept affinities.
 */
import type { BoardId } from '../market/types.js';

export interface Industry {
  key: string;
  name: string;
  csrc: string;
  /** [Chinese suffix, English word] pairs for company names. */
  suffixes: [string, string][];
  /** Relative frequency per board: main, chinext, star, bse. */
  weight: Record<BoardId, number>;
  concepts: string[];
}

const w = (main: number, chinext: number, star: number, bse: number): Record<BoardId, number> => ({ main, chinext, star, bse });

export const INDUSTRIES: readonly Industry[] = [
  {
    key: 'banks',
    name: '银行',
    csrc: 'J',
    suffixes: [['银行', 'Bank']],
    weight: w(4, 0, 0, 0),
    concepts: ['high_dividend', 'state_owned', 'digital_currency'],
  },
  {
    key: 'non_bank_finance',
    name: '非银金融',
    csrc: 'J',
    suffixes: [
      ['证券', 'Securities'],
      ['保险', 'Insurance'],
      ['信托', 'Trust'],
    ],
    weight: w(4, 0, 0, 0),
    concepts: ['digital_currency', 'state_owned'],
  },
  {
    key: 'real_estate',
    name: '房地产',
    csrc: 'K',
    suffixes: [
      ['地产', 'Real Estate'],
      ['置业', 'Properties'],
    ],
    weight: w(3, 0, 0, 0),
    concepts: ['state_owned'],
  },
  {
    key: 'food_beverage',
    name: '食品饮料',
    csrc: 'C',
    suffixes: [
      ['酒业', 'Liquor'],
      ['食品', 'Foods'],
      ['乳业', 'Dairy'],
    ],
    weight: w(4, 2, 0, 2),
    concepts: ['high_dividend'],
  },
  {
    key: 'pharma',
    name: '医药生物',
    csrc: 'C',
    suffixes: [
      ['医药', 'Pharmaceutical'],
      ['生物', 'Biotech'],
      ['药业', 'Pharma'],
    ],
    weight: w(5, 6, 6, 3),
    concepts: ['innovative_drugs', 'ai'],
  },
  {
    key: 'electronics',
    name: '电子',
    csrc: 'C',
    suffixes: [
      ['电子', 'Electronics'],
      ['微电', 'Microelectronics'],
      ['光电', 'Optoelectronics'],
    ],
    weight: w(4, 6, 8, 3),
    concepts: ['chips', 'consumer_electronics', 'ai'],
  },
  {
    key: 'computers',
    name: '计算机',
    csrc: 'I',
    suffixes: [
      ['软件', 'Software'],
      ['信息', 'Information'],
      ['科技', 'Technology'],
    ],
    weight: w(3, 6, 5, 3),
    concepts: ['ai', 'cloud_computing', 'big_data', 'digital_currency'],
  },
  {
    key: 'telecom',
    name: '通信',
    csrc: 'I',
    suffixes: [
      ['通信', 'Communications'],
      ['通讯', 'Telecom'],
    ],
    weight: w(2, 3, 2, 1),
    concepts: ['5g', 'datacenter', 'ai'],
  },
  {
    key: 'media',
    name: '传媒',
    csrc: 'R',
    suffixes: [
      ['传媒', 'Media'],
      ['文化', 'Culture'],
    ],
    weight: w(2, 3, 0, 1),
    concepts: ['ai', 'big_data'],
  },
  {
    key: 'power_equipment',
    name: '电力设备',
    csrc: 'C',
    suffixes: [
      ['电气', 'Electric'],
      ['能源', 'Energy'],
      ['新能', 'New Energy'],
    ],
    weight: w(4, 5, 4, 3),
    concepts: ['photovoltaic', 'lithium_battery', 'hydrogen', 'new_energy_vehicles'],
  },
  {
    key: 'machinery',
    name: '机械设备',
    csrc: 'C',
    suffixes: [
      ['机械', 'Machinery'],
      ['装备', 'Equipment'],
      ['精工', 'Precision'],
    ],
    weight: w(4, 6, 5, 5),
    concepts: ['robotics', 'low_altitude'],
  },
  {
    key: 'autos',
    name: '汽车',
    csrc: 'C',
    suffixes: [
      ['汽车', 'Automobile'],
      ['汽配', 'Auto Parts'],
    ],
    weight: w(3, 3, 1, 2),
    concepts: ['new_energy_vehicles', 'robotics'],
  },
  {
    key: 'home_appliances',
    name: '家用电器',
    csrc: 'C',
    suffixes: [['电器', 'Appliances']],
    weight: w(2, 1, 0, 1),
    concepts: ['consumer_electronics', 'high_dividend'],
  },
  {
    key: 'chemicals',
    name: '基础化工',
    csrc: 'C',
    suffixes: [
      ['化工', 'Chemical'],
      ['新材', 'New Materials'],
    ],
    weight: w(5, 4, 2, 4),
    concepts: ['lithium_battery', 'hydrogen'],
  },
  {
    key: 'nonferrous_metals',
    name: '有色金属',
    csrc: 'C',
    suffixes: [
      ['矿业', 'Mining'],
      ['铝业', 'Aluminium'],
      ['锂业', 'Lithium'],
    ],
    weight: w(3, 1, 1, 1),
    concepts: ['lithium_battery', 'new_energy_vehicles'],
  },
  {
    key: 'steel',
    name: '钢铁',
    csrc: 'C',
    suffixes: [
      ['钢铁', 'Steel'],
      ['特钢', 'Special Steel'],
    ],
    weight: w(2, 0, 0, 0),
    concepts: ['state_owned', 'high_dividend'],
  },
  {
    key: 'coal',
    name: '煤炭',
    csrc: 'B',
    suffixes: [
      ['煤业', 'Coal'],
      ['能源', 'Energy'],
    ],
    weight: w(2, 0, 0, 0),
    concepts: ['high_dividend', 'state_owned'],
  },
  {
    key: 'petrochemicals',
    name: '石油石化',
    csrc: 'B',
    suffixes: [
      ['石化', 'Petrochemical'],
      ['油气', 'Oil & Gas'],
    ],
    weight: w(2, 0, 0, 0),
    concepts: ['state_owned', 'high_dividend'],
  },
  {
    key: 'construction',
    name: '建筑装饰',
    csrc: 'E',
    suffixes: [
      ['建工', 'Construction'],
      ['建设', 'Engineering'],
    ],
    weight: w(3, 1, 0, 1),
    concepts: ['state_owned'],
  },
  {
    key: 'building_materials',
    name: '建筑材料',
    csrc: 'C',
    suffixes: [
      ['建材', 'Building Materials'],
      ['水泥', 'Cement'],
    ],
    weight: w(2, 1, 0, 1),
    concepts: [],
  },
  {
    key: 'transportation',
    name: '交通运输',
    csrc: 'G',
    suffixes: [
      ['物流', 'Logistics'],
      ['航运', 'Shipping'],
      ['港口', 'Port'],
    ],
    weight: w(3, 1, 0, 1),
    concepts: ['low_altitude', 'state_owned'],
  },
  {
    key: 'utilities',
    name: '公用事业',
    csrc: 'D',
    suffixes: [
      ['电力', 'Power'],
      ['燃气', 'Gas'],
      ['水务', 'Water'],
    ],
    weight: w(3, 1, 0, 1),
    concepts: ['high_dividend', 'hydrogen'],
  },
  {
    key: 'agriculture',
    name: '农林牧渔',
    csrc: 'A',
    suffixes: [
      ['农业', 'Agriculture'],
      ['牧业', 'Husbandry'],
      ['种业', 'Seeds'],
    ],
    weight: w(2, 1, 0, 1),
    concepts: [],
  },
  {
    key: 'retail',
    name: '商贸零售',
    csrc: 'F',
    suffixes: [
      ['商贸', 'Trading'],
      ['百货', 'Department Store'],
    ],
    weight: w(2, 1, 0, 1),
    concepts: ['digital_currency'],
  },
  {
    key: 'textiles_apparel',
    name: '纺织服饰',
    csrc: 'C',
    suffixes: [
      ['纺织', 'Textile'],
      ['服饰', 'Apparel'],
    ],
    weight: w(2, 1, 0, 1),
    concepts: [],
  },
  {
    key: 'light_industry',
    name: '轻工制造',
    csrc: 'C',
    suffixes: [
      ['纸业', 'Paper'],
      ['家居', 'Home Furnishing'],
    ],
    weight: w(2, 2, 0, 2),
    concepts: [],
  },
  {
    key: 'defense',
    name: '国防军工',
    csrc: 'C',
    suffixes: [
      ['航天', 'Aerospace'],
      ['航空', 'Aviation'],
    ],
    weight: w(2, 2, 3, 2),
    concepts: ['low_altitude', 'state_owned'],
  },
  { key: 'beauty_care', name: '美容护理', csrc: 'C', suffixes: [['美妆', 'Cosmetics']], weight: w(1, 1, 0, 1), concepts: [] },
  {
    key: 'social_services',
    name: '社会服务',
    csrc: 'H',
    suffixes: [
      ['旅游', 'Tourism'],
      ['酒店', 'Hotels'],
    ],
    weight: w(1, 1, 0, 1),
    concepts: [],
  },
  {
    key: 'environmental',
    name: '环保',
    csrc: 'N',
    suffixes: [
      ['环保', 'Environmental'],
      ['环境', 'Environment'],
    ],
    weight: w(2, 2, 1, 2),
    concepts: ['hydrogen'],
  },
  {
    key: 'conglomerates',
    name: '综合',
    csrc: 'S',
    suffixes: [
      ['股份', 'Holdings'],
      ['集团', 'Group'],
    ],
    weight: w(1, 0, 0, 0),
    concepts: [],
  },
];

export const CONCEPTS: readonly [key: string, name: string][] = [
  ['ai', '人工智能'],
  ['chips', '芯片'],
  ['new_energy_vehicles', '新能源汽车'],
  ['photovoltaic', '光伏'],
  ['lithium_battery', '锂电池'],
  ['robotics', '机器人'],
  ['cloud_computing', '云计算'],
  ['big_data', '大数据'],
  ['5g', '5G'],
  ['innovative_drugs', '创新药'],
  ['state_owned', '国企改革'],
  ['low_altitude', '低空经济'],
  ['datacenter', '数据中心'],
  ['hydrogen', '氢能源'],
  ['consumer_electronics', '消费电子'],
  ['high_dividend', '高股息'],
  ['digital_currency', '数字货币'],
];

/** Provinces with a weight roughly proportional to their number of listed companies. */
export const REGIONS: readonly [key: string, name: string, weight: number][] = [
  ['beijing', '北京', 9],
  ['tianjin', '天津', 2],
  ['hebei', '河北', 2],
  ['shanxi', '山西', 1],
  ['inner_mongolia', '内蒙古', 1],
  ['liaoning', '辽宁', 2],
  ['jilin', '吉林', 1],
  ['heilongjiang', '黑龙江', 1],
  ['shanghai', '上海', 8],
  ['jiangsu', '江苏', 13],
  ['zhejiang', '浙江', 13],
  ['anhui', '安徽', 4],
  ['fujian', '福建', 4],
  ['jiangxi', '江西', 2],
  ['shandong', '山东', 6],
  ['henan', '河南', 3],
  ['hubei', '湖北', 3],
  ['hunan', '湖南', 3],
  ['guangdong', '广东', 17],
  ['guangxi', '广西', 1],
  ['hainan', '海南', 1],
  ['chongqing', '重庆', 2],
  ['sichuan', '四川', 4],
  ['guizhou', '贵州', 1],
  ['yunnan', '云南', 1],
  ['tibet', '西藏', 1],
  ['shaanxi', '陕西', 2],
  ['gansu', '甘肃', 1],
  ['qinghai', '青海', 1],
  ['ningxia', '宁夏', 1],
  ['xinjiang', '新疆', 2],
];

/** CSRC industry categories (证监会上市公司行业分类 门类). */
export const CSRC: readonly [letter: string, name: string][] = [
  ['A', '农、林、牧、渔业'],
  ['B', '采矿业'],
  ['C', '制造业'],
  ['D', '电力、热力、燃气及水生产和供应业'],
  ['E', '建筑业'],
  ['F', '批发和零售业'],
  ['G', '交通运输、仓储和邮政业'],
  ['H', '住宿和餐饮业'],
  ['I', '信息传输、软件和信息技术服务业'],
  ['J', '金融业'],
  ['K', '房地产业'],
  ['L', '租赁和商务服务业'],
  ['M', '科学研究和技术服务业'],
  ['N', '水利、环境和公共设施管理业'],
  ['O', '居民服务、修理和其他服务业'],
  ['P', '教育'],
  ['Q', '卫生和社会工作'],
  ['R', '文化、体育和娱乐业'],
  ['S', '综合'],
];

/** Rows of the `classifications` table: [id, name, type], sorted by id. */
export function classificationRows(): [string, string, string][] {
  const rows: [string, string, string][] = [
    ...INDUSTRIES.map((i): [string, string, string] => [`industry.${i.key}`, i.name, 'industry']),
    ...CONCEPTS.map(([k, n]): [string, string, string] => [`concept.${k}`, n, 'concept']),
    ...REGIONS.map(([k, n]): [string, string, string] => [`region.${k}`, n, 'region']),
    ...CSRC.map(([l, n]): [string, string, string] => [`csrc.${l}`, n, 'primary_industry']),
  ];
  return rows.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}
