import { Type, type TProperties } from '@sinclair/typebox';
import { Collection, DateString, Decimal, NullableDate, NullableDecimal, Single, Timestamp } from './common.js';

/** Company profile, holders, management, text entries and capital flows (docs/fundamentals.md). */
const Money = (d: string) => Decimal(`${d} CNY, 2 decimals.`);

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

export const InstitutionalHolding = Type.Object(
  {
    instrument_id: Type.String(),
    report_date: DateString('End of the reporting period the holding was disclosed for.'),
    announce_date: DateString('Date the periodic report was published.'),
    rank: Type.Integer({ description: 'Rank among the institutional holders of the period by shares (1 = largest).' }),
    holder_name: Type.String({ description: 'Holder (fund, account or institution) as disclosed.' }),
    holder_type: Type.Unsafe<string>({
      type: 'string',
      enum: ['fund', 'qfii', 'social_security', 'insurance', 'broker', 'trust', 'other'],
      description:
        'fund (public securities investment fund), qfii (qualified foreign investor), social_security (national social security and pension funds), insurance, broker (securities company), trust, other (e.g. Stock Connect nominee, private funds).',
    }),
    shares: Type.Integer({ description: 'Shares held at report_date.' }),
    percent_of_float: Decimal('shares / float shares at report_date × 100; percent, 2 decimals.'),
    change: Type.Union([Type.Integer(), Type.Null()], {
      description:
        'Shares held minus shares held at the previous report_date (bonus and transfer shares included); null when the holder was not listed then.',
    }),
  },
  { $id: 'InstitutionalHolding', additionalProperties: false },
);

export const ManagementRecord = Type.Object(
  {
    instrument_id: Type.String(),
    name: Type.String({ description: 'Person name.' }),
    title: Type.Unsafe<string>({
      type: 'string',
      enum: [
        'chairman',
        'vice_chairman',
        'general_manager',
        'deputy_general_manager',
        'chief_financial_officer',
        'board_secretary',
        'director',
        'independent_director',
        'supervisor_chairman',
        'supervisor',
      ],
      description:
        'Position: 董事长 chairman, 副董事长 vice_chairman, 总经理 general_manager, 副总经理 deputy_general_manager, 财务总监 chief_financial_officer, 董事会秘书 board_secretary, 董事 director, 独立董事 independent_director, 监事会主席 supervisor_chairman, 监事 supervisor.',
    }),
    gender: Type.Unsafe<string>({ type: 'string', enum: ['male', 'female'] }),
    birth_year: Type.Integer({ description: 'Year of birth.' }),
    education: Type.Unsafe<string>({
      type: 'string',
      enum: ['doctorate', 'master', 'bachelor', 'associate', 'secondary'],
      description: 'Highest education.',
    }),
    start_date: DateString('First day in the position.'),
    end_date: NullableDate('Last day in the position; null while in office.'),
  },
  { $id: 'ManagementRecord', additionalProperties: false },
);

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
  [`${key}_net_ratio`]: NullableDecimal(`Net inflow of ${label} orders / amount × 100; percent, 2 decimals.`),
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
export const InstitutionalHoldingCollectionResponse = Collection('InstitutionalHoldingCollectionResponse', InstitutionalHolding);
export const ManagementHistoryCollectionResponse = Collection('ManagementHistoryCollectionResponse', ManagementRecord);
export const TextEntryCollectionResponse = Collection('TextEntryCollectionResponse', TextEntry);
export const CapitalFlowCollectionResponse = Collection('CapitalFlowCollectionResponse', CapitalFlow);

export const COMPANY_SCHEMAS = [
  CompanyProfile,
  InstitutionalHolding,
  ManagementRecord,
  TextEntry,
  CapitalFlow,
  CompanyProfileResponse,
  InstitutionalHoldingCollectionResponse,
  ManagementHistoryCollectionResponse,
  TextEntryCollectionResponse,
  CapitalFlowCollectionResponse,
];
