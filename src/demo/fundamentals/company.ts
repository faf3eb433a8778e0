/**
 * Company profile and business-scope entries. Consistent with the other data: registered
 * capital = today's total shares × 1 CNY par, the legal representative is the chairman in
 * office, the province is the company's region classification, employees follow revenue.
 */
import type { Rng } from '../random.js';
import type { BusinessScopeTable, CompanyProfileTable } from '../../store/schema-fundamentals.js';
import { formatDate } from '../../lib/time.js';
import type { EquityIn } from './inputs.js';
import type { Archetype } from './archetypes.js';
import { BOARDS, BUSINESS, DISTRICTS, EXCHANGES, PLACES, ROADS } from './texts.js';
import { addDays, clamp } from './util.js';

export type ProfileRow = Omit<CompanyProfileTable, 'inst'>;
export type ScopeRow = Omit<BusinessScopeTable, 'inst'>;

const BANK_SCOPE =
  '吸收公众存款；发放短期、中期和长期贷款；办理国内外结算；办理票据承兑与贴现；发行金融债券；' +
  '买卖政府债券、金融债券；从事同业拆借；提供保管箱服务；经国务院银行业监督管理机构批准的其他业务。';

const cnDate = (d: number) => `${Math.floor(d / 10000)}年${Math.floor(d / 100) % 100}月${d % 100}日`;

export interface CompanyInput {
  /** Revenue of the latest reported year, annualised from the latest report when no annual exists (fen). */
  annualRevenue: number;
  /** Latest reported period end. */
  asOf: number;
  arch: Archetype;
  chairman: string;
}

export function companyRows(r: Rng, e: EquityIn, c: CompanyInput): { profile: ProfileRow; scope: ScopeRow[] } {
  const short = e.name.replace(/^\*?ST/, '');
  const industry = e.classifications.find((x) => x.type === 'industry')?.id.replace(/^industry\./, '') ?? 'conglomerates';
  const regionCls = e.classifications.find((x) => x.type === 'region');
  const [province, city] = PLACES[regionCls?.id.replace(/^region\./, '') ?? ''] ?? ['北京市', '北京市'];
  const [phrase, products] = BUSINESS[industry] ?? BUSINESS.conglomerates;
  const mine = r.shuffle(products).slice(0, r.int(2, Math.min(4, products.length)));
  const place = province === city ? city : province + city;
  const address = `${place}${r.pick(DISTRICTS)}${r.pick(ROADS)}路${r.int(1, 999)}号`;
  const established = addDays(e.listDate, -r.int(3 * 365, 18 * 365));
  const employees = Math.round(clamp(c.annualRevenue / 100 / (c.arch.revPerEmployee * r.uniform(0.6, 1.5)), 80, 400_000));
  const mainBusiness = `公司主要从事${phrase}，主要产品和服务包括${mine.join('、')}。`;
  const board = BOARDS[e.board] ?? '';
  const slug = e.nameEn
    .replace(/^\*?ST /, '')
    .split(' ')[0]
    .toLowerCase()
    .replace(/[^a-z]/g, '');
  const profile: ProfileRow = {
    full_name: `${short}股份有限公司`,
    english_name: `${e.nameEn.replace(/^\*?ST /, '')} Co., Ltd.`,
    established_date: established,
    legal_representative: c.chairman,
    registered_capital: e.totalShares * 100,
    address,
    province: regionCls?.name ?? province,
    website: `https://www.${slug || e.code}.com.cn`,
    employees,
    main_business: mainBusiness,
    introduction:
      `${short}股份有限公司成立于${cnDate(established)}，于${cnDate(e.listDate)}在${EXCHANGES[e.market] ?? ''}${board}上市，` +
      `股票代码${e.code}，总部位于${place}。${mainBusiness}截至${formatDate(c.asOf)}，公司在职员工${employees}人。`,
  };
  const scopeText =
    industry === 'banks'
      ? BANK_SCOPE
      : `一般项目：${mine.map((p) => `${p}的研发、生产和销售`).join('；')}；技术服务、技术开发、技术咨询、技术转让；` +
        '货物进出口；技术进出口。（除依法须经批准的项目外，凭营业执照依法自主开展经营活动）';
  const scope: ScopeRow[] = [
    { seq: 1, type: 'main_business', text: mainBusiness },
    ...mine.map((p, i) => ({ seq: i + 2, type: 'product' as const, text: p })),
    { seq: mine.length + 2, type: 'scope', text: scopeText },
  ];
  return { profile, scope };
}
