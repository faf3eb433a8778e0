/**
 * `index=` on market-wide pages (pools, a market's day bars, breadth): only the members of an
 * index in force on each day (query/index-members.ts), a universe without survivorship bias.
 */
import { Type } from '@sinclair/typebox';
import type { Snapshot } from '../query/snapshot.js';
import { IndexMembers } from '../query/index-members.js';
import { ApiError, invalid } from '../lib/errors.js';

export const indexQuery = Type.Optional(
  Type.String({
    minLength: 1,
    maxLength: 100,
    description:
      'An index (CODE.MARKET, e.g. 000300.SH): only its members in force on each day, those of its latest weight date on or before it ' +
      '(listIndexConstituents); none before its first weight date.',
  }),
);

/** The members of the index `id` (null when not asked); 400 naming `index` when it is no index of the store. */
export function indexMembers(snap: Snapshot, id: string | undefined): IndexMembers | null {
  if (id === undefined) return null;
  const row = snap.catalog.get(id);
  if (!row || row.kind !== 'index') throw new ApiError(invalid('index', `${id} is not an index of this store (listIndices)`));
  return new IndexMembers(snap.indexWeights, row.inst);
}
