/**
 * Universes without survivorship bias (`index=` on pools, a market's day bars and breadth): the
 * members of an index in force on a day, i.e. those of its latest weight date on or before it
 * (store/readers/index-weights.ts), kept per weight date for the request.
 */
import type { IndexWeightReader } from '../store/readers/index-weights.js';

const NONE: ReadonlySet<number> = new Set();

export class IndexMembers {
  private readonly byDate = new Map<number, Promise<ReadonlySet<number>>>();

  constructor(
    private readonly weights: IndexWeightReader,
    /** The index's internal key. */
    private readonly index: number,
  ) {}

  /** The members (internal keys) in force on `day`; none before the index's first weight date. */
  async on(day: number): Promise<ReadonlySet<number>> {
    const d = await this.weights.weightDate(this.index, day);
    if (d === null) return NONE;
    let s = this.byDate.get(d);
    if (!s) {
      s = this.weights.rows(this.index, d, d, { after: null, limit: 100_000 }).then((rows) => new Set(rows.map((r) => r.inst)));
      this.byDate.set(d, s);
    }
    return s;
  }
}
