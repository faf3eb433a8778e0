/**
 * Institutional holders disclosed with each periodic report: a changing set of funds, QFIIs,
 * pension and insurance money, brokers, trusts and others. Holdings scale with bonus and
 * transfer shares between reports, drift, leave and enter. Ranked by shares (1 = largest).
 * percent_of_float = shares / float shares at report_date × 100; change = shares − shares at
 * the previous report (null for a holder absent from it).
 */
import type { Rng } from '../random.js';
import type { InstitutionalHoldingTable } from '../../store/schema-fundamentals.js';
import type { Period } from './periods.js';
import type { ShareHistory } from './shares.js';
import { holderName, holderType, type HolderType } from './people.js';
import { ratio } from './util.js';

export type HoldingRow = Omit<InstitutionalHoldingTable, 'inst'>;

const lots = (x: number) => Math.max(100, Math.round(x / 100) * 100);

export function holdingRows(r: Rng, shares: ShareHistory, reported: Period[], listDate: number): HoldingRow[] {
  const out: HoldingRow[] = [];
  const held = new Map<string, { type: HolderType; shares: number }>();
  let target = r.int(5, 12),
    prevDate = 0;
  for (const p of reported) {
    if (p.date < listDate) continue;
    const float = shares.floatAt(p.date);
    const grow = prevDate === 0 ? 1 : shares.totalAt(p.date) / shares.totalAt(prevDate);
    const previous = new Map([...held].map(([name, h]) => [name, h.shares]));
    for (const [name, h] of [...held]) {
      if (r.chance(h.type === 'fund' ? 0.2 : 0.12)) held.delete(name);
      else h.shares = lots(h.shares * grow * Math.exp(0.25 * r.normal()));
    }
    target = Math.min(14, Math.max(3, target + r.int(-2, 2)));
    for (let tries = 0; held.size < target && tries < 50; tries++) {
      const type = holderType(r);
      const name = holderName(r, type);
      if (!held.has(name)) held.set(name, { type, shares: lots(float * r.uniform(0.002, 0.04)) });
    }
    const total = [...held.values()].reduce((a, h) => a + h.shares, 0);
    if (total > 0.6 * float) for (const h of held.values()) h.shares = lots((h.shares * 0.6 * float) / total);
    const ranked = [...held].sort((a, b) => b[1].shares - a[1].shares || (a[0] < b[0] ? -1 : 1));
    ranked.forEach(([name, h], i) => {
      const before = previous.get(name);
      out.push({
        report_date: p.date,
        rank: i + 1,
        announce_date: p.announce,
        holder_name: name,
        holder_type: h.type,
        shares: h.shares,
        percent_of_float: ratio(h.shares, float, 10000)!,
        change: before === undefined ? null : h.shares - before,
      });
    });
    prevDate = p.date;
  }
  return out;
}
