/**
 * Financial indicators derived from the statements of one period (no other input), so anyone
 * can recompute them from the published statements. Rounding: half away from zero, exactly.
 * Percentages and ratios in hundredths (2 decimals), EPS and BPS in 1/10000 CNY (4 decimals).
 *
 *   eps = net_profit_attributable / (share_capital / 1 CNY)          (CNY per share)
 *   bps = equity_attributable / (share_capital / 1 CNY)
 *   roe = net_profit_attributable / equity_attributable × 100         (period, not annualised; null if equity ≤ 0)
 *   roa = net_profit / total_assets × 100
 *   gross_margin = (revenue − operating_cost) / revenue × 100
 *   net_margin = net_profit / revenue × 100
 *   debt_to_assets = total_liabilities / total_assets × 100
 *   current_ratio = current_assets / current_liabilities
 *   quick_ratio = (current_assets − inventory) / current_liabilities
 *   revenue_yoy, net_profit_yoy = (x − x_prev) / |x_prev| × 100, x_prev of the same report type one year
 *   earlier (net profit attributable); null without that period or when x_prev is 0.
 * Any other zero denominator gives null.
 */
import type { Balance, Income } from './statements.js';
import { ratio } from './util.js';

export interface Indicators {
  eps: number | null;
  bps: number | null;
  roe: number | null;
  roa: number | null;
  gross_margin: number | null;
  net_margin: number | null;
  debt_to_assets: number | null;
  current_ratio: number | null;
  quick_ratio: number | null;
  revenue_yoy: number | null;
  net_profit_yoy: number | null;
}

const growth = (x: number, prev: number | undefined) => (prev === undefined || prev === 0 ? null : ratio(x - prev, Math.abs(prev), 10000));

export function deriveIndicators(inc: Income, bal: Balance, prev: Income | undefined): Indicators {
  const shares = bal.share_capital / 100;
  return {
    eps: ratio(inc.net_profit_attributable, shares, 100),
    bps: ratio(bal.equity_attributable, shares, 100),
    roe: bal.equity_attributable > 0 ? ratio(inc.net_profit_attributable, bal.equity_attributable, 10000) : null,
    roa: ratio(inc.net_profit, bal.total_assets, 10000),
    gross_margin: ratio(inc.revenue - inc.operating_cost, inc.revenue, 10000),
    net_margin: ratio(inc.net_profit, inc.revenue, 10000),
    debt_to_assets: ratio(bal.total_liabilities, bal.total_assets, 10000),
    current_ratio: ratio(bal.current_assets, bal.current_liabilities, 100),
    quick_ratio: ratio(bal.current_assets - bal.inventory, bal.current_liabilities, 100),
    revenue_yoy: growth(inc.revenue, prev?.revenue),
    net_profit_yoy: growth(inc.net_profit_attributable, prev?.net_profit_attributable),
  };
}
