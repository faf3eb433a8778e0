import type { BulkSession, Store } from '../store/types.js';

/**
 * Derived data kept beside the packs (pages, indicator states) is code's output, so it carries a
 * rendition in `meta` under `key`: when the stored one is not `rendition`, `rebuild` derives it
 * all again, in one transaction (under the pack lock, BulkSession.lockPacks, so a concurrent
 * merge waits), and the rendition is recorded. Returns whether it rebuilt.
 */
export async function ensureRendition(store: Store, key: string, rendition: string, rebuild: (s: BulkSession) => Promise<void>): Promise<boolean> {
  const stored = async (s: BulkSession) => (await s.queryRows('select value from meta where key = ?', [key]))[0]?.[0];
  if (await store.bulkTransaction(stored, { readOnly: true }) === rendition) return false;
  return store.bulkTransaction(async (s) => {
    await s.lockPacks();
    if (await stored(s) === rendition) return false;
    await rebuild(s);
    await s.query('insert into meta (key, value) values (?, ?) on conflict (key) do update set value = excluded.value', [key, rendition]);
    return true;
  });
}
