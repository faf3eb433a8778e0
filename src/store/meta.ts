import { INDICATOR_IDS, type IndicatorId } from '../indicators/registry.js';
import type { BulkSession, Store } from './types.js';

/** The value of `meta` key `key` in session `s`, or null. */
export async function metaValue(s: BulkSession, key: string): Promise<string | null> {
  const [row] = await s.queryRows('select value from meta where key = ?', [key]);
  return row === undefined ? null : String(row[0]);
}

/** Sets `meta` key `key` to `value` in session `s`. */
export async function setMeta(s: BulkSession, key: string, value: string): Promise<void> {
  await s.query('insert into meta (key, value) values (?, ?) on conflict (key) do update set value = excluded.value', [key, value]);
}

/** Deletes `meta` key `key` in session `s`. */
export async function deleteMeta(s: BulkSession, key: string): Promise<void> {
  await s.query('delete from meta where key = ?', [key]);
}

/** The value of `meta` key `key` in the store (outside a transaction), or null. */
export async function readMeta(store: Pick<Store, 'select'>, key: string): Promise<string | null> {
  const [row] = await store.select<{ value: string }>('select value from meta where key = ?', [key]);
  return row === undefined ? null : row.value;
}

/** The `meta` key of the precomputed indicators' setting (derived/indicator-pages.ts). */
export const INDICATOR_PAGES_KEY = 'indicator_pages';

/**
 * The stored setting of precomputed indicators, `<version>:<id>,<id>`: the version of the pages
 * (derived/indicator-pages.ts) and the indicators chosen (none when nothing was ever chosen).
 */
export function parseIndicatorSetting(value: string | null | undefined): { version: string | null; ids: IndicatorId[] } {
  if (!value) return { version: null, ids: [] };
  const [version, list = ''] = value.split(':');
  return { version, ids: list.split(',').filter((id): id is IndicatorId => (INDICATOR_IDS as readonly string[]).includes(id)) };
}
