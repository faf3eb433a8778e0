import { Type, type TProperties } from '@sinclair/typebox';
import { Collection, DateString, Decimal, NullableDate, NullableDecimal, Single, Timestamp } from './common.js';
import { MONEY, PERCENT } from '../../datasets/units.js';
import { servedRecord, servedResponse } from './served.js';

/** Company profile, holders, management, text entries and capital flows (docs/fundamentals.md). */
const Money = (d: string) => Decimal(`${d} CNY, 2 decimals.`, MONEY);

export const CompanyProfile = Type.Object(
  {
    instrument_id: Type.String(),
    name: Type.String({ description: 'Current short name (证券简称).' }),
    full_name: Type.String({ description: 'Registered company name (公司全称).' }),
    english_name: Type.String({ description: 'English company name.' }),
    list_date: NullableDate('Listing date.'),
    established_date: DateString('Date of incorporation (成立日期).'),
    legal_representative: Type.String({ description: 'Legal representative (法定代表人): the chairman in office.' }),
    registered_capital: Money('Registered capital (注册资本) = total shares × 1 CNY par,'),
    address: Type.String({ description: 'Registered address.' }),
    province: Type.String({ description: 'Province, autonomous region or municipality of the head office (the region classification).' }),
    website: Type.String({ description: 'Company website.' }),
    employees: Type.Integer({ description: 'Number of employees.' }),
    main_business: Type.String({ description: 'Main business (主营业务).' }),
    introduction: Type.String({ description: 'Company introduction (公司简介).' }),
  },
  { $id: 'CompanyProfile', additionalProperties: false },
);

export const InstitutionalHolding = servedRecord('institutional_holdings');
export const ManagementRecord = servedRecord('management');

export const TextEntry = Type.Object(
  {
    instrument_id: Type.String(),
    seq: Type.Integer({ description: 'Position of the entry in the list, from 1.' }),
    type: Type.String({
      description:
        'Business scope: main_business, product or scope (the licensed business scope). Sector memberships: industry, primary_industry (CSRC category), concept or region.',
    }),
    text: Type.String({ description: 'The entry text (Chinese); for a membership, the classification name.' }),
    classification_id: Type.Union([Type.String(), Type.Null()], {
      description: 'The classification (see /classifications) of a sector membership; null for other entries.',
    }),
  },
  { $id: 'TextEntry', additionalProperties: false },
);

const flowClass = (key: string, label: string): TProperties => ({
  [`${key}_buy`]: Money(`Buy turnover of ${label} orders,`),
  [`${key}_sell`]: Money(`Sell turnover of ${label} orders,`),
  [`${key}_net`]: Money(`Net inflow of ${label} orders = buy − sell,`),
  [`${key}_net_ratio`]: NullableDecimal(`Net inflow of ${label} orders / amount × 100; percent, 2 decimals.`, PERCENT),
});

export const CapitalFlow = Type.Object(
  {
    instrument_id: Type.String(),
    timestamp: Timestamp("The day's close (15:00 market time); from/to/date select on it."),
    trade_date: DateString('Trading day.'),
    amount: Money("The day's traded amount (the daily bar's amount); buy and sell turnover each sum to it over the four classes,"),
    ...flowClass('extra_large', 'extra-large (≥ 500,000 shares or ≥ 1,000,000 CNY)'),
    ...flowClass('large', 'large (200,000–500,000 shares or 300,000–1,000,000 CNY)'),
    ...flowClass('medium', 'medium (40,000–200,000 shares or 50,000–300,000 CNY)'),
    ...flowClass('small', 'small (below 40,000 shares and 50,000 CNY)'),
    ...flowClass('main', 'main-force (extra large + large)'),
  },
  {
    $id: 'CapitalFlow',
    additionalProperties: false,
    description: 'Money flow by order size (Eastmoney classes, by the order behind each side of a trade).',
  },
);

export const CompanyProfileResponse = Single('CompanyProfileResponse', CompanyProfile);
export const InstitutionalHoldingCollectionResponse = servedResponse('institutional_holdings');
export const ManagementHistoryCollectionResponse = servedResponse('management');
export const TextEntryCollectionResponse = Collection('TextEntryCollectionResponse', TextEntry);
export const CapitalFlowCollectionResponse = Collection('CapitalFlowCollectionResponse', CapitalFlow);

export const COMPANY_SCHEMAS = [
  CompanyProfile,
  TextEntry,
  CapitalFlow,
  CompanyProfileResponse,
  TextEntryCollectionResponse,
  CapitalFlowCollectionResponse,
];
