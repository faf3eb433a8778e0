/**
 * Fictional people and institutions for the demo: Chinese personal names, and holder names in
 * the styles that A-share shareholder lists use for each kind of institution.
 */
import type { Rng } from '../random.js';

const SURNAMES = [
  '王',
  '李',
  '张',
  '刘',
  '陈',
  '杨',
  '黄',
  '赵',
  '吴',
  '周',
  '徐',
  '孙',
  '马',
  '朱',
  '胡',
  '郭',
  '何',
  '高',
  '林',
  '罗',
  '郑',
  '梁',
  '谢',
  '宋',
  '唐',
  '许',
  '韩',
  '冯',
  '邓',
  '曹',
  '彭',
  '曾',
  '肖',
  '田',
  '董',
  '潘',
];
const GIVEN_M = [
  '伟',
  '强',
  '磊',
  '军',
  '勇',
  '杰',
  '涛',
  '斌',
  '超',
  '明',
  '刚',
  '平',
  '辉',
  '鹏',
  '华',
  '飞',
  '鑫',
  '波',
  '宁',
  '建',
  '国',
  '志',
  '文',
  '海',
  '东',
  '晨',
  '亮',
  '俊',
  '峰',
  '浩',
];
const GIVEN_F = [
  '芳',
  '娜',
  '敏',
  '静',
  '丽',
  '艳',
  '娟',
  '霞',
  '秀',
  '玲',
  '婷',
  '雪',
  '琳',
  '颖',
  '慧',
  '洁',
  '萍',
  '红',
  '燕',
  '倩',
  '晓',
  '雯',
  '欣',
  '悦',
  '佳',
];

export type Gender = 'male' | 'female';

export function personName(r: Rng, gender: Gender): string {
  const pool = gender === 'male' ? GIVEN_M : GIVEN_F;
  const given = r.chance(0.7) ? r.pick(pool) + r.pick(pool) : r.pick(pool);
  return r.pick(SURNAMES) + given;
}

const HOUSES = [
  '远航',
  '恒润',
  '瑞丰',
  '博泰',
  '鼎诚',
  '汇川',
  '嘉远',
  '泓德',
  '安盈',
  '华融',
  '天弘',
  '永信',
  '兴元',
  '明达',
  '睿远',
  '长盛',
  '景泰',
  '中和',
  '国晟',
  '信诚',
];
const THEMES = [
  '成长',
  '价值',
  '精选',
  '优势',
  '创新',
  '消费升级',
  '科技先锋',
  '稳健',
  '红利',
  '均衡',
  '新兴产业',
  '核心资产',
  '行业轮动',
  '先进制造',
  '医疗健康',
  '量化',
];
const FOREIGN = [
  ['NORTHERN', 'PACIFIC', 'ATLAS', 'MERIDIAN', 'SUMMIT', 'HARBOR', 'CRESTVIEW', 'LAKESIDE'],
  ['CAPITAL', 'ASSET', 'INVESTMENT', 'GLOBAL'],
  ['MANAGEMENT LTD', 'PARTNERS LLC', 'ADVISORS PLC', 'FUND'],
];
const NSSF = [
  '一零一',
  '一零二',
  '一零三',
  '一零四',
  '一零六',
  '一零九',
  '一一一',
  '一一三',
  '一一四',
  '一一五',
  '一一七',
  '一一八',
  '四零一',
  '四零二',
  '四一三',
  '四一八',
  '五零二',
  '五零三',
  '六零二',
];
const CN_DIGITS = ['零', '一', '二', '三', '四', '五', '六', '七', '八', '九'];

export const HOLDER_TYPES = ['fund', 'qfii', 'social_security', 'insurance', 'broker', 'trust', 'other'] as const;
export type HolderType = (typeof HOLDER_TYPES)[number];
const HOLDER_WEIGHTS = [45, 8, 8, 8, 6, 5, 20];

export function holderType(r: Rng): HolderType {
  return HOLDER_TYPES[r.weighted(HOLDER_WEIGHTS)];
}

/** A holder name of `type`, e.g. 远航成长混合型证券投资基金, 全国社保基金一零三组合. */
export function holderName(r: Rng, type: HolderType): string {
  const house = r.pick(HOUSES);
  switch (type) {
    case 'fund':
      return `${house}${r.pick(THEMES)}${r.pick(['混合型', '股票型', '灵活配置混合型'])}证券投资基金`;
    case 'qfii':
      return FOREIGN.map((part) => r.pick(part)).join(' ');
    case 'social_security':
      return r.chance(0.75) ? `全国社保基金${r.pick(NSSF)}组合` : `基本养老保险基金${r.pick(NSSF.slice(-4))}组合`;
    case 'insurance':
      return `${house}人寿保险股份有限公司-${r.pick(['传统', '分红', '万能'])}-${r.pick(['普通保险产品', '个人分红', '个险万能'])}`;
    case 'broker':
      return `${house}证券股份有限公司`;
    case 'trust':
      return `${house}国际信托有限公司-${r.pick(HOUSES)}${CN_DIGITS[r.int(1, 9)]}号集合资金信托计划`;
    default:
      return r.chance(0.3) ? '香港中央结算有限公司' : `${house}投资管理有限公司-${r.pick(HOUSES)}${r.pick(THEMES)}私募证券投资基金`;
  }
}

export const EDUCATIONS = ['doctorate', 'master', 'bachelor', 'associate', 'secondary'] as const;

export function education(r: Rng): (typeof EDUCATIONS)[number] {
  return EDUCATIONS[r.weighted([12, 40, 35, 10, 3])];
}
