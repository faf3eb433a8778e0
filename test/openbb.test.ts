/**
 * The OpenBB Workspace backend at /openbb (docs/clients.md): widgets.json and apps.json valid
 * against the format of OpenBB's reference (src/http/openbb/workspace-schema.ts), and every
 * widget's endpoint answering flat rows whose keys are its columns, each value the API's own
 * (a decimal as the number of its digits), with the API's errors; and CORS for Workspace's origin.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Value } from '@sinclair/typebox/value';
import { get, harness, STORES, walk, type Harness } from './helpers.js';
import { buildApp } from '../src/app/app.js';
import { ConfigError, loadConfig } from '../src/app/config.js';
import { AppsJson, WidgetsJson, type Widget } from '../src/http/openbb/workspace-schema.js';

/** `12.30` -> `12.3`, `-0.50` -> `-0.5`, `7.00` -> `7`: a decimal string as JSON writes its number. */
const asNumberText = (s: string) => (s.includes('.') ? s.replace(/0+$/, '').replace(/\.$/, '') : s).replace(/^-0$/, '0');

describe.each(STORES)('the OpenBB Workspace backend on $name', ({ url }) => {
  let h: Harness;
  let widgets: Record<string, Widget>;
  beforeAll(async () => {
    h = await harness(await url());
    widgets = (await get(h, '/openbb/widgets.json', {})).body;
  });
  afterAll(async () => {
    await h?.close();
  });

  /** GETs a widget's endpoint and the API operation it names, and checks the one against the other, row by row. */
  async function expectWidgetRows(id: string, query: string, api: string): Promise<any[]> {
    const w = widgets[id];
    const fields = w.data!.table.columnsDefs.map((c) => c.field);
    const res = await get(h, `/openbb/${w.endpoint}?${query}`);
    expect(res.status, res.payload).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const source = await walk(h, api, 1000);
    expect(res.body).toHaveLength(source.length);
    res.body.forEach((row: Record<string, unknown>, i: number) => {
      expect(Object.keys(row), `${id} row ${i}`).toEqual(fields);
      for (const c of w.data!.table.columnsDefs) {
        const [mine, theirs] = [row[c.field], source[i][c.field]];
        if (c.cellDataType === 'number' && typeof theirs === 'string') {
          expect(typeof mine, `${id} ${c.field}`).toBe('number');
          expect(String(mine), `${id} ${c.field} row ${i}`).toBe(asNumberText(theirs));
        } else expect(mine, `${id} ${c.field} row ${i}`).toEqual(theirs);
      }
    });
    return res.body;
  }

  it('serves widgets.json and apps.json, public, valid against the documented widget format', async () => {
    const res = await get(h, '/openbb/widgets.json', {});
    expect(res.status).toBe(200);
    expect(Value.Check(WidgetsJson, res.body), JSON.stringify([...Value.Errors(WidgetsJson, res.body)].slice(0, 3))).toBe(true);
    expect(Object.keys(res.body)).toEqual([
      'mds_bars',
      'mds_pool',
      'mds_valuations',
      'mds_income_statements',
      'mds_balance_sheets',
      'mds_cash_flow_statements',
    ]);
    for (const [id, w] of Object.entries(widgets)) {
      expect(h.app.hasRoute({ method: 'GET', url: `/openbb/${w.endpoint}` }), id).toBe(true);
      // A chart names columns of its table.
      const cols = w.data!.table.columnsDefs.map((c) => c.field);
      for (const named of Object.values(w.data!.table.chartView?.cellRangeCols ?? {}).flat()) expect(cols).toContain(named);
    }
    expect(widgets.mds_bars.params!.find((p) => p.paramName === 'adjustment')!.options!.map((o) => o.value)).toEqual([
      'none',
      'forward',
      'backward',
    ]);
    const apps = await get(h, '/openbb/apps.json', {});
    expect(Value.Check(AppsJson, apps.body), JSON.stringify([...Value.Errors(AppsJson, apps.body)].slice(0, 3))).toBe(true);
    const laid = Object.values(apps.body[0].tabs as Record<string, { layout: { i: string }[] }>).flatMap((t) => t.layout.map((l) => l.i));
    expect(laid.sort()).toEqual(Object.keys(widgets).sort());
    for (const g of apps.body[0].groups)
      for (const id of g.widgetIds) expect(widgets[id].params!.map((p) => p.paramName)).toContain(g.paramName);
  });

  it('answers the bars widget with the API’s bars, unadjusted and adjusted, of equities and indices alike', async () => {
    const [equity] = await walk(h, '/api/v1/equities', 1000);
    for (const adjustment of ['none', 'forward', 'backward']) {
      const q = `instrument_id=${equity.id}&interval=1d&adjustment=${adjustment}&from=2025-03-01&to=2025-09-30`;
      const rows = await expectWidgetRows('mds_bars', q, `/api/v1/equities/${equity.id}/bars?${q.replace(/^instrument_id=[^&]+&/, '')}`);
      expect(rows.length).toBeGreaterThan(100);
    }
    const [index] = await walk(h, '/api/v1/indices', 1000);
    const q = 'interval=1w&adjustment=none&from=2025-01-01&to=';
    const rows = await expectWidgetRows('mds_bars', `instrument_id=${index.id}&${q}`, `/api/v1/indices/${index.id}/bars?interval=1w`);
    expect(rows.length).toBeGreaterThan(30);
  });

  it('answers the pool, valuation and statement widgets with the API’s records', async () => {
    // The day of the most limit-ups on the Shanghai exchange, and the latest day (no date given).
    const breadth = await walk(h, '/api/v1/markets/SH/breadth', 1000);
    const day = breadth.reduce((a: any, b: any) => (b.limit_up > a.limit_up ? b : a)).trade_date;
    expect(
      (await expectWidgetRows('mds_pool', `pool_type=limit_up&date=${day}`, `/api/v1/equities/pools/limit_up?date=${day}`)).length,
    ).toBeGreaterThan(0);
    await expectWidgetRows('mds_pool', 'pool_type=sub_new&date=', '/api/v1/equities/pools/sub_new');
    const equities = await walk(h, '/api/v1/equities', 1000);
    let statements = 0;
    for (const e of equities.slice(0, 6)) {
      await expectWidgetRows(
        'mds_valuations',
        `instrument_id=${e.id}&from=2025-06-01&to=`,
        `/api/v1/equities/${e.id}/valuations?from=2025-06-01`,
      );
      for (const [id, path] of [
        ['mds_income_statements', 'income-statements'],
        ['mds_balance_sheets', 'balance-sheets'],
        ['mds_cash_flow_statements', 'cash-flow-statements'],
      ])
        statements += (await expectWidgetRows(id, `instrument_id=${e.id}`, `/api/v1/equities/${e.id}/${path}`)).length;
    }
    expect(statements).toBeGreaterThan(0);
  });

  it('answers as the API does to a missing key, an unknown instrument and bad parameters', async () => {
    const noKey = await get(h, '/openbb/mds_valuations?instrument_id=600519.SH', {});
    expect(noKey.status).toBe(401);
    expect(noKey.body.errors[0].code).toBe('missing_api_key');
    const unknown = await get(h, '/openbb/mds_bars?instrument_id=600519&interval=1d');
    expect(unknown.status).toBe(404);
    expect(unknown.body.errors[0].detail).toMatch(/^No equity with id 600519/);
    const [equity] = await walk(h, '/api/v1/equities', 1);
    const cases: [string, string][] = [
      [`instrument_id=${equity.id}&adjustment=sideways`, 'adjustment'],
      [`instrument_id=${equity.id}&from=2025-02-30`, 'from'],
      [`instrument_id=${equity.id}&colour=red`, 'colour'],
      ['interval=1d', 'instrument_id'],
    ];
    for (const [q, parameter] of cases) {
      const res = await get(h, `/openbb/mds_bars?${q}`);
      expect(res.status, q).toBe(400);
      expect(
        res.body.errors.map((e: any) => e.source?.parameter),
        q,
      ).toContain(parameter);
    }
  });
});

describe('CORS for OpenBB Workspace (CORS_ORIGINS)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await harness(await STORES[0].url(), null);
  });
  afterAll(async () => {
    await h?.close();
  });
  const WORKSPACE = 'https://pro.openbb.co';

  it('answers an allowed origin’s preflight and requests, and no other origin', async () => {
    const app = await buildApp({
      config: { ...loadConfig({ CORS_ORIGINS: `${WORKSPACE}, http://localhost:1420` }), databaseUrl: h.url },
      store: h.store,
    });
    try {
      const pre = await app.inject({
        method: 'OPTIONS',
        url: '/openbb/mds_bars?instrument_id=600519.SH',
        headers: {
          origin: WORKSPACE,
          'access-control-request-method': 'GET',
          'access-control-request-headers': 'x-api-key',
          'access-control-request-private-network': 'true',
        },
      });
      expect(pre.statusCode).toBe(204);
      expect(pre.headers['access-control-allow-origin']).toBe(WORKSPACE);
      expect(pre.headers['access-control-allow-methods']).toBe('GET, HEAD');
      expect(pre.headers['access-control-allow-headers']).toBe('x-api-key');
      expect(pre.headers['access-control-allow-private-network']).toBe('true');
      expect(pre.headers['access-control-allow-credentials']).toBeUndefined();

      const ok = await app.inject({ method: 'GET', url: '/openbb/widgets.json', headers: { origin: WORKSPACE } });
      expect(ok.statusCode).toBe(200);
      expect(ok.headers['access-control-allow-origin']).toBe(WORKSPACE);
      expect(String(ok.headers.vary)).toMatch(/X-API-Key, Origin$/);
      // An error is readable too (the page shows why).
      const refused = await app.inject({ method: 'GET', url: '/api/v1/equities', headers: { origin: WORKSPACE } });
      expect([refused.statusCode, refused.headers['access-control-allow-origin']]).toEqual([401, WORKSPACE]);
      expect(String(refused.headers['access-control-expose-headers'])).toContain('X-Request-Id');

      const other = await app.inject({ method: 'GET', url: '/openbb/widgets.json', headers: { origin: 'https://evil.example' } });
      expect(other.headers['access-control-allow-origin']).toBeUndefined();
      expect(String(other.headers.vary)).toContain('Origin');
      const otherPre = await app.inject({
        method: 'OPTIONS',
        url: '/openbb/widgets.json',
        headers: { origin: 'https://evil.example', 'access-control-request-method': 'GET' },
      });
      expect(otherPre.statusCode).toBe(405);
    } finally {
      await app.close();
    }
  });

  it('sends no CORS headers by default, and refuses a CORS_ORIGINS that is not a list of origins', async () => {
    const res = await h.app.inject({ method: 'GET', url: '/openbb/widgets.json', headers: { origin: WORKSPACE } });
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    expect(String(res.headers.vary)).not.toContain('Origin');
    expect(loadConfig({ CORS_ORIGINS: '*' }).corsOrigins).toEqual(['*']);
    for (const bad of [`${WORKSPACE}/`, 'pro.openbb.co', `${WORKSPACE}/app`])
      expect(() => loadConfig({ CORS_ORIGINS: bad }), bad).toThrow(ConfigError);
  });
});
