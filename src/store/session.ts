import type { BulkSession } from './types.js';

/**
 * Session `s` with its own `upsert`, `insert` and `settle`: what a store wrapping another gives its
 * transactions (derived/bar-packs.ts, whose upserts also merge bar packs). Statements and locks
 * are `s`'s.
 */
export function sessionWith(s: BulkSession, own: Pick<BulkSession, 'upsert' | 'insert' | 'settle'>): BulkSession {
  return {
    query: <R>(sql: string, params?: unknown[]) => s.query<R>(sql, params),
    queryRows: (sql, params) => s.queryRows(sql, params),
    lockPacks: () => s.lockPacks(),
    lockVersions: () => s.lockVersions(),
    settle: own.settle,
    upsert: own.upsert,
    insert: own.insert,
  };
}
