/**
 * The OpenBB Workspace custom-backend files this service serves (`/openbb/widgets.json`,
 * `/openbb/apps.json`), as TypeBox schemas written from OpenBB's reference:
 * https://docs.openbb.co/workspace/developers/json-specs/widgets-json-reference and
 * .../apps-json-reference (OpenBB-finance/openbb-docs, content/workspace/developers/json-specs/,
 * read at commit 28697f6). Only the attributes this service uses are declared, each with the
 * values the reference allows, and nothing else is accepted (additionalProperties: false), so a
 * misspelt attribute, which Workspace would ignore silently, fails test/openbb.test.ts instead.
 */
import { Type, type Static } from '@sinclair/typebox';

const strict = { additionalProperties: false } as const;
const oneOf = <const T extends string>(values: readonly T[]) => Type.Union(values.map((v) => Type.Literal(v)));

/** `type` of a widget (reference: "type", default "table"). */
export const WIDGET_TYPES = [
  'chart',
  'table',
  'table_ssrm',
  'markdown',
  'metric',
  'note',
  'multi_file_viewer',
  'live_grid',
  'newsfeed',
  'advanced-chart',
  'chart-highcharts',
  'chart-vegalite',
  'youtube',
  'iframe',
] as const;

/** AG Grid chart types a table's chart view may open with (reference: "ChartView chart types"). */
export const CHART_TYPES = [
  'column',
  'groupedColumn',
  'stackedColumn',
  'normalizedColumn',
  'bar',
  'groupedBar',
  'stackedBar',
  'normalizedBar',
  'line',
  'scatter',
  'bubble',
  'pie',
  'donut',
  'doughnut',
  'area',
  'stackedArea',
  'normalizedArea',
  'histogram',
  'radarLine',
  'radarArea',
  'nightingale',
  'radialColumn',
  'radialBar',
  'sunburst',
  'rangeBar',
  'rangeArea',
  'boxPlot',
  'treemap',
  'heatmap',
  'waterfall',
] as const;

/** One column of a table widget (reference: data.table.columnsDefs). */
export const ColumnDef = Type.Object(
  {
    field: Type.String({ minLength: 1 }),
    headerName: Type.String({ minLength: 1 }),
    headerTooltip: Type.Optional(Type.String()),
    chartDataType: Type.Optional(oneOf(['category', 'series', 'time', 'excluded'])),
    cellDataType: Type.Optional(oneOf(['text', 'number', 'boolean', 'date', 'dateString', 'object'])),
    formatterFn: Type.Optional(oneOf(['int', 'none', 'percent', 'normalized', 'normalizedPercent', 'dateToYear'])),
    width: Type.Optional(Type.Number({ minimum: 1 })),
    pinned: Type.Optional(oneOf(['left', 'right'])),
    hide: Type.Optional(Type.Boolean()),
  },
  strict,
);
export type ColumnDef = Static<typeof ColumnDef>;

const ParamValue = Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()]);

/** One parameter of a widget, sent as a query parameter of its endpoint (reference: params). */
export const WidgetParam = Type.Object(
  {
    paramName: Type.String({ pattern: '^[a-z_]+$' }),
    type: oneOf(['date', 'text', 'ticker', 'number', 'boolean', 'endpoint', 'form', 'tabs']),
    value: Type.Optional(ParamValue),
    label: Type.String({ minLength: 1 }),
    description: Type.String({ minLength: 1 }),
    show: Type.Optional(Type.Boolean()),
    options: Type.Optional(
      Type.Array(Type.Object({ label: Type.String({ minLength: 1 }), value: Type.Union([Type.String(), Type.Number()]) }, strict), {
        minItems: 1,
      }),
    ),
  },
  strict,
);
export type WidgetParam = Static<typeof WidgetParam>;

/** One widget (reference: "Attributes"). */
export const Widget = Type.Object(
  {
    name: Type.String({ minLength: 1 }),
    description: Type.String({ minLength: 1 }),
    /** Relative to the backend's URL (here `https://host/openbb`). */
    endpoint: Type.String({ pattern: '^[a-z][a-z0-9_/-]*$' }),
    category: Type.Optional(Type.String()),
    subCategory: Type.Optional(Type.String()),
    type: Type.Optional(oneOf(WIDGET_TYPES)),
    runButton: Type.Optional(Type.Boolean()),
    exportable: Type.Optional(Type.Boolean()),
    gridData: Type.Object(
      {
        w: Type.Integer({ minimum: 1, maximum: 40 }),
        h: Type.Integer({ minimum: 1, maximum: 100 }),
        minW: Type.Optional(Type.Integer({ minimum: 1 })),
        minH: Type.Optional(Type.Integer({ minimum: 1 })),
      },
      strict,
    ),
    data: Type.Optional(
      Type.Object(
        {
          table: Type.Object(
            {
              enableCharts: Type.Optional(Type.Boolean()),
              showAll: Type.Optional(Type.Boolean()),
              transpose: Type.Optional(Type.Boolean()),
              chartView: Type.Optional(
                Type.Object(
                  {
                    enabled: Type.Boolean(),
                    chartType: oneOf(CHART_TYPES),
                    // [category, series...] per chart type (reference: cellRangeCols).
                    cellRangeCols: Type.Optional(Type.Record(Type.String(), Type.Array(Type.String(), { minItems: 2 }))),
                  },
                  strict,
                ),
              ),
              columnsDefs: Type.Array(ColumnDef, { minItems: 1 }),
            },
            strict,
          ),
        },
        strict,
      ),
    ),
    params: Type.Optional(Type.Array(WidgetParam)),
    source: Type.Optional(Type.Array(Type.String())),
    /** Milliseconds between refreshes while shown (minimum 1000), or false. */
    refetchInterval: Type.Optional(Type.Union([Type.Integer({ minimum: 1000 }), Type.Literal(false)])),
    /** Milliseconds before the data is stale on the next visit. */
    staleTime: Type.Optional(Type.Integer({ minimum: 0 })),
  },
  strict,
);
export type Widget = Static<typeof Widget>;

/** widgets.json: widgets by id (the id an app's layout names, `i`). */
export const WidgetsJson = Type.Record(Type.String({ pattern: '^[a-z][a-z0-9_]*$' }), Widget);
export type WidgetsJson = Static<typeof WidgetsJson>;

/** apps.json: a list of apps, each tabs of laid-out widgets and groups of shared parameters. */
export const AppsJson = Type.Array(
  Type.Object(
    {
      name: Type.String({ minLength: 1 }),
      description: Type.String(),
      img: Type.String(),
      img_dark: Type.String(),
      img_light: Type.String(),
      allowCustomization: Type.Boolean(),
      tabs: Type.Record(
        Type.String(),
        Type.Object(
          {
            id: Type.String(),
            name: Type.String(),
            layout: Type.Array(
              Type.Object(
                {
                  i: Type.String(),
                  x: Type.Integer({ minimum: 0 }),
                  y: Type.Integer({ minimum: 0 }),
                  w: Type.Integer({ minimum: 1, maximum: 40 }),
                  h: Type.Integer({ minimum: 1, maximum: 100 }),
                  state: Type.Optional(Type.Object({ params: Type.Record(Type.String(), ParamValue) }, strict)),
                },
                strict,
              ),
            ),
          },
          strict,
        ),
      ),
      groups: Type.Array(
        Type.Object(
          {
            name: Type.String(),
            type: oneOf(['param', 'endpointParam']),
            paramName: Type.String(),
            widgetIds: Type.Array(Type.String(), { minItems: 1 }),
            defaultValue: ParamValue,
          },
          strict,
        ),
      ),
      prompts: Type.Optional(Type.Array(Type.String())),
    },
    strict,
  ),
);
export type AppsJson = Static<typeof AppsJson>;
