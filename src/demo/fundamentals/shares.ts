/**
 * Share counts through time. The instrument row holds today's counts; earlier counts are
 * unwound through each later bonus, transfer or rights issue, inverting the core demo's
 * forward rule exactly (share-counts.ts: total rounded half up, float rounded down), so they
 * are the counts of its share_capital rows.
 */
import type { ActionIn } from './inputs.js';
import { sharesBefore } from '../share-counts.js';

export class ShareHistory {
  /** [ex-date, total before it, float before it], latest first. */
  private readonly steps: [number, number, number][] = [];

  constructor(
    private readonly total: number,
    private readonly float: number,
    actions: ActionIn[],
  ) {
    let t = total,
      f = float;
    for (const a of [...actions].sort((x, y) => y.exDate - x.exDate)) {
      const added = a.bonus + a.transfer + a.rightsRatio;
      if (added === 0) continue;
      ({ total: t, float: f } = sharesBefore(t, f, added));
      this.steps.push([a.exDate, t, f]);
    }
  }

  /** Total shares at the close of `date`. */
  totalAt(date: number): number {
    return this.at(date, 1, this.total);
  }

  floatAt(date: number): number {
    return this.at(date, 2, this.float);
  }

  private at(date: number, k: 1 | 2, now: number): number {
    let v = now;
    for (const s of this.steps) {
      if (s[0] <= date) break;
      v = s[k];
    }
    return v;
  }
}
