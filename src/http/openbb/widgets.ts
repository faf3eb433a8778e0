/**
 * The OpenBB Workspace widgets this service offers (docs/clients.md, "OpenBB Workspace"): each
 * one is an API operation shown as a table (the bars as a line chart of the close), declared here once:
 * its parameters, the operation its rows come from, and the record fields it shows. The
 * widgets.json and apps.json Workspace reads are made from these declarations, and so are the
 * adapter routes (adapter.ts) that answer each widget's endpoint.
 */
import type { TObject } from '@sinclair/typebox';
import { Bar } from '../schemas/market-data.js';
import { PoolConstituent } from '../schemas/analytics.js';
import { BalanceSheet, CashFlowStatement, IncomeStatement, Valuation } from '../schemas/fundamentals.js';
import { ADJUSTMENT_IDS } from '../../market/types.js';
import { INTERVAL_IDS } from '../../market/intervals.js';
import { POOL_TYPES } from '../../market/pool-types.js';
import { columnsOf } from './columns.js';
import type { AppsJson, Widget, WidgetParam, WidgetsJson } from './workspace-schema.js';

/** Where a widget's rows come from: an API path (`{param}` is a parameter's value; `{kind}` the instrument's kind's segment) and the record it serves. */
export interface WidgetSource {
  path: string;
  record: TObject;
  /** The record fields shown, in order (default: all but instrument_id). */
  fields?: readonly string[];
}

export interface WidgetDecl {
  /** The widget's id in widgets.json, and its endpoint under /openbb/. */
  id: string;
  name: string;
  description: string;
  subCategory: string;
  params: WidgetParam[];
  source: WidgetSource;
  gridData: Widget['gridData'];
  /** The chart the table opens as: [category column, series columns...]. */
  chart?: { type: 'line'; columns: readonly string[] };
}

const instrumentParam: WidgetParam = {
  paramName: 'instrument_id',
  type: 'text',
  value: '600519.SH',
  label: 'Instrument',
  description: 'Instrument id CODE.MARKET, e.g. 600519.SH (an equity; for bars also an index or a fund).',
};
const from = (value: string | null): WidgetParam => ({
  paramName: 'from',
  type: 'date',
  value,
  label: 'From',
  description: 'First day (inclusive); empty: from the first record.',
});
const to: WidgetParam = {
  paramName: 'to',
  type: 'date',
  value: null,
  label: 'To',
  description: 'Last day (inclusive); empty: to the latest.',
};
const options = (values: readonly string[]) => values.map((v) => ({ label: v, value: v }));
const statement = (id: string, name: string, record: TObject, path: string): WidgetDecl => ({
  id,
  name,
  description: `${name} of an A-share equity, one row per reported period (latest version of each), ascending by report_date; amounts in CNY.`,
  subCategory: 'Fundamentals',
  params: [instrumentParam, from(null), to],
  source: { path: `/api/v1/equities/{instrument_id}/${path}`, record },
  gridData: { w: 40, h: 12 },
});

/** Every widget, in the order widgets.json lists them. */
export const WIDGETS: readonly WidgetDecl[] = [
  {
    id: 'mds_bars',
    name: 'A-share bars',
    description:
      'OHLCV bars of an equity, index or fund at any interval, unadjusted or forward/backward adjusted for corporate actions; shown as a line chart of the close, or as a table.',
    subCategory: 'Prices',
    params: [
      instrumentParam,
      { paramName: 'interval', type: 'text', value: '1d', label: 'Interval', description: 'Bar interval.', options: options(INTERVAL_IDS) },
      {
        paramName: 'adjustment',
        type: 'text',
        value: 'forward',
        label: 'Adjustment',
        description:
          'none: as traded; forward (前复权): past prices scaled to today; backward (后复权): later prices scaled to the first day.',
        options: options(ADJUSTMENT_IDS),
      },
      from('$currentDate-1y'),
      to,
    ],
    source: {
      path: '/api/v1/{kind}/{instrument_id}/bars',
      record: Bar,
      fields: ['timestamp', 'trade_date', 'open', 'high', 'low', 'close', 'volume', 'amount'],
    },
    gridData: { w: 40, h: 14 },
    chart: { type: 'line', columns: ['timestamp', 'close'] },
  },
  {
    id: 'mds_pool',
    name: 'A-share stock pool of a day',
    description:
      'The equities of a stock pool on a trading day: limit-up (涨停), limit-down (跌停), broken limit-up (炸板), previous day limit-up, strong, sub-new; with the day’s close, change, limits and limit timing.',
    subCategory: 'Market',
    params: [
      {
        paramName: 'pool_type',
        type: 'text',
        value: 'limit_up',
        label: 'Pool',
        description: 'Which pool.',
        options: POOL_TYPES.map((t) => ({ label: `${t.id} ${t.name}`, value: t.id })),
      },
      { paramName: 'date', type: 'date', value: null, label: 'Date', description: 'Trading day; empty: the latest stored.' },
    ],
    source: { path: '/api/v1/equities/pools/{pool_type}', record: PoolConstituent, fields: Object.keys(PoolConstituent.properties) },
    gridData: { w: 40, h: 12 },
  },
  {
    id: 'mds_valuations',
    name: 'A-share valuations',
    description:
      'Daily valuation of an equity as known at each close (point in time): market values, turnover, PE, PE TTM, PB, PS TTM, dividend yield TTM.',
    subCategory: 'Fundamentals',
    params: [instrumentParam, from('$currentDate-1y'), to],
    source: { path: '/api/v1/equities/{instrument_id}/valuations', record: Valuation },
    gridData: { w: 40, h: 12 },
  },
  statement('mds_income_statements', 'Income statements', IncomeStatement, 'income-statements'),
  statement('mds_balance_sheets', 'Balance sheets', BalanceSheet, 'balance-sheets'),
  statement('mds_cash_flow_statements', 'Cash-flow statements', CashFlowStatement, 'cash-flow-statements'),
];

/** The fields a widget shows, in order. */
export const shownFields = (d: WidgetDecl): readonly string[] =>
  d.source.fields ?? Object.keys(d.source.record.properties).filter((f) => f !== 'instrument_id');

/** widgets.json (workspace-schema.ts, WidgetsJson). */
export function widgetsJson(): WidgetsJson {
  return Object.fromEntries(
    WIDGETS.map((d): [string, Widget] => [
      d.id,
      {
        name: d.name,
        description: d.description,
        endpoint: d.id,
        category: 'A-share market data',
        subCategory: d.subCategory,
        type: 'table',
        gridData: d.gridData,
        data: {
          table: {
            showAll: true,
            ...(d.chart
              ? {
                  enableCharts: true,
                  chartView: { enabled: true, chartType: d.chart.type, cellRangeCols: { [d.chart.type]: [...d.chart.columns] } },
                }
              : {}),
            columnsDefs: columnsOf(d.source.record, shownFields(d)),
          },
        },
        params: d.params,
        source: ['market-data-service'],
      },
    ]),
  );
}

/** apps.json: one app laying the widgets out, its instrument shared by every widget that takes one. */
export function appsJson(): AppsJson {
  let y = 0;
  const layout = WIDGETS.map((d) => {
    const at = { i: d.id, x: 0, y, w: d.gridData.w, h: d.gridData.h };
    y += d.gridData.h;
    return at;
  });
  return [
    {
      name: 'A-share market data',
      description: 'Bars with adjustment, the stock pools of a day, valuations and the three statements, from this market-data-service.',
      img: '',
      img_dark: '',
      img_light: '',
      allowCustomization: true,
      tabs: { overview: { id: 'overview', name: 'Overview', layout } },
      groups: [
        {
          name: 'Instrument',
          type: 'param',
          paramName: 'instrument_id',
          widgetIds: WIDGETS.filter((d) => d.params.some((p) => p.paramName === 'instrument_id')).map((d) => d.id),
          defaultValue: instrumentParam.value!,
        },
      ],
    },
  ];
}
